import { I18n, MessageKey } from '../../../kernel/common/i18n';
import { BankRecurrence } from './sandbox-bank.store';

export function esc(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function maskTaxId(t: string): string {
  return t.length === 11 ? `***.${t.slice(3, 6)}.${t.slice(6, 9)}-**` : `**.${t.slice(2, 5)}.${t.slice(5, 8)}/${t.slice(8, 12)}-**`;
}

/** A calendar day as `14/12/2026`, a moment in São Paulo time. */
function when(t: I18n, v: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? t.date(v) : t.dateTime(v);
}

function word(t: I18n, prefix: 'per_' | 'rs_', code: string, fallback: MessageKey): string {
  return t.m[`${prefix}${code}` as MessageKey] ?? t.m[fallback];
}

function layout(t: I18n, title: string, body: string): string {
  return `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · ${esc(t.m.rec_bank)}</title>
<style>
body{font-family:system-ui,sans-serif;background:#f3f5f8;margin:0;color:#1d2330}
main{max-width:28rem;margin:2rem auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 2px 10px #0001}
@media (max-width:30rem){main{margin:0;border-radius:0}}
h1{font-size:1.25rem;margin-top:0} dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem} dt{color:#4b5563}
dd{margin:0;font-weight:600;overflow-wrap:anywhere} .buttons{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;font-size:1rem;padding:.75rem;border-radius:8px;border:0;cursor:pointer}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.ok{background:#0a7d4f;color:#fff} .no{background:#e7e9ee;color:#1d2330} .note{color:#4b5563;font-size:.9rem}
.tag{display:inline-block;padding:.2rem .5rem;border-radius:6px;background:#eef;font-size:.85rem}
</style></head><body><main>
<p class="note">${esc(t.m.rec_note)}</p>
${body}
</main></body></html>`;
}

function details(t: I18n, r: BankRecurrence): string {
  const term = r.expirationDate
    ? t.t('rec_termRange', { from: t.date(r.firstDueDate), to: t.date(r.expirationDate) })
    : t.t('rec_termOpen', { from: t.date(r.firstDueDate) });
  return `<dl>
<dt>${esc(t.m.rec_receiver)}</dt><dd id="receiver">${esc(r.receiverName)}</dd>
<dt>${esc(t.m.rec_amount)}</dt><dd id="amount">${esc(t.brl(r.amountCents))}</dd>
<dt>${esc(t.m.rec_periodicity)}</dt><dd id="periodicity">${esc(word(t, 'per_', r.periodicity, 'rs_unknown'))}</dd>
<dt>${esc(t.m.rec_term)}</dt><dd id="term">${esc(term)}</dd>
<dt>${esc(t.m.rec_payer)}</dt><dd>${esc(r.payerName)} (${esc(maskTaxId(r.payerTaxId))})</dd>
${r.description ? `<dt>${esc(t.m.rec_description)}</dt><dd>${esc(r.description)}</dd>` : ''}
</dl>`;
}

function statusTag(t: I18n, status: string): string {
  return `<p><span class="tag" id="status" data-status="${esc(status)}">${esc(word(t, 'rs_', status, 'rs_unknown'))}</span></p>`;
}

/** The page behind authorizationUrl: the payer reads the agreement and authorizes or refuses it. */
export function authorizationPage(t: I18n, r: BankRecurrence, windowClosed: boolean): string {
  if (windowClosed || r.status === 'EXPIRED') {
    return layout(
      t,
      t.m.rec_expiredTitle,
      `<h1 id="result">${esc(t.m.rec_expiredH)}</h1>${details(t, r)}<p>${esc(t.t('rec_expiredText', { date: when(t, r.authorizationDeadline), receiver: r.receiverName }))}</p>`,
    );
  }
  if (r.status !== 'PENDING') {
    return layout(t, t.m.rec_title, `<h1 id="result">${esc(resultTitle(t, r.status))}</h1>${details(t, r)}${statusTag(t, r.status)}`);
  }
  return layout(
    t,
    t.m.rec_authTitle,
    `<h1>${esc(t.m.rec_authH)}</h1>${details(t, r)}
<p class="note">${esc(t.t('rec_authNote', { date: when(t, r.authorizationDeadline) }))}</p>
<form method="post" action="/sandbox/bank/authorize/${encodeURIComponent(r.recurrenceId)}" class="buttons">
<button class="no" name="decision" value="reject" id="refuse">${esc(t.m.rec_refuse)}</button>
<button class="ok" name="decision" value="approve" id="authorize">${esc(t.m.rec_authorize)}</button>
</form>`,
  );
}

export function resultTitle(t: I18n, status: string): string {
  switch (status) {
    case 'ACCEPTED':
    case 'ACTIVE':
      return t.m.rec_authorized;
    case 'REJECTED':
      return t.m.rec_refused;
    case 'CANCELLED_PAYER':
    case 'CANCELLED_RECEIVER':
      return t.m.rec_cancelled;
    case 'EXPIRED':
      return t.m.rec_ended;
    default:
      return word(t, 'rs_', status, 'rs_unknown');
  }
}

/** The payer's view of an authorized recurrence in their bank, with the cancel button. */
export function payerPage(t: I18n, r: BankRecurrence): string {
  const cancel =
    r.status === 'ACCEPTED' || r.status === 'ACTIVE'
      ? `<form method="post" action="/sandbox/bank/payer/recurrences/${encodeURIComponent(r.recurrenceId)}/cancel" class="buttons"><button class="no" id="cancel">${esc(t.m.rec_cancel)}</button></form>`
      : '';
  return layout(
    t,
    t.m.rec_yours,
    `<h1 id="result">${esc(resultTitle(t, r.status))}</h1>${details(t, r)}${statusTag(t, r.status)}${cancel}`,
  );
}

export function messagePage(t: I18n, title: string, text: string): string {
  return layout(t, title, `<h1 id="result">${esc(title)}</h1><p>${esc(text)}</p>`);
}
