import { toCents } from '../../../kernel/common/formats/money';
import { FeeTable, MAX_INSTALLMENTS, validateFeeTable } from '../domain/fees';
import { FeeTableDto } from '../dto/merchant.dto';

/** Fee table between API units (percent, BRL) and the domain's (basis points, cents). */
export function feeTableToApi(t: FeeTable): FeeTableDto {
  const percentByInstallments: Record<string, number> = {};
  for (let n = 1; n <= MAX_INSTALLMENTS; n++) percentByInstallments[String(n)] = t.CARD.percentBps[n] / 100;
  return {
    CARD: { percentByInstallments, fixed: t.CARD.fixedCents / 100 },
    PIX: { percent: t.PIX.percentBps / 100, fixed: t.PIX.fixedCents / 100 },
    BOLETO: { fixed: t.BOLETO.fixedCents / 100 },
  };
}

/** @throws FeeError fee_table_invalid, MoneyError */
export function feeTableFromApi(d: FeeTableDto): FeeTable {
  const percentBps: Record<number, number> = {};
  for (const [k, v] of Object.entries(d.CARD.percentByInstallments ?? {})) percentBps[Number(k)] = toCents(v);
  return validateFeeTable({
    CARD: { percentBps, fixedCents: toCents(d.CARD.fixed) },
    PIX: { percentBps: toCents(d.PIX.percent), fixedCents: toCents(d.PIX.fixed) },
    BOLETO: { fixedCents: toCents(d.BOLETO.fixed) },
  });
}
