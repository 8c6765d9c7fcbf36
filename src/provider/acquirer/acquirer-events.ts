import { Injectable, Logger } from '@nestjs/common';
import { AcquirerNotification } from '../../../kernel/common/protocols/acquirer-events';

/** Answers whether the consumer knew the transaction (true) or it is someone else's (false). */
export type AcquirerEventHandler = (event: AcquirerNotification) => Promise<boolean>;

/**
 * Where verified acquirer notifications go. Feature modules (links, cards) subscribe at start
 * (`onModuleInit`), so the provider never imports a feature. They are called from a job of the
 * queue (the generic acquirer's AcquirerInbox, Adyen's AdyenNotifications) or from API Pix's
 * received Pix: a handler that throws rolls its report back, and the report is tried again.
 */
@Injectable()
export class AcquirerEvents {
  private readonly logger = new Logger('AcquirerEvents');
  private readonly handlers: { name: string; handle: AcquirerEventHandler }[] = [];

  subscribe(name: string, handle: AcquirerEventHandler): void {
    this.handlers.push({ name, handle });
  }

  async dispatch(event: AcquirerNotification): Promise<{ handledBy: string[] }> {
    const handledBy: string[] = [];
    for (const h of this.handlers) if (await h.handle(event)) handledBy.push(h.name);
    if (!handledBy.length)
      this.logger.warn({ eventId: event.eventId, type: event.type }, 'acquirer event for an unknown transaction ignored');
    return { handledBy };
  }
}
