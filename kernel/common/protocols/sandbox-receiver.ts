/**
 * The sandbox's one receiving account, as both apps know it: the holder of the sandbox's Pix key
 * (the acquirer's BR Codes and the API Pix PSP's charges) and the beneficiary of its boletos, which
 * the service's sandbox gives every tenant as its default merchant. Named in one place so the
 * checkout, the BR Code (merchant name, field 59) and the payer's bank app name the same seller.
 */
export const SANDBOX_RECEIVER = {
  name: 'Loja Principal (sandbox)',
  cnpj: '11222333000181',
  city: 'Sao Paulo',
  /** The receiver's institution, as the payer's bank shows it. */
  institution: 'Banco Sandbox S.A.',
} as const;
