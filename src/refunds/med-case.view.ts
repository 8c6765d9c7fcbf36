import { fromCents } from '../../kernel/common/formats/money';
import { rfc3339 } from '../../kernel/common/formats/rfc3339';
import type { MedCaseDto } from './dto/med-case.dto';
import type { MedCaseRecord } from './med-cases.repository';

/** A MED case as its routes answer it and its webhook carries it. */
export function medCaseView(m: MedCaseRecord): MedCaseDto {
  const v: MedCaseDto = {
    medCaseId: m.id,
    paymentId: m.paymentId,
    paymentKind: m.paymentKind,
    endToEndId: m.endToEndId,
    devolucaoId: m.devolucaoId,
    natureza: m.natureza,
    amount: fromCents(m.amountCents),
    currency: 'BRL',
    status: m.status,
    createdAt: rfc3339(m.createdAt),
    updatedAt: rfc3339(m.updatedAt),
  };
  if (m.rtrId) v.rtrId = m.rtrId;
  if (m.descricao) v.descricao = m.descricao;
  if (m.motivo) v.motivo = m.motivo;
  if (m.returnedAt) v.returnedAt = rfc3339(m.returnedAt);
  return v;
}
