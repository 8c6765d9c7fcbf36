import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { ConfigSection, ConfigValidationError, loadConfig } from '../../kernel/platform/config/config';
import { SANDBOX_CONFIG_SECTIONS } from '../../sandbox/src/config.sections';
import { sandboxEnv } from '../../sandbox/src/sandbox-env';
import { generateSecrets } from '../../scripts/secrets-generate';
import { CONFIG_SECTIONS } from '../../src/config.sections';

/**
 * Every variable the configuration requires in production is given by the deployment files. The
 * list is asked of the configuration itself (a production load with nothing set: each problem
 * names its variable first), so a new required variable fails here until the files give it.
 * docker compose cannot run on the build machine: its files are read as YAML and their `${…}`
 * interpolated as compose does, from the .env `npm run secrets:generate` writes.
 */
const ROOT = join(__dirname, '..', '..');

function problemsOf(sections: ConfigSection<object>[], env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(sections, env);
    return [];
  } catch (e) {
    if (e instanceof ConfigValidationError) return e.problems;
    throw e;
  }
}

/** The variables a production boot of `sections` refuses to start without, on top of `env`. */
function requiredIn(sections: ConfigSection<object>[], env: Record<string, string> = {}, wrap = (e: NodeJS.ProcessEnv) => e): string[] {
  const names = problemsOf(sections, wrap({ NODE_ENV: 'production', ...env }))
    .map((p) => /^([A-Z][A-Z0-9_]*) /.exec(p)?.[1])
    .filter((n): n is string => !!n);
  return [...new Set(names)].sort();
}

/** A compose value with its `${NAME}`, `${NAME:-default}`, `${NAME-default}`, `${NAME:?message}` filled from `dotenv`. */
function interpolate(value: unknown, dotenv: Record<string, string>): string {
  return String(value).replace(
    /\$\{([A-Za-z0-9_]+)(?:(:-|-|:\?|\?)([^}]*))?\}/g,
    (_m, name: string, op: string | undefined, arg: string) => {
      const v = dotenv[name];
      if (op === ':?' || op === '?') {
        if (v === undefined || (op === ':?' && v === '')) throw new Error(`compose refuses: ${name} is not set (${arg})`);
        return v;
      }
      if (op === ':-') return v ? v : arg;
      if (op === '-') return v ?? arg;
      return v ?? '';
    },
  );
}

/** The names a compose environment marks required (`${NAME:?…}`): what the operator's .env must hold. */
function demanded(environment: Record<string, unknown>): string[] {
  return [...new Set(Object.values(environment).flatMap((v) => [...String(v).matchAll(/\$\{([A-Za-z0-9_]+):\?/g)].map((m) => m[1])))];
}

/** The service's environment as compose hands it over: only the .env's values for the names it demands. */
function composed(environment: Record<string, unknown>, dotenv: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, interpolate(v, dotenv)]));
}

const given = (env: Record<string, string | undefined>) => Object.keys(env).filter((k) => !!env[k]?.trim());

