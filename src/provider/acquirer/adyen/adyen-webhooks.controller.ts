import { Body, Controller, Header, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { defineErrors } from '../../../../kernel/platform/errors/app-error';
import {
  ADYEN_ACCEPTED,
  ADYEN_WEBHOOKS_PATH,
  AdyenNotificationItem,
  AdyenNotificationRequest,
  adyenHmacKey,
  basicAuthMatches,
  verifyAdyenItem,
} from '../../../../kernel/common/protocols/adyen';
import { AdyenConfig } from './adyen.config';
import { AdyenNotifications } from './adyen-notifications';

export const AdyenWebhookErrors = defineErrors({
  adyen_webhook_unauthorized: 401,
  adyen_webhook_invalid: 400,
});

/**
 * Adyen's standard webhooks: Basic auth, then the HMAC of every item (a batch with one bad item
 * is refused whole, nothing kept); accepted items are stored once each and answered
 * `[accepted]` at once, and applied by a worker (AdyenNotifications), so a slow consumer never
 * makes Adyen retry.
 */
@Controller()
export class AdyenWebhooksController {
  private readonly key: Buffer;

  constructor(
    private readonly config: AdyenConfig,
    private readonly notifications: AdyenNotifications,
  ) {
    this.key = adyenHmacKey(config.hmacKey);
  }

  @Post(ADYEN_WEBHOOKS_PATH)
  @HttpCode(200)
  @Header('content-type', 'text/plain; charset=utf-8')
  @ApiExcludeEndpoint()
  async receive(@Headers('authorization') authorization: string | undefined, @Body() body: AdyenNotificationRequest): Promise<string> {
    if (!basicAuthMatches(authorization, this.config.webhookUsername, this.config.webhookPassword))
      throw AdyenWebhookErrors.error('adyen_webhook_unauthorized', 'Adyen webhook refused: wrong or missing Basic credentials');
    const items = itemsOf(body);
    if (!items) throw AdyenWebhookErrors.error('adyen_webhook_invalid', 'Not an Adyen standard webhook (notificationItems)');
    if (!items.every((i) => verifyAdyenItem(this.key, i)))
      throw AdyenWebhookErrors.error('adyen_webhook_unauthorized', 'Adyen webhook refused: an item has no valid hmacSignature');
    await this.notifications.accept(items);
    return ADYEN_ACCEPTED;
  }
}

function itemsOf(body: AdyenNotificationRequest | undefined): AdyenNotificationItem[] | null {
  const list = body?.notificationItems;
  if (!Array.isArray(list) || list.length === 0 || list.length > 100) return null;
  const items = list.map((w) => w?.NotificationRequestItem);
  const ok = items.every(
    (i) =>
      i &&
      typeof i.pspReference === 'string' &&
      i.pspReference.length <= 64 &&
      typeof i.merchantReference === 'string' &&
      i.merchantReference.length <= 256 &&
      typeof i.eventCode === 'string' &&
      i.eventCode.length <= 64 &&
      typeof i.eventDate === 'string' &&
      (i.success === 'true' || i.success === 'false') &&
      Number.isSafeInteger(i.amount?.value) &&
      typeof i.amount?.currency === 'string' &&
      i.amount.currency.length === 3,
  );
  return ok ? (items as AdyenNotificationItem[]) : null;
}

declare module '../../../../kernel/platform/errors/app-error' {
  /** AdyenWebhookErrors' codes are codes @ApiErrors may name. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface ErrorCodes extends Record<keyof typeof AdyenWebhookErrors.table, true> {}
}
