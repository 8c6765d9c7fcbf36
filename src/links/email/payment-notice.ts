import { Link } from '../links/link.types';
import { PaymentItem } from '../payments/payment.types';

export interface Notice {
  subject: string;
  text: string;
  html: string;
}

function brl(cents: number): string {
  const [i, d] = (cents / 100).toFixed(2).split('.');
  return `R$ ${i.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${d}`;
}

function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const METHOD_NAME: Record<string, string> = { CARD: 'Card', PIX: 'Pix', BOLETO: 'Boleto' };

/** The notice sent to `actor.email` for a confirmed payment: payer data and the invoice link. */
export function paymentNotice(link: Pick<Link, 'name' | 'slug'>, p: PaymentItem, status: string, receiptUrl: string, at: Date): Notice {
  const method = `${METHOD_NAME[p.method]}${p.method === 'CARD' && p.installments > 1 ? ` in ${p.installments}x` : ''}`;
  const rows: [string, string][] = [
    ['Link', link.name],
    ['Amount', brl(p.amountCents)],
    ['Method', method],
    ['Status', status],
    ['Payer', p.payer.name],
    ['Payer e-mail', p.payer.email],
    ['Payer tax id', p.payer.taxId ?? '-'],
    ['Confirmed at', at.toISOString()],
    ['Payment id', p.id],
  ];
  const text = `A payment on your link "${link.name}" was confirmed.\n\n${rows.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\nInvoice: ${receiptUrl}\n`;
  const html = `<p>A payment on your link <strong>${esc(link.name)}</strong> was confirmed.</p>
<table>${rows.map(([k, v]) => `<tr><th align="left">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>
<p><a href="${esc(receiptUrl)}">View the invoice</a></p>`;
  return { subject: `Payment received: ${link.name} - ${brl(p.amountCents)}`, text, html };
}
