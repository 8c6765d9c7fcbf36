import { BankRecurrence } from './sandbox-bank.store';

const PERIODICITY_LABEL: Record<string, string> = {
  DAILY: 'Daily',
  WEEKLY: 'Weekly',
  MONTHLY: 'Monthly',
  BIMONTHLY: 'Every 2 months',
  QUARTERLY: 'Every 3 months',
  BIANNUAL: 'Every 6 months',
  ANNUAL: 'Yearly',
};

export function esc(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function brl(cents: number): string {
  const [int, dec] = (cents / 100).toFixed(2).split('.');
  return `R$ ${int.replace(/\B(?=(\d{3})+(?!\d))/g, '.')},${dec}`;
}

function maskTaxId(t: string): string {
  return t.length === 11 ? `***.${t.slice(3, 6)}.${t.slice(6, 9)}-**` : `**.${t.slice(2, 5)}.${t.slice(5, 8)}/${t.slice(8, 12)}-**`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · Sandbox Bank</title>
<style>
body{font-family:system-ui,sans-serif;background:#f3f5f8;margin:0;color:#1d2330}
main{max-width:28rem;margin:2rem auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 2px 10px #0001}
h1{font-size:1.25rem;margin-top:0} dl{display:grid;grid-template-columns:auto 1fr;gap:.4rem 1rem} dt{color:#5b6474}
dd{margin:0;font-weight:600} .buttons{display:flex;gap:.75rem;margin-top:1.5rem}
button{flex:1;font-size:1rem;padding:.75rem;border-radius:8px;border:0;cursor:pointer}
.ok{background:#0a7d4f;color:#fff} .no{background:#e7e9ee;color:#1d2330} .note{color:#5b6474;font-size:.9rem}
.tag{display:inline-block;padding:.2rem .5rem;border-radius:6px;background:#eef;font-size:.85rem}
</style></head><body><main>
<p class="note">Sandbox Bank · test environment, no real money</p>
${body}
</main></body></html>`;
}

function details(r: BankRecurrence): string {
  const term = r.expirationDate ? `${esc(r.firstDueDate)} to ${esc(r.expirationDate)}` : `from ${esc(r.firstDueDate)} until cancelled`;
  return `<dl>
<dt>Receiver</dt><dd id="receiver">${esc(r.receiverName)}</dd>
<dt>Amount</dt><dd id="amount">${brl(r.amountCents)}</dd>
<dt>Periodicity</dt><dd id="periodicity">${esc(PERIODICITY_LABEL[r.periodicity] ?? r.periodicity)}</dd>
<dt>Term</dt><dd id="term">${term}</dd>
<dt>Payer</dt><dd>${esc(r.payerName)} (${esc(maskTaxId(r.payerTaxId))})</dd>
${r.description ? `<dt>Description</dt><dd>${esc(r.description)}</dd>` : ''}
</dl>`;
}

/** The page behind authorizationUrl: the payer reads the agreement and authorizes or refuses it. */
export function authorizationPage(r: BankRecurrence, windowClosed: boolean): string {
  if (windowClosed || r.status === 'EXPIRED') {
    return layout('Request expired', `<h1 id="result">This authorization request has expired</h1>${details(r)}<p>The time to authorize it ended on ${esc(r.authorizationDeadline)}. Ask ${esc(r.receiverName)} for a new request.</p>`);
  }
  if (r.status !== 'PENDING') {
    return layout('Automatic Pix', `<h1 id="result">${resultTitle(r.status)}</h1>${details(r)}<p><span class="tag" id="status">${esc(r.status)}</span></p>`);
  }
  return layout(
    'Authorize automatic Pix',
    `<h1>Authorize automatic Pix debits?</h1>${details(r)}
<p class="note">Authorize until ${esc(r.authorizationDeadline)}. You can cancel at any time in your bank.</p>
<form method="post" action="/sandbox/bank/authorize/${encodeURIComponent(r.recurrenceId)}" class="buttons">
<button class="no" name="decision" value="reject" id="refuse">Refuse</button>
<button class="ok" name="decision" value="approve" id="authorize">Authorize</button>
</form>`,
  );
}

export function resultTitle(status: string): string {
  switch (status) {
    case 'ACCEPTED':
    case 'ACTIVE':
      return 'Automatic Pix authorized';
    case 'REJECTED':
      return 'Automatic Pix refused';
    case 'CANCELLED_PAYER':
    case 'CANCELLED_RECEIVER':
      return 'Automatic Pix cancelled';
    case 'EXPIRED':
      return 'This automatic Pix has ended';
    default:
      return `Status: ${esc(status)}`;
  }
}

/** The payer's view of an authorized recurrence in their bank, with the cancel button. */
export function payerPage(r: BankRecurrence): string {
  const cancel =
    r.status === 'ACCEPTED' || r.status === 'ACTIVE'
      ? `<form method="post" action="/sandbox/bank/payer/recurrences/${encodeURIComponent(r.recurrenceId)}/cancel" class="buttons"><button class="no" id="cancel">Cancel automatic debit</button></form>`
      : '';
  return layout('Your automatic Pix', `<h1 id="result">${resultTitle(r.status)}</h1>${details(r)}<p><span class="tag" id="status">${esc(r.status)}</span></p>${cancel}`);
}

export function messagePage(title: string, text: string): string {
  return layout(title, `<h1 id="result">${esc(title)}</h1><p>${esc(text)}</p>`);
}
