import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { http, startTestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');

describe('OpenAPI document', () => {
  it('the committed openapi.json matches what the code generates', () => {
    // Run from the build so the swagger CLI plugin's metadata is in, as in production.
    const out = execFileSync(process.execPath, [join(ROOT, 'dist/scripts/openapi-write.js'), '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(out).toContain('openapi.json matches the code');
  });

  it('passes redocly lint with the recommended rules', () => {
    const out = execFileSync(
      process.execPath,
      [require.resolve('@redocly/cli/bin/cli.js'), 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'summary'],
      { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).not.toMatch(/error/i);
  });

  it('is served at /docs-json with servers and security schemes, and Swagger UI at /docs', async () => {
    const t = await startTestApp();
    try {
      const doc = await http(t.url, 'GET', '/docs-json');
      expect(doc.status).toBe(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(doc.body.servers[0].url).toBe('http://localhost:3000');
      expect(Object.keys(doc.body.components.securitySchemes)).toEqual(expect.arrayContaining(['bearer', 'adminKey']));
      for (const [path, item] of Object.entries<any>(doc.body.paths)) {
        for (const op of Object.values<any>(item)) {
          expect({ path, op: op.operationId, has500: !!op.responses['500'] }).toEqual({ path, op: expect.any(String), has500: true });
        }
      }
      const ui = await http(t.url, 'GET', '/docs');
      expect(ui.status).toBe(200);
      expect(ui.text).toContain('swagger-ui');
    } finally {
      await t.close();
    }
  });
});
