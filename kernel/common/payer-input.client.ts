import { isLuhnValid } from './formats/pan';

/**
 * Input helpers shared by the payer pages that take a card (the link checkout and the hosted
 * card page): one implementation of expiry auto-format (`1230` → `12/30`, so the numeric
 * keypad, which has no `/`, is enough), card number grouping and CPF/CNPJ masks.
 * Served as plain JavaScript (`PAYER_INPUT_JS`) in front of each page's own script; it
 * defines `window.PayerInput`. Self-contained: no outer variables; the Luhn check is handed in,
 * so the pages check a card number with the server's own `isLuhnValid` (common/formats/pan.ts).
 */
export function payerInputMain(luhn: (digits: string) => boolean): void {
  const digits = (s: string) => String(s || '').replace(/\D/g, '');
  /** `1` → `1`, `4` → `04`, `123` → `12/3`, `1230` → `12/30`, `12/2030` → `12/30`. */
  const expiry = (v: string): string => {
    const full = /^\s*(\d{1,2})\s*\/\s*(\d{4})\s*$/.exec(v || '');
    let d = full ? ('0' + full[1]).slice(-2) + full[2].slice(2) : digits(v).slice(0, 4);
    if (d.length === 1 && Number(d) > 1) d = '0' + d;
    return d.length > 2 ? d.slice(0, 2) + '/' + d.slice(2) : d;
  };
  /** Groups of 4 (Amex 4-6-5). */
  const cardNumber = (v: string): string => {
    const d = digits(v).slice(0, 19);
    const parts = /^3[47]/.test(d) ? [4, 6, 5] : [4, 4, 4, 4, 3];
    const out: string[] = [];
    let i = 0;
    for (let p = 0; p < parts.length && i < d.length; p++) {
      out.push(d.slice(i, i + parts[p]));
      i += parts[p];
    }
    return out.join(' ');
  };
  /** `000.000.000-00` up to 11 digits, then `00.000.000/0000-00`. */
  const taxId = (v: string): string => {
    const d = digits(v).slice(0, 14);
    const mask = d.length <= 11 ? '###.###.###-##' : '##.###.###/####-##';
    let out = '';
    let i = 0;
    for (const c of mask) {
      if (i >= d.length) break;
      out += c === '#' ? d[i++] : c;
    }
    return out;
  };
  /** Reformats on every input, keeping the caret after the same number of digits. */
  const bind = (input: HTMLInputElement | null, format: (v: string) => string) => {
    if (!input) return;
    input.addEventListener('input', (ev: Event) => {
      const deleting = /^delete/.test((ev as InputEvent).inputType || '');
      const before = input.value;
      const caret = input.selectionStart ?? before.length;
      const digitsBefore = digits(before.slice(0, caret)).length;
      const next = deleting && /\D$/.test(before) ? before : format(before);
      if (next === before) return;
      input.value = next;
      let pos = 0;
      let seen = 0;
      while (pos < next.length && seen < digitsBefore) {
        if (/\d/.test(next[pos])) seen++;
        pos++;
      }
      if (caret >= before.length) pos = next.length;
      try {
        input.setSelectionRange(pos, pos);
      } catch {
        /* type=email etc. */
      }
    });
  };
  (window as any).PayerInput = { digits, expiry, cardNumber, taxId, bind, luhn };
}

export const PAYER_INPUT_JS = `(${payerInputMain.toString()})(${isLuhnValid.toString()});\n`;
