import { fromCents } from '../../../kernel/common/formats/money';
import { formatTaxId } from '../../../kernel/common/tax-id';
import { I18n, MessageKey } from '../../../kernel/common/i18n';
import { FeeSimulation } from '../domain/fees';
import { Link } from '../links/link.types';
import { CheckoutModel } from './checkout.service';
import { installmentText } from './installments.client';

export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON inside a <script type="application/json"> block: no "<" can close it. */
export function jsonBlock(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function shell(t: I18n, title: string, body: string, opts: { embed?: boolean; bodyClass?: string } = {}): string {
  return `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)}</title>
<link rel="stylesheet" href="/assets/checkout/checkout.css"></head>
<body class="${opts.embed ? 'embed ' : ''}${opts.bodyClass ?? ''}">${body}
<script src="/assets/checkout/checkout.js"></script></body></html>`;
}

/** An installment option's short text and its full detail (installments.client.ts, which the page's script shares). */
export function installmentLabel(t: I18n, o: FeeSimulation): { short: string; full: string } {
  return installmentText(
    (k, v) => t.t(k as MessageKey, v),
    (c) => t.brl(c),
    o.installmentCents,
    o.grossCents,
    o.passFee,
  );
}

/** One option of the installments select: the short text shown, the full detail as its name for screen readers. */
function installmentOption(t: I18n, o: FeeSimulation): string {
  const { short, full } = installmentLabel(t, o);
  return `<option value="${o.installments}" aria-label="${esc(full)}">${esc(short)}</option>`;
}

/** The keys the checkout script reads (its messages travel in the page, not in the script). */
const CLIENT_KEYS: MessageKey[] = [
  'copied',
  'copyFailed',
  'instFree',
  'instFee1',
  'instFee',
  'instFirst',
  'instTotal',
  'instInterest',
  'instFeeIncluded',
  'errAmount',
  'errAmountMin',
  'errAmountMax',
  'errName',
  'errEmail',
  'errTaxId',
  'errTaxIdRequired',
  'errCardNumber',
  'errBrand',
  'errExpiry',
  'errExpired',
  'errCvv',
  'errCardName',
  'errRefused',
  'errStart',
  'errBoleto',
  'errNetwork',
  'reason_generic_decline',
  'reason_insufficient_funds',
  'reason_invalid_card',
  'reason_expired_card',
  'reason_processing_error',
  'reason_acquirer_unavailable',
  'reason_other',
  'pixExpiresIn',
  'pixExpired',
  'waiting',
  'boletoDue',
  'doneText',
  'processing',
  'pay',
  'st_CARD_ACCEPTED',
  'st_CARD_CAPTURED',
  'st_CARD_PREAUTH',
  'st_PIX_AUTHORIZED',
  'st_PIX_SETTLED',
  'st_PIX_EXPIRED',
  'st_BOLETO_PAID',
  'st_BOLETO_PAID_PIX',
  'st_BOLETO_EXPIRED',
  'st_BOLETO_CANCELED',
  'st_BOLETO_FAILED',
  'st_unknown',
  'pixQrAlt',
];

/** A label, its input and the error slot next to it, tied by aria-describedby. */
function field(id: string, label: string, input: string, extra = ''): string {
  return `<div class="field"><label for="${id}">${esc(label)}</label>${extra}${input.replace('<input ', `<input id="${id}" aria-describedby="${id}-error" `)}<p class="error" id="${id}-error"></p></div>`;
}

/** The checkout: amount (or amount input), payer, one tab per enabled method. */
export function checkoutPage(t: I18n, m: CheckoutModel, embed: boolean, parentOrigin: string | null): string {
  const l = m.link;
  const cardOptions = m.options.filter((o: FeeSimulation) => o.method === 'CARD');
  const price = (method: string) => m.options.find((o) => o.method === method && o.installments === 1);
  const data = {
    slug: l.slug,
    fixedAmount: l.amountCents === null ? null : fromCents(l.amountCents),
    minAmount: l.minAmountCents === null ? null : fromCents(l.minAmountCents),
    maxAmount: l.maxAmountCents === null ? null : fromCents(l.maxAmountCents),
    methods: l.paymentMethods,
    passFee: l.passFee,
    embed,
    parentOrigin,
    // the clock expiresAt is on: in sandbox mode the test clock, days ahead of the payer's
    serverNow: m.now,
    i18n: t.clientBundle(CLIENT_KEYS),
  };
  const methods = (['CARD', 'PIX', 'BOLETO'] as const).filter((x) => l.paymentMethods.includes(x));
  const hint = [
    l.minAmountCents !== null ? t.t('amountFrom', { min: t.brl(l.minAmountCents) }) : '',
    l.maxAmountCents !== null ? t.t('amountUpTo', { max: t.brl(l.maxAmountCents) }) : '',
  ]
    .filter(Boolean)
    .join(' ');
  const amountBlock =
    l.amountCents !== null
      ? `<p class="price"><span id="price">${esc(t.brl(l.amountCents))}</span>${l.passFee ? ` <small>${esc(t.m.feesByMethod)}</small>` : ''}</p>`
      : `${field('amount', t.m.amountLabel, `<input name="amount" inputmode="decimal" autocomplete="transaction-amount" placeholder="${t.locale === 'en' ? '0.00' : '0,00'}" required>`)}${hint ? `<p class="hint" id="amount-hint">${esc(hint)}</p>` : ''}`;
  const tabs = methods
    .map(
      (x, i) =>
        `<button type="button" role="tab" class="tab${i === 0 ? ' active' : ''}" id="tab-${x}" data-tab="${x}" aria-controls="panel-${x}" aria-selected="${i === 0}" tabindex="${i === 0 ? 0 : -1}">${esc(t.m[`method${x}`])}</button>`,
    )
    .join('');
  const figure = (x: string) => {
    const p = price(x);
    return `<p class="figure" id="figure-${x}">${p ? esc(t.brl(p.grossCents)) : ''}</p>`;
  };
  const panels = methods
    .map((x, i) => {
      const hidden = i === 0 ? '' : ' hidden';
      const open = `<section class="panel" id="panel-${x}" role="tabpanel" aria-labelledby="tab-${x}"${hidden}>`;
      if (x === 'CARD') {
        const opts = cardOptions.map((o) => installmentOption(t, o)).join('') || `<option value="1">1x</option>`;
        const firstDetail = cardOptions[0] ? installmentLabel(t, cardOptions[0]).full : '';
        return `${open}<form id="card-form" method="post" novalidate autocomplete="on">
${field('card-number', t.m.cardNumber, '<input inputmode="numeric" autocomplete="cc-number" maxlength="23" required>', '<span class="brand" id="card-brand" aria-live="polite"></span>')}
<div class="row">${field('card-expiry', t.m.cardExpiry, `<input inputmode="numeric" autocomplete="cc-exp" placeholder="${esc(t.m.cardExpiryPlaceholder)}" maxlength="7" required>`)}
${field('card-cvv', t.m.cardCvv, '<input inputmode="numeric" autocomplete="cc-csc" maxlength="4" required>')}</div>
${field('card-name', t.m.cardName, '<input name="ccname" autocomplete="cc-name" maxlength="100" required>')}
<div class="field"><label for="installments">${esc(t.m.installments)}</label><select id="installments" name="installments" aria-describedby="installments-detail">${opts}</select><p class="hint" id="installments-detail">${esc(firstDetail)}</p></div>
<p class="error" id="card-error" role="alert"></p>
<button type="submit" class="pay" id="pay-card" disabled>${esc(t.m.pay)}</button></form></section>`;
      }
      if (x === 'PIX') {
        return `${open}${figure('PIX')}
<button type="button" class="pay" id="pay-pix" disabled>${esc(t.m.pixGenerate)}</button><p class="error" id="pix-error" role="alert"></p>
<div id="pix-result" hidden><img id="pix-qr" alt="" width="240" height="240">
<div class="field"><label for="pix-code">${esc(t.m.pixCode)}</label><textarea id="pix-code" rows="4" readonly></textarea></div>
<button type="button" class="secondary" id="pix-copy">${esc(t.m.pixCopy)}</button> <span class="copied" id="pix-copied" role="status" aria-live="polite"></span>
<p class="countdown" id="pix-countdown" aria-live="off"></p><p class="status" id="pix-status" role="status">${esc(t.m.waiting)}</p>
<p><a id="pix-bank" target="_blank" rel="noopener" hidden>${esc(t.m.openBank)}</a></p></div>
<div id="pix-expired" hidden><p class="status error-box" id="pix-expired-text" role="alert">${esc(t.m.pixExpired)}</p><button type="button" class="pay" id="pix-new">${esc(t.m.pixNew)}</button></div></section>`;
      }
      return `${open}${figure('BOLETO')}
<p class="hint">${esc(t.m.boletoNeedsTaxId)}</p>
<button type="button" class="pay" id="pay-boleto" disabled>${esc(t.m.boletoGenerate)}</button><p class="error" id="boleto-error" role="alert"></p>
<div id="boleto-result" hidden><p class="label" id="boleto-line-label">${esc(t.m.boletoLine)}</p><p class="line" id="boleto-line" aria-labelledby="boleto-line-label"></p>
<button type="button" class="secondary" id="boleto-copy">${esc(t.m.boletoCopy)}</button> <span class="copied" id="boleto-copied" role="status" aria-live="polite"></span>
<img id="boleto-barcode" alt="${esc(t.m.boletoBarcodeAlt)}">
<p><span id="boleto-due"></span> · <a id="boleto-print" target="_blank" rel="noopener">${esc(t.m.boletoPrint)}</a><span id="boleto-download-sep" hidden> · </span><a id="boleto-download" target="_blank" rel="noopener" hidden>${esc(t.m.boletoDownload)}</a></p>
<p class="status" id="boleto-status" role="status">${esc(t.m.waiting)}</p><p><a id="boleto-bank" target="_blank" rel="noopener" hidden>${esc(t.m.openBank)}</a></p></div></section>`;
    })
    .join('');
  return shell(
    t,
    `${l.name} · ${t.m.checkout}`,
    `<main class="checkout" id="checkout">
${embed ? `<button type="button" class="close" id="close" aria-label="${esc(t.m.close)}">×</button>` : ''}
<header><p class="merchant"><span id="merchant-name">${esc(m.merchantName)}</span>${m.merchantTaxId ? ` · <span id="merchant-taxid">${m.merchantTaxId.length === 14 ? 'CNPJ' : 'CPF'} ${esc(formatTaxId(m.merchantTaxId))}</span>` : ''}</p><h1>${esc(l.name)}</h1>${l.description ? `<p class="description">${esc(l.description)}</p>` : ''}</header>
<section class="amount">${amountBlock}</section>
<fieldset class="payer"><legend>${esc(t.m.yourDetails)}</legend>
${field('payer-name', t.m.fullName, '<input name="name" autocomplete="name" maxlength="100" required>')}
${field('payer-email', t.m.email, '<input name="email" type="email" autocomplete="email" maxlength="200" required>')}
${field('payer-taxid', t.m.taxId, '<input name="taxid" inputmode="numeric" autocomplete="off" maxlength="18">')}</fieldset>
<div class="tabs" role="tablist" aria-label="${esc(t.m.methodsLabel)}">${tabs}</div>${panels}
<section id="done" class="done" hidden tabindex="-1" aria-labelledby="done-title"><h2 id="done-title">${esc(t.m.paymentConfirmed)}</h2><p id="done-text"></p><p><a id="done-receipt" target="_blank" rel="noopener">${esc(t.m.viewReceipt)}</a></p></section>
${m.sandbox ? `<p class="sandbox">${esc(t.m.sandboxNote)}</p>` : ''}
</main><script type="application/json" id="checkout-data">${jsonBlock(data)}</script>`,
    { embed },
  );
}

export function unavailablePage(t: I18n, link: Link, embed: boolean): string {
  const which: Record<string, [MessageKey, MessageKey]> = {
    INACTIVE: ['pausedTitle', 'pausedText'],
    EXPIRED: ['expiredTitle', 'expiredText'],
    EXHAUSTED: ['exhaustedTitle', 'exhaustedText'],
  };
  const [title, text] = which[link.status] ? [t.m[which[link.status][0]], t.m[which[link.status][1]]] : [t.m.unavailableTitle, ''];
  return shell(
    t,
    title,
    `<main class="checkout unavailable" id="checkout" data-status="${esc(link.status)}">
${embed ? `<button type="button" class="close" id="close" aria-label="${esc(t.m.close)}">×</button>` : ''}
<h1 id="unavailable-title">${esc(title)}</h1><p>${esc(link.name)}</p><p>${esc(text)}</p></main>`,
    { embed },
  );
}

export function notFoundPage(t: I18n): string {
  return shell(
    t,
    t.m.notFoundTitle,
    `<main class="checkout unavailable"><h1>${esc(t.m.notFoundTitle)}</h1><p>${esc(t.m.notFoundText)}</p></main>`,
  );
}
