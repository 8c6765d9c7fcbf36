import { JobQueue } from '../../kernel/platform/queue/job-queue';
import { acquirerProviderOf } from '../../kernel/common/protocols/acquirer-provider';
import { ADYEN_WEBHOOKS_PATH } from '../../kernel/common/protocols/adyen';
import { CONFIG_SECTIONS } from '../../src/config.sections';
import { ConfigValidationError, loadConfig } from '../../kernel/platform/config/config';
import { AcquirerPort } from '../../src/provider/acquirer.port';
import { AdyenAcquirer } from '../../src/provider/acquirer/adyen/adyen-acquirer';
import { HttpAcquirer } from '../../src/provider/acquirer/http-acquirer';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * ACQUIRER_PROVIDER is read in one place, `service` still means the generic protocol, and
 * Adyen's webhook route and its job exist only where Adyen is the acquirer.
 */
describe('the choice of acquirer', () => {
  it('reads generic (the default; `service` is its old name) or adyen, and nothing else', () => {
    expect(acquirerProviderOf(undefined)).toBe('generic');
    expect(acquirerProviderOf('')).toBe('generic');
    expect(acquirerProviderOf('generic')).toBe('generic');
    expect(acquirerProviderOf(' service ')).toBe('generic');
    expect(acquirerProviderOf('adyen')).toBe('adyen');
    expect(acquirerProviderOf('Adyen')).toBeNull();
    expect(acquirerProviderOf('stripe')).toBeNull();
    expect(acquirerProviderOf('toString')).toBeNull();
  });

  it('refuses to start on an unknown provider, naming it', () => {
    let err: unknown;
    try {
      loadConfig(CONFIG_SECTIONS, { NODE_ENV: 'test', ACQUIRER_PROVIDER: 'stripe', DATA_DIR: '/tmp/pp-choice-unused' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigValidationError);
    expect((err as ConfigValidationError).problems).toContain('ACQUIRER_PROVIDER must be generic or adyen, got "stripe"');
  });

  const post = (t: TestApp) =>
    fetch(`${t.url}${ADYEN_WEBHOOKS_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

  describe.each([
    ['unset', {}],
    ['service (the old name)', { ACQUIRER_PROVIDER: 'service' }],
  ])('on the generic protocol (%s)', (_name, env) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env });
    });
    afterAll(() => t.close());

    it('pays cards through the generic client, with no Adyen route and no Adyen job', async () => {
      expect(t.app.get(AcquirerPort)).toBeInstanceOf(HttpAcquirer);
      const res = await post(t);
      expect(res.status).toBe(404);
      expect(t.app.get(JobQueue).registered()).not.toContain('adyen.notification');
    });
  });

  describe('on adyen', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { ACQUIRER_PROVIDER: 'adyen' } });
    });
    afterAll(() => t.close());

    it('pays cards through Adyen, receives its webhooks (Basic auth first) and applies them by a job', async () => {
      expect(t.app.get(AcquirerPort)).toBeInstanceOf(AdyenAcquirer);
      const res = await post(t);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('adyen_webhook_unauthorized');
      expect(t.app.get(JobQueue).registered()).toContain('adyen.notification');
    });
  });
});
