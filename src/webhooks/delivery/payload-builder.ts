/**
 * The bytes and headers of one attempt.
 * - acquiring: body `{"id","type","createdAt","data"}`, signed (./../domain/signing) with the
 *   current secret, plus `X-Service-Signature-Previous` and a second V2 entry while a rotation's
 *   grace period runs. `X-Service-Timestamp` is the real time of the attempt (receivers compare
 *   it with their own clock), so V2 is re-signed on every attempt; the body never changes.
 * - pix-automatic: body `{"keyId","iv","ciphertext","tag"}` (./../domain/sealing) of
 *   `{"id","event_type","idTx","occurredAt","data"}`; during a rotation's grace period it is
 *   sealed with the PREVIOUS key (keyId says so), afterwards with the new one.
 * Both carry `X-Service-Webhook-Id` (the event id, the same on every attempt and replay: dedupe on it).
 */
import { parseSealingKey, seal } from '../domain/sealing';
import { signatureHeaders, TIMESTAMP_HEADER, WEBHOOK_ID_HEADER } from '../domain/signing';
import { SecretKeyRing } from '../endpoints/secret-box';
import { ClaimedDelivery } from '../outbox/outbox.store';

export interface BuiltPayload {
  body: string;
  headers: Record<string, string>;
}

const CACHE_LIMIT = 2000;

export class PayloadBuilder {
  /** Opened secrets by their stored box (a rotation makes a new box, so entries never go stale). */
  private readonly secrets = new Map<string, string>();

  constructor(private readonly keys: SecretKeyRing) {}

  build(d: ClaimedDelivery, now: Date, wallClockSeconds: number): BuiltPayload {
    const inGrace = !!d.previousSecretBox && !!d.previousKeyId && !!d.previousExpiresAt && d.previousExpiresAt.getTime() > now.getTime();
    if (d.domain === 'acquiring') {
      const body = acquiringBody(d);
      const secrets = { current: this.open(d, d.secretBox), ...(inGrace ? { previous: this.open(d, d.previousSecretBox!) } : {}) };
      return { body, headers: signatureHeaders(secrets, { id: d.eventId, timestamp: wallClockSeconds, rawBody: body }) };
    }
    const keyId = inGrace ? d.previousKeyId! : d.keyId;
    const key = parseSealingKey(this.open(d, inGrace ? d.previousSecretBox! : d.secretBox));
    const plaintext = {
      id: d.eventId,
      event_type: d.eventType,
      idTx: d.idTx,
      occurredAt: d.occurredAt.toISOString(),
      data: JSON.parse(d.dataJson),
    };
    return {
      body: JSON.stringify(seal(key, keyId, plaintext)),
      headers: { [WEBHOOK_ID_HEADER]: d.eventId, [TIMESTAMP_HEADER]: String(wallClockSeconds) },
    };
  }

  private open(d: ClaimedDelivery, box: string): string {
    let s = this.secrets.get(box);
    if (s === undefined) {
      s = this.keys.open(d.tenantId, d.domain, box);
      if (this.secrets.size >= CACHE_LIMIT) this.secrets.clear();
      this.secrets.set(box, s);
    }
    return s;
  }
}

/** `{"id","type","createdAt","data"}`: the data is the stored jsonb text, spliced in unchanged. */
export function acquiringBody(d: Pick<ClaimedDelivery, 'eventId' | 'eventType' | 'occurredAt' | 'dataJson'>): string {
  return `{"id":${JSON.stringify(d.eventId)},"type":${JSON.stringify(d.eventType)},"createdAt":${JSON.stringify(d.occurredAt.toISOString())},"data":${d.dataJson}}`;
}
