/** `n` days from now, as YYYY-MM-DD (UTC). */
export function futureDay(n: number): string {
  return new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
}

/** A valid recurrence create body (Maria Souza's monthly plan, first due in 10 days). */
export function recurrenceBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 49.9,
    currency: 'BRL',
    periodicity: 'MONTHLY',
    firstDueDate: futureDay(10),
    payerName: 'Maria Souza',
    payerTaxId: '52998224725',
    description: 'Plano',
    ...over,
  };
}
