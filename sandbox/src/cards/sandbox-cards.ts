/**
 * Authorization outcomes of the sandbox acquirer, driven by the card number as in Stripe's
 * test mode. The table is rendered in docs/guide/cards.md: keep descriptions short and factual.
 *
 * Any card number that is not listed is approved, both as a direct sale (ACCEPTED) and as a
 * pre-authorization (PREAUTH, later captured to CAPTURED), so every test card works with
 * either capture mode unless it is listed with another outcome. The 3DS test cards are
 * approved by the acquirer; their 3DS behaviour is in ./three-ds-cards.
 */
import { CardBrand, cardBrand, normalizePan } from '../../../kernel/common/formats/pan';
import { THREE_DS_TEST_CARDS } from './three-ds-cards';

/** Direct sale (`ACCEPTED` when approved) or pre-authorization (`PREAUTH` when approved). */
export type CaptureMode = 'sale' | 'preauth';

export type SandboxCardOutcome = 'approved' | 'refused' | 'failed';
export type SandboxRefusalReason = 'generic_decline' | 'insufficient_funds';
export type SandboxFailureReason = 'processing_error';

/** What the sandbox acquirer answers to an authorization. */
export type SandboxAuthorization =
  | { outcome: 'approved'; status: 'ACCEPTED' | 'PREAUTH' }
  | { outcome: 'refused'; status: 'AUTH_REJECTED'; reason: SandboxRefusalReason }
  | { outcome: 'failed'; status: 'FAILED'; reason: SandboxFailureReason; retryable: true };

export interface SandboxTestCard {
  number: string;
  brand: CardBrand;
  outcome: SandboxCardOutcome;
  /** payment item status, as shown in docs/guide/cards.md */
  status: 'ACCEPTED or PREAUTH' | 'AUTH_REJECTED' | 'FAILED';
  reason?: SandboxRefusalReason | SandboxFailureReason;
  description: string;
}

type Row = Omit<SandboxTestCard, 'brand' | 'status'>;

const APPROVED = 'ACCEPTED or PREAUTH' as const;

const ROWS: readonly Row[] = [
  { number: '4111111111111111', outcome: 'approved', description: 'Approved (Visa).' },
  { number: '4242424242424242', outcome: 'approved', description: 'Approved (Visa).' },
  { number: '5555555555554444', outcome: 'approved', description: 'Approved (Mastercard).' },
  { number: '2223003122003222', outcome: 'approved', description: 'Approved (Mastercard, 2-series BIN).' },
  { number: '378282246310005', outcome: 'approved', description: 'Approved (American Express).' },
  ...THREE_DS_TEST_CARDS.map((card): Row => ({
    number: card.number,
    outcome: 'approved',
    description: `Approved by the acquirer. 3DS: ${card.description}`,
  })),
  {
    number: '4000000000000002',
    outcome: 'refused',
    reason: 'generic_decline',
    description: 'Refused by the issuer (generic decline).',
  },
  {
    number: '4000000000009995',
    outcome: 'refused',
    reason: 'insufficient_funds',
    description: 'Refused by the issuer: insufficient funds.',
  },
  {
    number: '4000000000000119',
    outcome: 'failed',
    reason: 'processing_error',
    description: 'Technical failure at the acquirer (processing error); a new attempt may succeed.',
  },
];

/** The sandbox's test cards, in the guide's order. Any other card number is approved. */
export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = Object.freeze(
  ROWS.map((row): SandboxTestCard => ({
    ...row,
    brand: cardBrand(row.number),
    status: row.outcome === 'approved' ? APPROVED : row.outcome === 'refused' ? 'AUTH_REJECTED' : 'FAILED',
  })),
);

/** README line for numbers that are not in the table. */
export const SANDBOX_DEFAULT_CARD_DESCRIPTION =
  'Any other card number: approved, as a direct sale (ACCEPTED) or as a pre-authorization (PREAUTH, then CAPTURED on capture).';

const BY_NUMBER: ReadonlyMap<string, SandboxTestCard> = new Map(SANDBOX_TEST_CARDS.map((c) => [c.number, c]));

/** The sandbox acquirer's answer for a card number (spaces and hyphens ignored) and capture mode. */
export function sandboxAuthorization(pan: string, mode: CaptureMode = 'sale'): SandboxAuthorization {
  const card = BY_NUMBER.get(normalizePan(pan));
  if (!card || card.outcome === 'approved') return { outcome: 'approved', status: mode === 'preauth' ? 'PREAUTH' : 'ACCEPTED' };
  if (card.outcome === 'refused') return { outcome: 'refused', status: 'AUTH_REJECTED', reason: card.reason as SandboxRefusalReason };
  return { outcome: 'failed', status: 'FAILED', reason: 'processing_error', retryable: true };
}
