import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { parse, parseAllDocuments } from 'yaml';
import { satisfies } from 'semver';

const ROOT = join(__dirname, '..', '..');
const KINDS: Record<string, new (o: any) => { validate(): void }> = {
  Deployment,
  Service,
  HorizontalPodAutoscaler,
  PodDisruptionBudget,
  ConfigMap,
  NetworkPolicy,
} as any;

describe('deployment files (they cannot run here; checked by schema and by rule)', () => {
  const manifests = readdirSync(join(ROOT, 'deploy/k8s'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) => parseAllDocuments(readFileSync(join(ROOT, 'deploy/k8s', f), 'utf8')).map((d) => d.toJS()));

  it('every Kubernetes manifest validates against the Kubernetes schema', () => {
    expect(manifests.map((m) => m.kind).sort()).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
      'Service',
    ]);
    for (const m of manifests) expect(() => new KINDS[m.kind](m).validate()).not.toThrow();
    // the check has teeth: a wrong type is refused
    const d = manifests.find((m) => m.kind === 'Deployment');
    expect(() => new Deployment({ ...d, spec: { ...d.spec, replicas: 'two' } }).validate()).toThrow();
  });

  it('the Deployment probes the health routes, sets resources and a SIGTERM grace above the 10 s exit', () => {
    const d = manifests.find((m) => m.kind === 'Deployment');
    const c = d.spec.template.spec.containers[0];
    expect(c.livenessProbe.httpGet.path).toBe('/health/live');
    expect(c.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(c.resources.requests).toBeDefined();
    expect(c.resources.limits).toBeDefined();
    expect(d.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(10);
    // V8's old space is capped well inside the memory limit (it would size itself from the whole limit)
    const limitMiB = Number(/^(\d+)Mi$/.exec(c.resources.limits.memory)?.[1]);
    const oldSpaceMiB = Number(/--max-old-space-size=(\d+)/.exec(c.env.find((e: any) => e.name === 'NODE_OPTIONS')?.value ?? '')?.[1]);
    expect(oldSpaceMiB).toBeGreaterThanOrEqual(256);
    expect(oldSpaceMiB).toBeLessThanOrEqual(limitMiB * 0.65);
    expect(d.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
    const hpa = manifests.find((m) => m.kind === 'HorizontalPodAutoscaler');
    const pdb = manifests.find((m) => m.kind === 'PodDisruptionBudget');
    expect(hpa.spec.scaleTargetRef.name).toBe(d.metadata.name);
    expect(pdb.spec.selector.matchLabels).toEqual(d.spec.selector.matchLabels);
  });

  it('docker compose waits for healthy PostgreSQL 17 and Redis 7; the image is multi-stage, non-root, production deps only', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    expect(compose.services.postgres.image).toBe('postgres:17');
    expect(compose.services.redis.image).toBe('redis:7');
    for (const s of ['postgres', 'redis', 'service']) expect(compose.services[s].healthcheck).toBeDefined();
    expect(compose.services.service.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    const docker = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(docker.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(docker).toMatch(/npm ci --omit=dev/);
    expect(docker).toMatch(/^USER node$/m);
  });

  it('compose starts the sandbox app beside the service (a staging environment), from its own image target', () => {
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    const sandbox = compose.services.sandbox;
    expect(sandbox.profiles).toBeUndefined();
    expect(sandbox.build).toEqual({ context: '.', target: 'sandbox' });
    expect(sandbox.healthcheck).toBeDefined();
    expect(sandbox.environment.SANDBOX_SERVICE_URL).toBe('http://service:3000');
    expect(sandbox.environment.SANDBOX_DATABASE_URL).toBe(compose.services.service.environment.DATABASE_URL);
    expect(compose.services.service.environment.SANDBOX_URL).toBe('http://sandbox:3001');
    // the sandbox writes its PSP's PKI to DATA_DIR, which the service reads (read-only)
    expect(sandbox.volumes).toContain('sandbox-data:/app/.data');
    expect(compose.services.service.volumes).toContain('sandbox-data:/app/.data:ro');
    const docker = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const stages = [...docker.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]);
    expect(stages).toContain('sandbox');
    expect(stages[stages.length - 1]).toBe('runtime'); // `docker build .` makes the service
  });

  it('the image and CI run Node 24 LTS; the engines range takes 22 and 24 and leaves out the unsupported 20', () => {
    const docker = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    // every stage starts from Node 24, or from a stage of this file that does
    const stages = new Set([...docker.matchAll(/^FROM \S+ AS (\S+)$/gm)].map((m) => m[1]));
    const bases = (docker.match(/^FROM \S+/gm) ?? []).map((b) => b.slice(5));
    expect(bases.filter((b) => !stages.has(b)).length).toBeGreaterThanOrEqual(2);
    for (const b of bases) if (!stages.has(b)) expect(b).toMatch(/^node:24-/);
    expect(readFileSync(join(ROOT, '.nvmrc'), 'utf8').trim()).toBe('24');
    const range = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node;
    for (const v of ['22.12.0', '24.0.0', '24.21.0']) expect(satisfies(v, range)).toBe(true);
    for (const v of ['20.20.2', '21.7.0', '23.0.0']) expect(satisfies(v, range)).toBe(false);
    expect(readFileSync(join(ROOT, '.ci/run'), 'utf8')).toMatch(/node@24/);
    // CI runs this very suite on Node 24 (.ci/run puts the registry's node@24 first on PATH), and
    // once more on the machine's own Node (PP_CI_MACHINE_NODE), the way a newcomer would
    if (process.env.CI === 'true' && !process.env.PP_CI_MACHINE_NODE) expect(process.versions.node.split('.')[0]).toBe('24');
  });

  it('the sandbox image has openssl for its PKI, a DATA_DIR the node user owns, and its PSP on every interface', () => {
    const docker = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const stage = (name: string) => {
      const from = docker.indexOf(` AS ${name}\n`);
      const next = docker.indexOf('\nFROM ', from);
      return docker.slice(from, next < 0 ? undefined : next);
    };
    expect(stage('sandbox')).toMatch(/apt-get install -y --no-install-recommends openssl/);
    expect(stage('runtime')).not.toMatch(/openssl/); // the service's image makes no PKI
    expect(stage('sandbox')).toMatch(/^ENV SANDBOX_PSP_HOST=0\.0\.0\.0$/m);
    expect(stage('runtime-deps')).toMatch(/^ENV DATA_DIR=\/app\/\.data$/m);
    expect(stage('runtime-deps')).toMatch(/mkdir -p \/app\/\.data && chown node:node \/app\/\.data/);
  });

  it('the API Service exposes the API port alone; /metrics is scraped on the ops port; TRUST_PROXY names the ingress only', () => {
    const d = manifests.find((m) => m.kind === 'Deployment');
    const c = d.spec.template.spec.containers[0];
    const ports = Object.fromEntries(c.ports.map((p: any) => [p.name, p.containerPort]));
    const configMap = manifests.find((m) => m.kind === 'ConfigMap');
    expect(ports).toEqual({ http: Number(configMap.data.PORT), ops: Number(configMap.data.OPS_PORT) });
    const annotations = d.spec.template.metadata.annotations;
    expect(annotations['prometheus.io/port']).toBe(String(ports.ops));
    expect(annotations['prometheus.io/path']).toBe('/metrics');
    const services = manifests.filter((m) => m.kind === 'Service');
    const api = services.find((s) => s.metadata.name === d.metadata.name);
    expect(api.spec.ports.map((p: any) => p.targetPort)).toEqual(['http']);
    const ops = services.find((s) => s.metadata.name === `${d.metadata.name}-ops`);
    expect(ops.spec.type).toBe('ClusterIP');
    expect(ops.spec.ports.map((p: any) => p.targetPort)).toEqual(['ops']);
    // probes stay on the API port (health answers on both)
    expect(c.readinessProbe.httpGet.port).toBe('http');
    // X-Forwarded-For is believed from the ingress controller's addresses only, never a cluster-wide range
    for (const cidr of configMap.data.TRUST_PROXY.split(',')) {
      const [ip, bits = '32'] = cidr.trim().split('/');
      expect({ cidr, narrow: ip.includes(':') ? Number(bits) >= 64 : Number(bits) >= 24 }).toEqual({ cidr, narrow: true });
    }
    expect(configMap.data.TRUST_PROXY).not.toMatch(/10\.0\.0\.0\/8/);
    const policy = manifests.find((m) => m.kind === 'NetworkPolicy');
    expect(policy.spec.podSelector.matchLabels).toEqual(d.spec.selector.matchLabels);
    expect(policy.spec.ingress.flatMap((r: any) => r.ports.map((p: any) => p.port)).sort()).toEqual(['http', 'ops']);
  });
});
