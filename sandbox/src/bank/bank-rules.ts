/**
 * The sandbox bank's test data rules (pure), like Stripe's test card numbers: the cents of a
 * billing's amount decide how the payer's bank settles it on the due date.
 *
 * | cents | outcome                                 |
 * |-------|-----------------------------------------|
 * | .51   | REJECTED (no balance)                   |
 * | .52   | EXPIRED (not paid by the due date)      |
 * | .53   | CANCELLED_PAYER (the payer cancels it)  |
 * | .54   | REJECTED (no balance on the due date; on the API Pix face a retry is paid) |
 * | other | COMPLETED                               |
 */
export type Settlement = 'COMPLETED' | 'REJECTED' | 'EXPIRED' | 'CANCELLED_PAYER';

export function settlementOf(amountCents: number): Settlement {
  switch (amountCents % 100) {
    case 51:
    case 54:
      return 'REJECTED';
    case 52:
      return 'EXPIRED';
    case 53:
      return 'CANCELLED_PAYER';
    default:
      return 'COMPLETED';
  }
}

export const SETTLEMENT_EVENT: Record<Settlement, string> = {
  COMPLETED: 'BILLING_COMPLETED',
  REJECTED: 'BILLING_REJECTED',
  EXPIRED: 'BILLING_EXPIRED',
  CANCELLED_PAYER: 'BILLING_CANCELED_PAYER',
};

export interface BankEvent {
  eventType: string;
  idTx: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/**
 * A provider event in both variants (PIX_AUTOMATIC_RECEIVER_* and PIX_AUTOMATIC_PAYER_*), or in
 * one when only one party acted (a recurrence cancelled by the receiver or by the payer).
 */
export function variants(
  name: string,
  idTx: string,
  occurredAt: string,
  data: Record<string, unknown>,
  only?: 'RECEIVER' | 'PAYER',
): BankEvent[] {
  const sides = only ? [only] : (['RECEIVER', 'PAYER'] as const);
  return sides.map((side) => ({ eventType: `PIX_AUTOMATIC_${side}_${name}`, idTx, occurredAt, data }));
}

/** Small seeded PRNG (mulberry32) so a chaos run can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Chaos: every event may be sent twice, and the whole list is shuffled. */
export function chaos<T>(items: T[], random: () => number): T[] {
  const out: T[] = [];
  for (const it of items) {
    out.push(it);
    if (random() < 0.5) out.push(it);
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
