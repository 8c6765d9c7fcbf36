import { Controller, HttpCode, Injectable, Post, Req } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineErrors } from '../../../kernel/platform/errors/app-error';
import { captureRawBody } from '../../../kernel/platform/http/raw-body';
import { AcquirerConfig } from './acquirer.config';
import { ACQUIRER_SIGNATURE_HEADER, AcquirerNotification, verifyAcquirerEvent } from '../../../kernel/common/protocols/acquirer-events';
import { isAcquirerEventId } from './acquirer-event-checks';
import { AcquirerInbox } from './acquirer-inbox';

export const ACQUIRER_EVENTS_PATH = '/provider/acquirer-events';

export const AcquirerEventErrors = defineErrors({
  acquirer_signature_invalid: 401,
  acquirer_event_invalid: 400,
});

/**
 * Keeps the exact request bytes of the acquirer's notifications (the HMAC covers them) before
 * JSON parsing, for this one route only. In the constructor: the hook must be in place before
 * Nest registers the routes.
 */
@Injectable()
export class RawBodyCapture {
  constructor(host: HttpAdapterHost) {
    const fastify = host.httpAdapter?.getInstance?.() as FastifyInstance | undefined;
    if (fastify?.addHook) captureRawBody(fastify, { method: 'POST', url: ACQUIRER_EVENTS_PATH }, 256 * 1024);
  }
}

/**
 * Inbound status notifications from the acquirer (Pix paid/settled/expired, boleto paid/expired,
 * card refunds and disputes). A signed notification is kept once by its eventId and its
 * application runs on the job queue (AcquirerInbox): the answer is 200 once it is kept, whatever
 * its application came to (`status` says), so the acquirer redelivers only what was not kept.
 */
@Controller()
export class AcquirerEventsController {
  constructor(
    private readonly config: AcquirerConfig,
    private readonly inbox: AcquirerInbox,
  ) {}

  @Post(ACQUIRER_EVENTS_PATH)
  @HttpCode(200)
  @ApiExcludeEndpoint()
  async receive(@Req() req: FastifyRequest) {
    const kept: unknown = (req as any).rawBody;
    const raw = Buffer.isBuffer(kept) ? kept.toString('utf8') : (kept as string | undefined);
    const header = req.headers[ACQUIRER_SIGNATURE_HEADER];
    // Replay window on wall time: a transport matter, not business time (the test clock may be days ahead).
    const check = verifyAcquirerEvent(
      this.config.eventsSecret,
      typeof header === 'string' ? header : undefined,
      raw ?? '',
      Math.floor(Date.now() / 1000),
      this.config.eventsToleranceSeconds,
    );
    if (!check.ok || raw === undefined)
      throw AcquirerEventErrors.error('acquirer_signature_invalid', `Acquirer signature refused: ${check.ok ? 'no body' : check.reason}`);
    const event = req.body as AcquirerNotification;
    if (!event || !isAcquirerEventId(event.eventId) || typeof event.type !== 'string' || typeof event.data?.transactionId !== 'string') {
      throw AcquirerEventErrors.error('acquirer_event_invalid', 'Not an acquirer event');
    }
    return { received: true, ...(await this.inbox.accept(event)) };
  }
}

declare module '../../../kernel/platform/errors/app-error' {
  /** AcquirerEventErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof AcquirerEventErrors.table, true> {}
}
