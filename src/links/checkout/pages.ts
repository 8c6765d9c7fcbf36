import { fromCents } from '../../common/formats/money';
import { formatLine } from '../../common/formats/boleto';
import { FeeSimulation } from '../domain/fees';
import { isPaid } from '../domain/payment-item.state-machine';
import { Link } from '../links/link.types';
import { PaymentItem } from '../payments/payment.types';
import { CheckoutModel } from './checkout.service';

export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function brl(cents: number): string {
  const [i, d] = (Math.abs(cents) / 100).toFixed(2).split('.');
  return `${cents < 0 ? '-' : ''}R$ ${i.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${d}`;
}

/** JSON inside a <script type="application/json"> block: no "<" can close it. */
function jsonBlock(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function shell(title: string, body: string, opts: { embed?: boolean; bodyClass?: string } = {}): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${esc(title)}</title>
<link rel="stylesheet" href="/assets/checkout/checkout.css"></head>
<body class="${opts.embed ? 'embed ' : ''}${opts.bodyClass ?? ''}">${body}
<script src="/assets/checkout/checkout.js"></script></body></html>`;
}

const METHOD_LABEL: Record<string, string> = { CARD: 'Card', PIX: 'Pix', BOLETO: 'Boleto' };

function optionLabel(o: FeeSimulation): string {
  if (o.installments === 1) return `1x ${brl(o.grossCents)}`;
  const each = o.installmentCents[o.installmentCents.length - 1];
  return `${o.installments}x ${brl(each)} (total ${brl(o.grossCents)})`;
}

/** The checkout: amount (or amount input), payer, one tab per enabled method. */
export function checkoutPage(m: CheckoutModel, embed: boolean, parentOrigin: string | null): string {
  const l = m.link;
  const cardOptions = m.options.filter((o) => o.method === 'CARD');
  const price = (method: string) => m.options.find((o) => o.method === method && o.installments === 1);
  const data = {
    slug: l.slug,
    fixedAmount: l.amountCents === null ? null : fromCents(l.amountCents),
    minAmount: l.minAmountCents === null ? null : fromCents(l.minAmountCents),
    maxAmount: l.maxAmountCents === null ? null : fromCents(l.maxAmountCents),
    methods: l.paymentMethods,
    maxInstallments: l.maxInstallments,
    passFee: l.passFee,
    embed,
    parentOrigin,
    sandbox: m.sandbox,
  };
  const methods = (['CARD', 'PIX', 'BOLETO'] as const).filter((x) => l.paymentMethods.includes(x));
  const amountBlock =
    l.amountCents !== null
      ? `<p class="price"><span id="price">${esc(brl(l.amountCents))}</span>${l.passFee ? ' <small>+ fees by method</small>' : ''}</p>`
      : `<label class="field">Amount (R$)<input id="amount" name="amount" inputmode="decimal" autocomplete="off" placeholder="0,00" required></label>
         <p class="hint">${l.minAmountCents !== null ? `From ${esc(brl(l.minAmountCents))}. ` : ''}${l.maxAmountCents !== null ? `Up to ${esc(brl(l.maxAmountCents))}.` : ''}</p>`;
  const tabs = methods
    .map((x, i) => `<button type="button" role="tab" class="tab${i === 0 ? ' active' : ''}" id="tab-${x}" data-tab="${x}" aria-selected="${i === 0}">${METHOD_LABEL[x]}</button>`)
    .join('');
  const figure = (x: string) => {
    const p = price(x);
    return p ? `<p class="figure" id="figure-${x}">${esc(brl(p.grossCents))}</p>` : `<p class="figure" id="figure-${x}"></p>`;
  };
  const panels = methods
    .map((x, i) => {
      const hidden = i === 0 ? '' : ' hidden';
      if (x === 'CARD') {
        return `<section class="panel" id="panel-CARD" role="tabpanel"${hidden}>
<form id="card-form" novalidate autocomplete="on">
<label class="field">Card number <span class="brand" id="card-brand"></span><input id="card-number" name="cardnumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" required></label>
<div class="row"><label class="field">Expiry (MM/YY)<input id="card-expiry" name="exp-date" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7" required></label>
<label class="field">CVV<input id="card-cvv" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required></label></div>
<label class="field">Name on card<input id="card-name" name="ccname" autocomplete="cc-name" maxlength="100" required></label>
<label class="field">Installments<select id="installments">${cardOptions.map((o) => `<option value="${o.installments}">${esc(optionLabel(o))}</option>`).join('') || '<option value="1">1x</option>'}</select></label>
<p class="error" id="card-error" role="alert"></p>
<button type="submit" class="pay" id="pay-card">Pay</button></form></section>`;
      }
      if (x === 'PIX') {
        return `<section class="panel" id="panel-PIX" role="tabpanel"${hidden}>${figure('PIX')}
<button type="button" class="pay" id="pay-pix">Generate Pix QR code</button><p class="error" id="pix-error" role="alert"></p>
<div id="pix-result" hidden><img id="pix-qr" alt="Pix QR code" width="240" height="240"><label class="field">Pix copy and paste<textarea id="pix-code" rows="4" readonly></textarea></label>
<button type="button" class="secondary" id="pix-copy">Copy code</button><p class="status" id="pix-status">Waiting for payment…</p>
<p><a id="pix-bank" target="_blank" rel="noopener" hidden>Open the sandbox bank app to pay</a></p></div></section>`;
      }
      return `<section class="panel" id="panel-BOLETO" role="tabpanel"${hidden}>${figure('BOLETO')}
<p class="hint">A boleto needs your CPF or CNPJ above.</p>
<button type="button" class="pay" id="pay-boleto">Generate boleto</button><p class="error" id="boleto-error" role="alert"></p>
<div id="boleto-result" hidden><p class="line" id="boleto-line"></p><img id="boleto-barcode" alt="Boleto barcode">
<p>Due <span id="boleto-due"></span> · <a id="boleto-print" target="_blank" rel="noopener">Printable boleto</a></p>
<p class="status" id="boleto-status">Waiting for payment…</p><p><a id="boleto-bank" target="_blank" rel="noopener" hidden>Open the sandbox bank app to pay</a></p></div></section>`;
    })
    .join('');
  return shell(
    `${l.name} · Checkout`,
    `<main class="checkout" id="checkout">
${embed ? '<button type="button" class="close" id="close" aria-label="Close">×</button>' : ''}
<header><p class="merchant">${esc(m.merchantName)}</p><h1>${esc(l.name)}</h1>${l.description ? `<p class="description">${esc(l.description)}</p>` : ''}</header>
<section class="amount">${amountBlock}</section>
<fieldset class="payer"><legend>Your details</legend>
<label class="field">Full name<input id="payer-name" autocomplete="name" maxlength="100" required></label>
<label class="field">E-mail<input id="payer-email" type="email" autocomplete="email" maxlength="200" required></label>
<label class="field">CPF or CNPJ (digits)<input id="payer-taxid" inputmode="numeric" maxlength="18"></label></fieldset>
<nav class="tabs" role="tablist">${tabs}</nav>${panels}
<section id="done" class="done" hidden><h2>Payment confirmed</h2><p id="done-text"></p><p><a id="done-receipt" target="_blank" rel="noopener">View receipt</a></p></section>
${m.sandbox ? '<p class="sandbox">Sandbox mode: use the test cards; no real money moves.</p>' : ''}
</main><script type="application/json" id="checkout-data">${jsonBlock(data)}</script>`,
    { embed },
  );
}

const UNAVAILABLE: Record<string, [string, string]> = {
  INACTIVE: ['This payment link is paused', 'The seller has paused this link. It accepts no payments right now.'],
  EXPIRED: ['This payment link has expired', 'It no longer accepts payments.'],
  EXHAUSTED: ['This payment link is no longer available', 'It has reached its maximum number of payments and accepts no more.'],
};

export function unavailablePage(link: Link, embed: boolean): string {
  const [title, text] = UNAVAILABLE[link.status] ?? ['This payment link is not available', ''];
  return shell(title, `<main class="checkout unavailable" id="checkout" data-status="${esc(link.status)}">
${embed ? '<button type="button" class="close" id="close" aria-label="Close">×</button>' : ''}
<h1 id="unavailable-title">${esc(title)}</h1><p>${esc(link.name)}</p><p>${esc(text)}</p></main>`, { embed });
}

export function notFoundPage(): string {
  return shell('Payment link not found', `<main class="checkout unavailable"><h1>Payment link not found</h1><p>Check the address you were given.</p></main>`);
}

/** The boleto as a printable page: beneficiary, payer, amount, due date, line, barcode and its Pix QR. */
export function boletoPage(link: Link, p: PaymentItem, merchantName: string, pixQr: string | null): string {
  const i = p.instrument;
  return shell(`Boleto · ${link.name}`, `<main class="boleto" id="boleto">
<p class="no-print"><button type="button" class="pay" data-print>Print</button></p>
<h1>Boleto</h1><table class="slip">
<tr><th>Beneficiary</th><td>${esc(merchantName)}</td><th>Due date</th><td id="due">${esc(i.dueDate)}</td></tr>
<tr><th>Payer</th><td>${esc(p.payer.name)}${p.payer.taxId ? ` · ${esc(p.payer.taxId)}` : ''}</td><th>Amount</th><td>${esc(brl(p.amountCents))}</td></tr>
<tr><th>Description</th><td colspan="3">${esc(link.name)}</td></tr></table>
<p class="line" id="line">${esc(formatLine(i.digitableLine))}</p>
<img class="barcode" src="/checkout/${esc(link.slug)}/payments/${esc(p.id)}/barcode.svg" alt="Barcode ${esc(i.barcode)}">
${pixQr ? `<div class="pixbox"><img src="${esc(pixQr)}" alt="Pix QR code" width="180" height="180"><p>Or pay this boleto with Pix (scan the code).</p></div>` : ''}
<p class="status">Status: <strong id="status">${esc(p.status)}</strong></p></main>`, { bodyClass: 'print' });
}

export function receiptPage(link: Link, p: PaymentItem, merchantName: string): string {
  const rows: [string, string][] = [
    ['Seller', merchantName],
    ['Description', link.name],
    ['Amount', brl(p.amountCents)],
    ['Method', `${METHOD_LABEL[p.method]}${p.installments > 1 ? ` (${p.installments}x)` : ''}`],
    ['Status', p.status],
    ['Payer', p.payer.name],
    ['Date', (p.paidAt ?? p.createdAt).toISOString()],
    ['Payment id', p.id],
  ];
  return shell(`Receipt · ${link.name}`, `<main class="receipt" id="receipt"><h1>${isPaid(p.status) ? 'Payment receipt' : 'Payment status'}</h1>
<table class="slip">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
<p class="no-print"><button type="button" class="pay" data-print>Print</button></p></main>`, { bodyClass: 'print' });
}