describe('the deployment files give every variable a production boot requires (asked of the configuration)', () => {
  const secrets = generateSecrets();
  const base = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
  const production = parse(readFileSync(join(ROOT, 'docker-compose.production.yml'), 'utf8'));

  it('the list is the configuration’s own: secrets, DATABASE_URL, and the bank when no sandbox is configured', () => {
    const alone = requiredIn(CONFIG_SECTIONS);
    expect(alone).toEqual(
      expect.arrayContaining(['ADMIN_API_KEY', 'DATABASE_URL', 'JWT_SIGNING_KEYS', 'PROVIDER_URL', 'VAULT_MASTER_KEYS']),
    );
    expect(requiredIn(CONFIG_SECTIONS, { SANDBOX_URL: 'http://sandbox:3001' })).not.toContain('PROVIDER_URL');
    expect(requiredIn(SANDBOX_CONFIG_SECTIONS, {}, sandboxEnv)).toEqual(expect.arrayContaining(['DATABASE_URL', 'TEST_CLOCK_SECRET']));
  });

  it('docker compose up (the staging environment: the service and the sandbox app) boots both with the .env secrets:generate writes', () => {
    const service = base.services.service.environment;
    const sandbox = base.services.sandbox.environment;
    expect(base.services.sandbox.profiles).toBeUndefined(); // part of every `up`, --profile sandbox or not
    // .env holds exactly what the README's step makes
    expect([...new Set([...demanded(service), ...demanded(sandbox)])].sort()).toEqual(Object.keys(secrets).sort());
    const env = composed(service, secrets);
    for (const name of requiredIn(CONFIG_SECTIONS, { SANDBOX_URL: env.SANDBOX_URL }))
      expect({ name, given: given(env).includes(name) }).toEqual({ name, given: true });
    expect(problemsOf(CONFIG_SECTIONS, env)).toEqual([]);
    expect(env.SANDBOX_URL).toBe('http://sandbox:3001');
    expect(new URL(env.SANDBOX_PSP_URL).hostname).toBe('sandbox');

    const sb = composed(sandbox, secrets);
    for (const name of requiredIn(SANDBOX_CONFIG_SECTIONS, {}, sandboxEnv)) {
      expect({ name, given: given(sandboxEnv(sb)).includes(name) }).toEqual({ name, given: true });
    }
    expect(problemsOf(SANDBOX_CONFIG_SECTIONS, sandboxEnv(sb))).toEqual([]);
    // the service reaches the sandbox PSP by the name its certificate is made for, on an interface it listens on
    expect(sb.SANDBOX_PSP_CERT_HOSTS.split(',')).toContain(new URL(env.SANDBOX_PSP_URL).hostname);
    expect(sb.SANDBOX_PSP_HOST).toBe('0.0.0.0');
    expect(new URL(env.SANDBOX_PSP_URL).port).toBe(sb.SANDBOX_PSP_PORT);
    // the service's test clock is on and shares its secret with the sandbox's
    expect(env.TEST_CLOCK_ENABLED).toBe('true');
    expect(env.TEST_CLOCK_SECRET).toBe(sb.TEST_CLOCK_SECRET);
  });

  it('with docker-compose.production.yml the service needs the real parties from .env, and runs no sandbox', () => {
    const merged = { ...base.services.service.environment, ...production.services.service.environment };
    const parties = demanded(merged).filter((n) => !(n in secrets));
    // the parties compose asks of .env include every URL the configuration requires without a sandbox
    const urls = requiredIn(CONFIG_SECTIONS).filter((n) => !(n in secrets) && n !== 'DATABASE_URL');
    expect(urls.length).toBeGreaterThan(0);
    expect(parties).toEqual(expect.arrayContaining(urls));
    // without them compose refuses before anything starts
    expect(() => composed(merged, secrets)).toThrow(/compose refuses/);
    const dotenv = {
      ...secrets,
      ...Object.fromEntries(parties.map((n) => [n, `https://${n.toLowerCase().replace(/_/g, '-')}.example.com`])),
    };
    const env = composed(merged, dotenv);
    for (const name of requiredIn(CONFIG_SECTIONS)) expect({ name, given: given(env).includes(name) }).toEqual({ name, given: true });
    expect(problemsOf(CONFIG_SECTIONS, env)).toEqual([]);
    expect(given(env)).not.toContain('SANDBOX_URL');
    expect(env.TEST_CLOCK_ENABLED).toBe('false');
    expect(production.services.sandbox.profiles?.length).toBeGreaterThan(0);
    // the .env of the README's first step still holds every secret the merged file demands
    expect(Object.keys(secrets)).toEqual(expect.arrayContaining(demanded(merged).filter((n) => !parties.includes(n))));
  });

  describe('Kubernetes: the ConfigMap and the Secret keys the Deployment reads', () => {
    const manifests = readdirSync(join(ROOT, 'deploy/k8s'))
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => parseAllDocuments(readFileSync(join(ROOT, 'deploy/k8s', f), 'utf8')).map((d) => d.toJS()));
    const deployment = manifests.find((m) => m.kind === 'Deployment');
    const container = deployment.spec.template.spec.containers[0];
    const configMapName = container.envFrom.find((e: any) => e.configMapRef)?.configMapRef.name;
    const configMap = manifests.find((m) => m.kind === 'ConfigMap' && m.metadata.name === configMapName);
    const fromSecret: string[] = container.env.filter((e: any) => e.valueFrom?.secretKeyRef).map((e: any) => e.name);
    const literal: Record<string, string> = Object.fromEntries(
      container.env.filter((e: any) => 'value' in e).map((e: any) => [e.name, e.value]),
    );
    const names = [...Object.keys(configMap.data), ...fromSecret, ...Object.keys(literal)];

    it('gives every required variable, for the generic acquirer and the service bank, on Adyen and over API Pix', () => {
      const variants: Record<string, string>[] = [{}, { ACQUIRER_PROVIDER: 'adyen' }, { BANK_PROVIDER: 'pix-api' }];
      for (const variant of variants) {
        for (const name of requiredIn(CONFIG_SECTIONS, variant))
          expect({ variant, name, given: names.includes(name) }).toEqual({ variant, name, given: true });
      }
    });

    it('secrets come from the Secret, never the ConfigMap; with them the ConfigMap boots the service', () => {
      const secretNames = [...requiredIn(CONFIG_SECTIONS), ...requiredIn(CONFIG_SECTIONS, { ACQUIRER_PROVIDER: 'adyen' })].filter(
        (n) => n in secrets || n === 'DATABASE_URL' || /KEY|SECRET|PASSWORD/.test(n),
      );
      for (const name of secretNames)
        expect({ name, secret: fromSecret.includes(name), inConfigMap: name in configMap.data }).toEqual({
          name,
          secret: true,
          inConfigMap: false,
        });
      for (const e of container.env.filter((x: any) => x.valueFrom?.secretKeyRef))
        expect(e.valueFrom.secretKeyRef.name).toBe('payments-platform');
      const secretValues = { ...secrets, DATABASE_URL: 'postgres://payments:pw@postgres:5432/payments' };
      const env = {
        ...configMap.data,
        ...literal,
        ...Object.fromEntries(fromSecret.filter((n) => n in secretValues).map((n) => [n, (secretValues as any)[n]])),
      };
      expect(problemsOf(CONFIG_SECTIONS, env)).toEqual([]);
    });
  });
});
