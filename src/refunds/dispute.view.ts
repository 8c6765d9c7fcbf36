import { fromCents } from '../../kernel/common/formats/money';
import { rfc3339 } from '../../kernel/common/formats/rfc3339';
import { DISPUTE_STAGES } from './domain/dispute';
import type { DisputeDto } from './dto/refund.dto';
import type { DisputeRecord } from './disputes.repository';

/** A dispute as its routes answer it and its webhook carries it. */
export function disputeView(d: DisputeRecord): DisputeDto {
  const v: DisputeDto = {
    disputeId: d.id,
    paymentId: d.paymentId,
    status: d.status,
    stage: d.stage,
    amount: fromCents(d.amountCents),
    heldAmount: fromCents(d.heldCents),
    currency: 'BRL',
    stages: [...d.stages]
      .sort((a, b) => DISPUTE_STAGES[a.stage].rank - DISPUTE_STAGES[b.stage].rank || a.at.localeCompare(b.at))
      .map((s) => ({ stage: s.stage, at: rfc3339(s.at), amount: fromCents(s.amountCents) })),
    createdAt: rfc3339(d.createdAt),
    updatedAt: rfc3339(d.updatedAt),
  };
  if (d.reasonCode) v.reasonCode = d.reasonCode;
  if (d.defendBy) v.defendBy = rfc3339(d.defendBy);
  return v;
}
