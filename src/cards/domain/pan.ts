import * as pan from '../../common/formats/pan';
import { InvalidPanError } from './errors';

/** Card number helpers of src/common/formats/pan, with the cards module's error (invalid_pan). */
export type { CardBrand } from '../../common/formats/pan';
export const isLuhnValid = pan.isLuhnValid;

export function normalizePan(input: string): string {
  try {
    return pan.normalizePan(input);
  } catch (e) {
    if (e instanceof pan.InvalidCardNumber) throw new InvalidPanError();
    throw e;
  }
}

export function cardBrand(input: string): pan.CardBrand {
  return pan.cardBrand(normalizePan(input));
}

export function panDisplay(input: string): { first4: string; last4: string } {
  return pan.panDisplay(normalizePan(input));
}
