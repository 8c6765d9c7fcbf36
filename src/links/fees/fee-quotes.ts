import { fromCents } from '../../../kernel/common/formats/money';
import { FeeSimulation, FeeTable, PaymentMethod, simulateAll } from '../domain/fees';
import { FeeOptionDto } from '../dto/fees.dto';

export function optionToApi(s: FeeSimulation): FeeOptionDto {
  return {
    paymentMethod: s.method,
    installments: s.installments,
    grossAmount: fromCents(s.grossCents),
    fee: fromCents(s.feeCents),
    netAmount: fromCents(s.netCents),
    installmentAmounts: s.installmentCents.map(fromCents),
    feePercent: s.percentBps / 100,
    feeFixed: fromCents(s.fixedCents),
  };
}

/** Every option a payer sees for a price: each enabled method, card with 1..maxInstallments. */
export function quoteAll(
  table: FeeTable,
  amountCents: number,
  methods: readonly PaymentMethod[],
  maxInstallments: number,
  passFee: boolean,
): FeeSimulation[] {
  const order: PaymentMethod[] = ['CARD', 'PIX', 'BOLETO'];
  return order
    .filter((m) => methods.includes(m))
    .flatMap((method) => simulateAll({ amountCents, method, passFee, maxInstallments: method === 'CARD' ? maxInstallments : 1 }, table));
}
