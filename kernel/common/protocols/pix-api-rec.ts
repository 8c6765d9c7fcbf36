/**
 * How the service names its recurrence inside an API Pix rec: its recurrence id as
 * `vinculo.contrato` (35 characters at most, so the UUID without dashes). The service sends it
 * on `POST /rec` and finds the rec by it after a lost answer; the sandbox PSP, acting as the
 * payer's bank, finds by it the rec behind a recurrence id the tenant knows.
 */
export function contratoOf(recurrenceId: string): string {
  return recurrenceId.replace(/-/g, '');
}
