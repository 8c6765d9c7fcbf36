import { bankName, formatLine, itfBarcodeSvg } from '../../../kernel/common/formats/boleto';
import { formatTaxId } from '../../../kernel/common/tax-id';
import { brandName } from '../../../kernel/common/formats/pan';
import { I18n } from '../../../kernel/common/i18n';
import { isPaid } from '../domain/payment-item.state-machine';
import { Link } from '../links/link.types';
import { PaymentItem } from '../payments/payment.types';
import { esc, shell } from './pages';

export { formatTaxId };

/** The bank code's check digit as printed in a boleto header (`237-2`, `341-7`, `001-9`): mod 11, weights 2..9. */
export function bankCodeWithDv(code: string): string {
  let sum = 0;
  [...code].reverse().forEach((c, i) => (sum += Number(c) * (2 + (i % 8))));
  const dv = 11 - (sum % 11);
  return `${code}-${dv >= 10 ? 0 : dv}`;
}

/** The line in its printed groups, each kept whole on a narrow screen (it wraps only between groups). */
export function lineGroups(formattedLine: string): string {
  return formattedLine
    .split(' ')
    .map((g) => `<span class="grp">${esc(g)}</span>`)
    .join(' ');
}

export interface Beneficiary {
  name: string;
  taxId: string | null;
}

/**
 * The boleto in the standard layout: the payer's receipt, a cut line, then the clearing slip
 * (ficha de compensação) with the bank header (name | code-DV | line), due date, beneficiary
 * and CNPJ, agency/code, nosso número, amount, payer, and the ITF barcode at the bottom left,
 * inline SVG. Agency, wallet, nosso número and account come from the free field in the
 * Bradesco layout the sandbox acquirer issues (agency 4, wallet 2, our number 11, account 7).
 */
export function boletoPage(t: I18n, link: Link, p: PaymentItem, ben: Beneficiary, pixQr: string | null): string {
  const i = p.instrument;
  const barcode: string = i.barcode;
  const bank = barcode.slice(0, 3);
  const free = barcode.slice(19);
  const agency = `${free.slice(0, 4)} / ${free.slice(17, 24)}`;
  const ourNumber = `${free.slice(4, 6)}/${free.slice(6, 17)}`;
  const line = formatLine(i.digitableLine);
  const head = `<div class="bk-head"><span class="bk-name">${esc(bankName(bank))}</span><span class="bk-code">${esc(bankCodeWithDv(bank))}</span><span class="line bk-line">${lineGroups(line)}</span></div>`;
  const cell = (label: string, value: string, cls = '', id = '') =>
    `<div class="c ${cls}"><span class="l">${esc(label)}</span><span class="v"${id ? ` id="${id}"` : ''}>${value}</span></div>`;
  const beneficiary = `${esc(ben.name)}${ben.taxId ? ` · CNPJ/CPF ${esc(formatTaxId(ben.taxId))}` : ''}`;
  const payer = `${esc(p.payer.name)}${p.payer.taxId ? ` · CPF/CNPJ ${esc(formatTaxId(p.payer.taxId))}` : ''}`;
  const svg = itfBarcodeSvg(barcode).replace('<svg ', `<svg class="barcode" role="img" aria-label="${esc(t.m.boletoBarcodeAlt)}" `);
  const body = `<main class="boleto" id="boleto">
<p class="no-print"><button type="button" class="pay" data-print>${esc(t.m.print)}</button></p>
<h1 class="sr-only">${esc(t.m.methodBOLETO)} · ${esc(link.name)}</h1>
<section class="slip-part" aria-label="${esc(t.m.boletoPayerReceipt)}">${head}
<div class="grid">${cell(t.m.boletoBeneficiary, beneficiary, 'w3')}${cell(t.m.boletoDueDate, esc(t.date(i.dueDate)), 'r')}
${cell(t.m.boletoPayer, payer, 'w2')}${cell(t.m.boletoOurNumber, esc(ourNumber))}${cell(t.m.boletoAmount, esc(t.brl(p.amountCents)), 'r')}
${cell(t.m.description, esc(link.name), 'w4')}</div><p class="cut">${esc(t.m.boletoCut)}</p></section>
<section class="slip-part" aria-label="${esc(t.m.boletoMechanical)}">${head}
<div class="grid">${cell(t.m.boletoPayPlace, esc(t.m.boletoPayPlaceText), 'w3')}${cell(t.m.boletoDueDate, esc(t.date(i.dueDate)), 'r', 'due')}
${cell(t.m.boletoBeneficiary, beneficiary, 'w3', 'beneficiary')}${cell(t.m.boletoAgency, esc(agency), 'r')}
${cell(t.m.boletoDocDate, esc(t.date(p.createdAt.toISOString().slice(0, 10))))}${cell(t.m.boletoWallet, esc(free.slice(4, 6)))}${cell(t.m.boletoCurrency, 'R$')}${cell(t.m.boletoOurNumber, esc(ourNumber), 'r', 'our-number')}
${cell(t.m.boletoInstructions, esc(t.m.boletoInstructionsText), 'w3')}${cell(t.m.boletoAmount, esc(t.brl(p.amountCents)), 'r', 'amount')}
${cell(t.m.boletoPayer, payer, 'w4')}</div>
<div class="bk-foot">${svg}<span class="mech">${esc(t.m.boletoMechanical)}</span></div>
<p class="line" id="line">${lineGroups(line)}</p></section>
${pixQr ? `<div class="pixbox"><img src="${esc(pixQr)}" alt="${esc(t.m.boletoPixAlt)}" width="180" height="180"><p>${esc(t.m.boletoPixOr)}</p></div>` : ''}
<p class="status">${esc(t.m.status)}: <strong id="status" data-status="${esc(p.status)}">${esc(t.status(p.method, p.status))}</strong></p></main>`;
  return shell(t, `${t.m.methodBOLETO} · ${link.name}`, body, { bodyClass: 'print' });
}

