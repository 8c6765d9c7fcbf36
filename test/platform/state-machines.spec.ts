import { REFUND_MACHINE } from '../../src/refunds/domain/refund.state-machine';
import { CARD_PAYMENT_MACHINE } from '../../src/provider/acquirer/card-charge.state-machine';
import { CARD_SESSION_MACHINE } from '../../src/cards/sessions/card-session.state-machine';
import { LINK_MACHINE } from '../../src/links/domain/link.state-machine';
import { PAYMENT_ITEM_MACHINES } from '../../src/links/domain/payment-item.state-machine';
import { defineStateMachine, StateMachineDefinitionError, TransitionRefusal } from '../../kernel/platform/state-machine/state-machine';
import { THREE_DS_MACHINE } from '../../src/three-ds/three-ds.state-machine';
import { DELIVERY_MACHINE } from '../../src/webhooks/domain/delivery.state-machine';
import { expectExhaustiveMatrix } from '../support/state-machine-matrix';

/** Every stateful resource on the kernel's one API, each checked over every (state, trigger) pair by the one helper. */
describe('the state machines, exhaustively', () => {
  const past = new Date('2026-01-01T00:00:00Z');
  const now = new Date('2026-06-01T00:00:00Z');
  const future = new Date('2027-01-01T00:00:00Z');

  it('link: the service triggers fire only when their guards hold (expiry passed, uses reached)', () => {
    const due = { now, expiresAt: past, maxUses: 3, paidCount: 3 };
    expectExhaustiveMatrix(
      LINK_MACHINE,
      {
        'ACTIVE DEACTIVATE': 'INACTIVE',
        'INACTIVE ACTIVATE': 'ACTIVE',
        'ACTIVE EXPIRES_AT_REACHED': 'EXPIRED',
        'ACTIVE MAX_USES_REACHED': 'EXHAUSTED',
      },
      due,
    );
    const notYet = { now, expiresAt: future, maxUses: 3, paidCount: 2 };
    expectExhaustiveMatrix(LINK_MACHINE, { 'ACTIVE DEACTIVATE': 'INACTIVE', 'INACTIVE ACTIVATE': 'ACTIVE' }, notYet);
    expect(LINK_MACHINE.transition('ACTIVE', 'EXPIRES_AT_REACHED', notYet)).toMatchObject({
      ok: false,
      reason: TransitionRefusal.GUARD_REFUSED,
    });
    expect(LINK_MACHINE.transition('ACTIVE', 'MAX_USES_REACHED', { ...notYet, maxUses: null })).toMatchObject({
      ok: false,
      reason: TransitionRefusal.GUARD_REFUSED,
    });
  });

  it('card payment', () => {
    expectExhaustiveMatrix(CARD_PAYMENT_MACHINE, {
      'PROCESSING approved_sale': 'ACCEPTED',
      'PROCESSING approved_preauth': 'PREAUTH',
      'PROCESSING refused': 'AUTH_REJECTED',
      'PROCESSING failed': 'FAILED',
      'PREAUTH capture': 'CAPTURED',
      'PREAUTH void': 'VOIDED',
      'ACCEPTED void': 'VOIDED',
      'CAPTURED void': 'VOIDED',
      'CAPTURED capture_failed': 'CAPTURE_FAILED',
      'VOIDED void_failed': 'VOID_FAILED',
    });
    expect(CARD_PAYMENT_MACHINE.sourcesOf('void').sort()).toEqual(['ACCEPTED', 'CAPTURED', 'PREAUTH']);
  });

  it('refund', () => {
    expectExhaustiveMatrix(REFUND_MACHINE, {
      'PENDING succeeded': 'SUCCEEDED',
      'PENDING failed': 'FAILED',
      'PENDING reversed': 'REVERSED',
      'SUCCEEDED failed': 'FAILED',
      'SUCCEEDED reversed': 'REVERSED',
    });
  });

  it('3DS authentication', () => {
    expectExhaustiveMatrix(THREE_DS_MACHINE, {
      'INITIALIZED setup': 'SETUP_COMPLETE',
      'SETUP_COMPLETE setup': 'SETUP_COMPLETE',
      'SETUP_COMPLETE authenticated': 'AUTHENTICATED',
      'SETUP_COMPLETE not_authenticated': 'NOT_AUTHENTICATED',
      'SETUP_COMPLETE unavailable': 'UNAVAILABLE',
      'SETUP_COMPLETE challenge': 'CHALLENGE_PENDING',
      'CHALLENGE_PENDING challenge_passed': 'AUTHENTICATED',
      'CHALLENGE_PENDING challenge_failed': 'CHALLENGE_FAILED',
    });
  });

  it('hosted card session: opened once and used once, both before it expires', () => {
    expectExhaustiveMatrix(CARD_SESSION_MACHINE, { 'CREATED open': 'OPENED', 'OPENED tokenize': 'USED' }, { now, expiresAt: future });
    expectExhaustiveMatrix(CARD_SESSION_MACHINE, {}, { now, expiresAt: past });
  });

  it('webhook delivery', () => {
    expectExhaustiveMatrix(DELIVERY_MACHINE, {
      'PENDING delivered': 'DELIVERED',
      'PENDING attempt_failed': 'PENDING',
      'PENDING attempts_exhausted': 'DEAD',
      'PENDING endpoint_gone': 'CANCELLED',
    });
  });

  it("a link's payment items, one machine per method", () => {
    expectExhaustiveMatrix(PAYMENT_ITEM_MACHINES.CARD, {
      'ACCEPTED VOID': 'VOIDED',
      'CAPTURED VOID': 'VOIDED',
      'PREAUTH CAPTURE': 'CAPTURED',
      'PREAUTH VOID': 'VOIDED',
    });
    expectExhaustiveMatrix(PAYMENT_ITEM_MACHINES.PIX, {
      'PENDING CONFIRM': 'AUTHORIZED',
      'PENDING EXPIRE': 'EXPIRED',
      'AUTHORIZED SETTLE': 'SETTLED',
    });
    expectExhaustiveMatrix(PAYMENT_ITEM_MACHINES.BOLETO, {
      'PENDING PAY': 'PAID',
      'PENDING PAY_BY_PIX': 'PAID_PIX',
      'PENDING EXPIRE': 'EXPIRED',
      'PENDING CANCEL': 'CANCELED',
    });
  });

  it('the helper has teeth: a missing, an extra and a misspelt pair each fail', () => {
    const m = defineStateMachine('toy', { A: 'A', B: 'B' } as const, { go: 'go' } as const, { go: { from: ['A'], to: 'B' } }, ['B']);
    expect(() => expectExhaustiveMatrix(m, {})).toThrow(/A go should be refused/);
    expect(() => expectExhaustiveMatrix(m, { 'A go': 'B', 'B go': 'A' })).toThrow(/B go should go to A/);
    expect(() => expectExhaustiveMatrix(m, { 'A go': 'B', 'A og': 'B' })).toThrow(/not a \(state, trigger\) pair/);
    expect(() =>
      defineStateMachine('bad', { A: 'A' } as const, { go: 'go' } as const, { go: { from: ['A'], to: 'A' } }, [], {
        nope: () => true,
      } as any),
    ).toThrow(StateMachineDefinitionError);
  });
});
