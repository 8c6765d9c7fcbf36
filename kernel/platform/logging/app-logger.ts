import { Injectable, LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { pinoOptions } from './logger.options';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** The root pino logger of one application; a provider so every app (and test app) has its own. */
export abstract class RootLog {
  abstract readonly pino: Pino;
}

export function createRootLog(level: string, service: string, destination?: NodeJS.WritableStream): RootLog {
  return { pino: destination ? pino(pinoOptions(level, service), destination) : pino(pinoOptions(level, service)) };
}

/**
 * Nest's logger interface over pino, without request-scoped storage: the request id is part of
 * the request line and of every error the exception filter logs, which is what a reader needs to
 * join them. (nestjs-pino's AsyncLocalStorage and per-request child loggers cost more than the
 * whole token check on the hot path.)
 *
 * Call shapes accepted, as Nest's `Logger` forwards them with its context appended last:
 * `log('text', ctx)`, `error('text', stack, ctx)`, `error({ err, requestId }, 'text', ctx)`.
 */
@Injectable()
export class AppLogger implements LoggerService {
  constructor(private readonly root: RootLog) {}

  get pino(): Pino {
    return this.root.pino;
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const log = this.root.pino;
    if (!log.isLevelEnabled(level)) return;
    const rest = params.filter((p) => p !== undefined);
    const context =
      rest.length && typeof rest[rest.length - 1] === 'string' && (rest.length > 1 || typeof message !== 'object' || message === null)
        ? (rest.pop() as string)
        : undefined;
    const obj: Record<string, unknown> = context ? { context } : {};
    let msg: string | undefined;
    if (message instanceof Error) {
      obj.err = { type: message.name, message: message.message, stack: message.stack };
      msg = message.message;
    } else if (message && typeof message === 'object') {
      Object.assign(obj, message);
      if (typeof rest[0] === 'string') msg = rest.shift() as string;
    } else {
      msg = String(message);
    }
    // what is left of an error call is its stack
    if (rest.length && typeof rest[0] === 'string' && level === 'error') obj.stack = rest.shift();
    log[level](obj, msg);
  }
}
