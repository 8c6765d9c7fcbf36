import type { CardDisputeStage } from '../../../kernel/common/protocols/acquirer-refunds';
import { DISPUTE_STAGES, disputeState, DisputeStageSeen, withStage } from './dispute';

const at = (i: number) => `2026-11-2${i}T12:00:00Z`;
const play = (...stages: CardDisputeStage[]): DisputeStageSeen[] => stages.map((stage, i) => ({ stage, at: at(i), amountCents: 5000 }));

describe('a dispute derived from its stages', () => {
  it.each([
    [['REQUEST_FOR_INFORMATION'], 'INQUIRY', 0],
    [['NOTIFICATION_OF_CHARGEBACK'], 'NEEDS_RESPONSE', 5000],
    [['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK'], 'NEEDS_RESPONSE', 5000],
    [['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED'], 'WON', 0],
    [['NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'DISPUTE_DEFENSE_PERIOD_ENDED'], 'LOST', 5000],
    [['CHARGEBACK', 'INFORMATION_SUPPLIED'], 'UNDER_REVIEW', 5000],
    [['CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK'], 'LOST', 5000],
    [['CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK', 'PREARBITRATION_WON'], 'WON', 0],
    [['CHARGEBACK', 'CHARGEBACK_REVERSED', 'SECOND_CHARGEBACK', 'PREARBITRATION_LOST'], 'LOST', 5000],
  ] as [CardDisputeStage[], string, number][])('%j → %s, %d held', (stages, status, held) => {
    expect(disputeState(play(...stages))).toMatchObject({ status, heldCents: held, stage: stages[stages.length - 1] });
  });

  it('gives the same state whatever order or repetition the notifications came in', () => {
    const seq = play('NOTIFICATION_OF_CHARGEBACK', 'CHARGEBACK', 'CHARGEBACK_REVERSED');
    let acc: DisputeStageSeen[] = [];
    for (const s of [seq[2], seq[0], seq[2], seq[1], seq[0]]) acc = withStage(acc, s);
    expect(acc).toHaveLength(3);
    expect(disputeState(acc)).toEqual(disputeState(seq));
  });

  it('has a rule for every stage of the protocol', () => {
    const stages: CardDisputeStage[] = [
      'REQUEST_FOR_INFORMATION',
      'NOTIFICATION_OF_CHARGEBACK',
      'CHARGEBACK',
      'CHARGEBACK_REVERSED',
      'SECOND_CHARGEBACK',
      'PREARBITRATION_WON',
      'PREARBITRATION_LOST',
      'INFORMATION_SUPPLIED',
      'DISPUTE_DEFENSE_PERIOD_ENDED',
    ];
    expect(Object.keys(DISPUTE_STAGES).sort()).toEqual([...stages].sort());
    expect(disputeState([])).toBeNull();
  });
});
