import { redactDeep, redactString } from './redact';

/**
 * pino options of an app's logger: `service` in every line names the app that wrote it
 * (`payments-platform`, `payments-sandbox`), given by the app's composition root.
 */
export function pinoOptions(level: string, service: string) {
  return {
    level,
    base: { service },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    messageKey: 'msg',
    formatters: {
      level: (label: string) => ({ level: label }),
      // Every logged object goes through the deep redactor, whatever its shape.
      log: (obj: Record<string, unknown>) => redactDeep(obj) as Record<string, unknown>,
    },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(
          this,
          args.map((a) => (typeof a === 'string' ? redactString(a) : a)),
        );
      },
    },
  };
}

export function isProbe(url: string | undefined): boolean {
  return !!url && (url.startsWith('/health/') || url === '/metrics');
}

/** Query strings can carry tokens; logs keep the path only. */
export function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? url : `${url.slice(0, i)}?…`;
}
