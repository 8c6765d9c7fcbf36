/**
 * Two parts of the checkout page's script, each self-contained like `checkoutMain` (no imports,
 * no outer variables: each is served as its own source text, `.toString()`), and handed the
 * page's helpers by it: the amount an open link's payer types, with its quote, and the card
 * form's checks (the server checks again).
 */

/** What `checkoutMain` hands its parts. */
export interface CheckoutUi {
  $: (id: string) => any;
  t: (k: string, vars?: Record<string, unknown>) => string;
  brl: (n: number) => string;
  digits: (s: string) => string;
  /** `window.PayerInput` (common/payer-input.client.ts). */
  PI: any;
  /** Field id → its check ('' when it passes), filled by the parts. */
  validators: Record<string, () => string>;
  fieldError: (id: string, msg: string) => void;
  locale: string;
  /** The page's JSON block (minAmount, maxAmount, …). */
  data: any;
  /** `/checkout/{slug}`. */
  base: string;
  /** An installment option's short text and full detail (installments.client.ts), for the link's passFee. */
  inst: (amounts: number[], total: number) => { short: string; full: string };
  /** Shows the selected installment option's full detail under the select. */
  showInstallment: () => void;
}

/** The open amount: parsed as the page's language writes it, checked against the link's bounds, quoted as it is typed. */
export function checkoutAmountField(ui: CheckoutUi): { amountInput: any; parseAmount: () => number | null } {
  const { $, t, brl, validators, fieldError, data, base, inst, showInstallment } = ui;
  const I = { locale: ui.locale };
  const amountInput = $('amount');
  const parseAmount = (): number | null => {
    const typed = (amountInput.value || '').trim();
    // English pages write 1,234.56; Portuguese ones 1.234,56 (a lone "." is taken as the decimal point)
    const raw =
      I.locale === 'en'
        ? typed.replace(/,/g, '')
        : typed.replace(/\./g, (m: string, i: number, s: string) => (s.indexOf(',') >= 0 ? '' : m)).replace(',', '.');
    return /^\d+(\.\d{1,2})?$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  };
  validators['amount'] = () => {
    const n = parseAmount();
    if (n === null) return t('errAmount');
    if (data.minAmount !== null && n < data.minAmount) return t('errAmountMin', { min: brl(data.minAmount) });
    if (data.maxAmount !== null && n > data.maxAmount) return t('errAmountMax', { max: brl(data.maxAmount) });
    return '';
  };
  let quoteTimer: any = null;
  const applyQuote = (options: any[]) => {
    const sel = $('installments');
    if (sel) {
      sel.innerHTML = '';
      options
        .filter((o) => o.paymentMethod === 'CARD')
        .forEach((o) => {
          const opt = document.createElement('option');
          opt.value = String(o.installments);
          const text = inst(o.installmentAmounts, o.grossAmount);
          opt.textContent = text.short;
          opt.setAttribute('aria-label', text.full);
          sel.appendChild(opt);
        });
      showInstallment();
    }
    ['PIX', 'BOLETO'].forEach((m) => {
      const f = $('figure-' + m);
      const o = options.find((x) => x.paymentMethod === m);
      if (f) f.textContent = o ? brl(o.grossAmount) : '';
    });
  };
  if (amountInput) {
    amountInput.addEventListener('input', () => {
      clearTimeout(quoteTimer);
      quoteTimer = setTimeout(() => {
        const msg = amountInput.value.trim() ? validators['amount']() : '';
        fieldError('amount', msg);
        if (msg || !amountInput.value.trim()) return;
        fetch(base + '/quote', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ amount: parseAmount() }),
        })
          .then((r) => (r.ok ? r.json() : null))
          .then((q) => q && applyQuote(q.options))
          .catch(() => undefined);
      }, 300);
    });
  }

  return { amountInput, parseAmount };
}

/** The card fields: number grouping and brand, expiry, security code, holder; their checks; the card as the API takes it. */
export function checkoutCardFields(ui: CheckoutUi): { cardData: () => Record<string, unknown> } {
  const { $, t, digits, PI, validators } = ui;
  const luhn = (n: string) => n.length >= 12 && n.length <= 19 && PI.luhn(n);
  const brand = (n: string): string | null => {
    const p2 = Number(n.slice(0, 2));
    const p3 = Number(n.slice(0, 3));
    const p4 = Number(n.slice(0, 4));
    const p6 = Number(n.slice(0, 6));
    if (
      /^(401178|401179|431274|438935|451416|457393|45763[12]|504175|50(6699|67[0-7][0-9])|509\d{3}|627780|636297|636368|65003[1-3]|6500(3[5-9]|4\d|5[01])|650(4[0-3]\d|40[5-9])|6504(8[5-9]|9\d)|6505([0-2]\d|3[0-8])|6505(4[1-9]|[5-8]\d|9[0-8])|6507(0\d|1[0-8])|6507(2[0-7])|6509(0[1-9]|[1-6]\d|7[0-8])|6516(5[2-9]|[67]\d)|6550(0\d|1[0-9])|6550(2[1-9]|[34]\d|5[0-8]))/.test(
        n,
      )
    )
      return 'elo';
    if (p6 === 606282 || p4 === 3841) return 'hipercard';
    if (p2 === 34 || p2 === 37) return 'amex';
    if (p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) return 'diners';
    if (p4 === 6011 || p2 === 65) return 'discover';
    if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'mastercard';
    if (n.charAt(0) === '4') return 'visa';
    return null;
  };
  const numberInput = $('card-number');
  PI.bind(numberInput, PI.cardNumber);
  PI.bind($('card-expiry'), PI.expiry);
  PI.bind($('card-cvv'), (v: string) => digits(v).slice(0, 4));
  if (numberInput) {
    numberInput.addEventListener('input', () => {
      const n = digits(numberInput.value);
      $('card-brand').textContent = n.length >= 4 ? brand(n) || '' : '';
    });
  }
  const expiry = () => {
    const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec($('card-expiry').value || '');
    if (!m) return null;
    const year = Number(m[2]) < 100 ? Number(m[2]) + 2000 : Number(m[2]);
    return { month: Number(m[1]), year };
  };
  validators['card-number'] = () => {
    const n = digits(numberInput.value);
    if (!luhn(n)) return t('errCardNumber');
    return brand(n) ? '' : t('errBrand');
  };
  validators['card-expiry'] = () => {
    const e = expiry();
    if (!e || e.month < 1 || e.month > 12) return t('errExpiry');
    const now = new Date();
    return e.year * 12 + e.month - 1 < now.getFullYear() * 12 + now.getMonth() ? t('errExpired') : '';
  };
  validators['card-cvv'] = () => {
    const len = brand(digits(numberInput.value)) === 'amex' ? 4 : 3;
    return digits($('card-cvv').value).length === len ? '' : t('errCvv', { n: len });
  };
  validators['card-name'] = () => (($('card-name').value || '').trim().length < 2 ? t('errCardName') : '');
  const cardData = () => {
    const e = expiry()!;
    return {
      number: digits(numberInput.value),
      expMonth: e.month,
      expYear: e.year,
      cvv: digits($('card-cvv').value),
      holderName: ($('card-name').value || '').trim(),
    };
  };

  return { cardData };
}
