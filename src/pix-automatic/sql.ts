/** Rows and affected count of one statement: the one helper of platform/database. */
export { exec } from '../../kernel/platform/database/sql';

/** Currency units (JSON number, 2 decimals) → integer cents: the one conversion of common/formats/money. */
export { toCents } from '../../kernel/common/formats/money';

/** Integer cents → currency units. */
export function fromCents(cents: number | string): number {
  return Number(cents) / 100;
}