export function receiptPage(t: I18n, link: Link, p: PaymentItem, merchantName: string): string {
  const rows: [string, string, string][] = [
    ['seller', t.m.seller, merchantName],
    ['description', t.m.description, link.name],
    ['amount', t.m.amount, t.brl(p.amountCents)],
    ['method', t.m.method, `${t.m[`method${p.method}`]}${p.installments > 1 ? ` (${p.installments}x)` : ''}`],
    ...cardRows(t, p),
    ['status', t.m.status, t.status(p.method, p.status)],
    ['payer', t.m.payer, p.payer.name],
    ['date', t.m.date, t.dateTime(p.paidAt ?? p.createdAt)],
    ['payment-id', t.m.paymentId, p.id],
  ];
  return shell(
    t,
    `${t.m.receiptTitle} · ${link.name}`,
    `<main class="receipt" id="receipt"><h1>${esc(isPaid(p.status) ? t.m.receiptTitle : t.m.statusTitle)}</h1>
<table class="slip">${rows.map(([id, k, v]) => `<tr><th scope="row">${esc(k)}</th><td id="r-${id}"${id === 'payment-id' ? ' class="id"' : ''}>${esc(v)}</td></tr>`).join('')}</table>
<p class="no-print"><button type="button" class="pay" data-print>${esc(t.m.print)}</button></p></main>`,
    { bodyClass: 'print' },
  );
}

/** A card payment's card as the payer knows it (brand and last four digits, nothing more) and the issuer's authorization code. */
function cardRows(t: I18n, p: PaymentItem): [string, string, string][] {
  if (p.method !== 'CARD') return [];
  const i = p.instrument;
  const rows: [string, string, string][] = [];
  if (typeof i.last4 === 'string' && /^\d{4}$/.test(i.last4))
    rows.push(['card', t.m.receiptCard, `${brandName(i.brand) ? `${brandName(i.brand)} ` : ''}•••• ${i.last4}`]);
  if (typeof i.authorizationCode === 'string' && i.authorizationCode) rows.push(['auth-code', t.m.receiptAuthCode, i.authorizationCode]);
  return rows;
}
