import { RequestMethod } from '@nestjs/common';
import type { Params } from 'nestjs-pino';
import { redactDeep, redactString } from './redact';

/** pino options shared by the HTTP logger and the standalone scripts. */
export function pinoOptions(level: string) {
  return {
    level,
    base: { service: 'payments-platform' },
    timestamp: () => `,"time":"${new Date().toISOString()}"`,
    messageKey: 'msg',
    formatters: {
      level: (label: string) => ({ level: label }),
      // Every logged object goes through the deep redactor, whatever its shape.
      log: (obj: Record<string, unknown>) => redactDeep(obj) as Record<string, unknown>,
    },
    hooks: {
      logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? redactString(a) : a)));
      },
    },
  };
}

export function loggerModuleParams(level: string, destination?: NodeJS.WritableStream): Params {
  return {
    pinoHttp: {
      ...pinoOptions(level),
      ...(destination ? { stream: destination } : {}),
      genReqId: (req: any) => req.id,
      customProps: (req: any) => ({ requestId: req.id }),
      // One line per request, with the route template, never the headers or the body.
      serializers: {
        req: (req: any) => ({ method: req.method, url: stripQuery(req.url), remoteAddress: req.remoteAddress }),
        res: (res: any) => ({ statusCode: res.raw?.statusCode ?? res.statusCode }),
      },
      // Probes and scrapes are not requests worth a line (a 503 readiness while booting is expected).
      customLogLevel: (req: any, res: any, err: unknown) =>
        isProbe(req.url) ? 'silent' : err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
      autoLogging: { ignore: (req: any) => isProbe(req.url) },
      quietReqLogger: true,
    } as any,
    forRoutes: [{ path: '*splat', method: RequestMethod.ALL }],
  };
}

function isProbe(url: string | undefined): boolean {
  return !!url && (url.startsWith('/health/') || url === '/metrics');
}

/** Query strings can carry tokens; logs keep the path only. */
function stripQuery(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? url : `${url.slice(0, i)}?…`;
}
