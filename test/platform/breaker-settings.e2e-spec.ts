import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devConfigProblems } from '../support/config-problems';
import { ProviderProxy } from '../support/provider-proxy';
import { spawnService } from '../support/service-process';
import { onboardTenant, OnboardedTenant } from '../support/tenant-auth';
import { http, startTestApp, TestApp } from '../support/test-app';

const problems = devConfigProblems;

/** The provider (bank), acquirer and 3DS server breakers are settings of each edge. */
describe('breaker settings per edge', () => {
  it('a bad breaker setting refuses to boot, with one clear line naming the variable', async () => {
    const s = await spawnService({ PROVIDER_BREAKER_RESET_MS: 'soon', DATA_DIR: mkdtempSync(join(tmpdir(), 'brk-')) });
    const code = await Promise.race([s.exited, new Promise<'still running'>((r) => setTimeout(() => r('still running'), 20000))]);
    if (code === 'still running') s.proc.kill('SIGKILL');
    expect(code).toBe(1);
    expect(s.output()).toContain('PROVIDER_BREAKER_RESET_MS must be an integer, got "soon"');

    expect(
      problems({
        ACQUIRER_BREAKER_ERROR_THRESHOLD_PERCENT: '150',
        THREE_DS_BREAKER_VOLUME_THRESHOLD: '0',
        THREE_DS_BREAKER_RESET_MS: '10',
        PROVIDER_BREAKER_VOLUME_THRESHOLD: 'many',
      }).sort(),
    ).toEqual([
      'ACQUIRER_BREAKER_ERROR_THRESHOLD_PERCENT must be between 1 and 100, got 150',
      'PROVIDER_BREAKER_VOLUME_THRESHOLD must be an integer, got "many"',
      'THREE_DS_BREAKER_RESET_MS must be between 50 and 3600000, got 10',
      'THREE_DS_BREAKER_VOLUME_THRESHOLD must be between 1 and 1000, got 0',
    ]);
    expect(problems({ ACQUIRER_BREAKER_RESET_MS: '2000', THREE_DS_BREAKER_ERROR_THRESHOLD_PERCENT: '25' })).toEqual([]);
  });

  describe('a short PROVIDER_BREAKER_RESET_MS', () => {
    let t: TestApp;
    let o: OnboardedTenant;
    const proxy = new ProviderProxy();
    const limits = () => http(t.url, 'GET', `/v1/banking/accounts/${o.tenantId}/limits`, undefined, o.auth);
    const breaker = async () =>
      (await http(t.url, 'GET', '/health/ready', undefined, { 'X-Admin-Key': t.adminKey })).body.details.circuitBreakers[
        'bank.getAccountLimits'
      ];

    beforeAll(async () => {
      const origin = await proxy.start();
      t = await startTestApp({
        env: {
          PROVIDER_URL: `${origin}/sandbox/bank`,
          PROVIDER_BREAKER_RESET_MS: '400',
          PROVIDER_BREAKER_VOLUME_THRESHOLD: '1',
          PROVIDER_BREAKER_ERROR_THRESHOLD_PERCENT: '50',
          ACCOUNT_LIMITS_CACHE_MS: '0',
          ACCOUNT_LIMITS_STALE_MS: '0',
        },
      });
      proxy.target = t.sandboxUrl;
      o = await onboardTenant(t, { rateLimitPerMinute: 1000 });
    });
    afterAll(async () => {
      await t.close();
      await proxy.close();
    });

    it('opens on the first failure and lets a probe through after 400 ms instead of 10 s', async () => {
      proxy.mode = 'down';
      expect((await limits()).body).toMatchObject({ statusCode: 500, error: 'provider_unavailable' });
      expect(await breaker()).toBe('open');
      const callsWhileOpen = proxy.calls;
      expect((await limits()).body.error).toBe('provider_unavailable');
      expect(proxy.calls).toBe(callsWhileOpen); // open: the bank is not asked

      await new Promise((r) => setTimeout(r, 600));
      expect(await breaker()).toBe('half-open');
      proxy.mode = 'up';
      expect((await limits()).status).toBe(200);
      expect(await breaker()).toBe('closed');
    });
  });
});
