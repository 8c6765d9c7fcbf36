import { I18n } from '../../../kernel/common/i18n';
import { SandboxTransaction } from './sandbox-three-ds.repository';
import { brandName } from '../../../kernel/common/formats/pan';
import { SANDBOX_RECEIVER } from '../../../kernel/common/protocols/sandbox-receiver';
import { formatTaxId } from '../../../kernel/common/tax-id';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESC[c]);
const json = (v: unknown) => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export interface Page {
  status: number;
  headers: Record<string, string>;
  html: string;
}

/** ACS pages are framed by any merchant (as a real ACS is); they hold no card data. */
function headers(csp: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; base-uri 'none'; frame-ancestors *; ${csp}`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

function shell(t: I18n, title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><link rel="stylesheet" href="/sandbox/three-ds/assets/acs.css">${head}</head>
<body><main><p class="badge">SANDBOX ACS</p>${body}</main></body></html>
`;
}

/** Device data collection (Cardinal's DDC iframe): collects browser facts, then tells the parent profile.completed. */
export function ddcPage(t: I18n, referenceId: string | null): Page {
  return {
    status: referenceId ? 200 : 400,
    headers: headers(`script-src 'self'; style-src 'self'; connect-src 'self'`),
    html: shell(
      t,
      t.m.tdsDeviceTitle,
      `<p>${esc(t.m.tdsDevice)}</p>`,
      `<script type="application/json" id="ddc">${json({ referenceId })}</script><script src="/sandbox/three-ds/assets/ddc.js" defer></script>`,
    ),
  };
}

/** The challenge: asks the one-time code (the sandbox code is shown on the page). */
export function challengePage(t: I18n, tx: SandboxTransaction | null, otpHint: string, attemptsLeft?: number): Page {
  if (!tx)
    return {
      status: 404,
      headers: headers(`style-src 'self'`),
      html: shell(t, t.m.tdsUnknownTitle, `<h1>${esc(t.m.tdsUnknownTitle)}</h1><p>${esc(t.m.tdsUnknown)}</p>`),
    };
  const text =
    tx.amountCents !== null
      ? esc(t.m.tdsText).replace('{amount}', `<strong id="amount">${esc(t.brl(tx.amountCents))}</strong>`)
      : esc(t.m.tdsTextNoAmount);
  const error = attemptsLeft !== undefined ? t.t('tdsWrong', { n: attemptsLeft }) : '';
  const body = `<h1>${esc(t.m.tdsTitle)}</h1>
<p>${text}</p>
${purchase(t, tx)}
<p class="hint">${esc(t.m.tdsHint).replace('{code}', `<code>${esc(otpHint)}</code>`)}</p>
<form method="post" action="${esc(tx.acsTransactionId!)}">
  <label for="otp">${esc(t.m.tdsOtp)}</label>
  <input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" maxlength="8" autofocus${error ? ' aria-invalid="true" aria-describedby="otp-error"' : ''}>
  ${error ? `<p class="error" id="otp-error" role="alert">${esc(error)}</p>` : ''}
  <button type="submit" name="action" value="submit">${esc(t.m.tdsConfirm)}</button>
  <button type="submit" name="action" value="cancel" class="secondary">${esc(t.m.tdsCancel)}</button>
</form>`;
  return { status: 200, headers: headers(`style-src 'self'; form-action 'self'`), html: shell(t, t.m.tdsTitle, body) };
}

/**
 * What the code authenticates, as the cardholder checks it: the merchant (its name when the 3DS
 * server knows it, and its CNPJ) and the card (brand and last four digits only).
 */
function purchase(t: I18n, tx: SandboxTransaction): string {
  const doc = tx.merchantDocument;
  const name = doc === SANDBOX_RECEIVER.cnpj ? `${SANDBOX_RECEIVER.name} · ` : '';
  const merchant = `${name}${doc.length === 14 ? 'CNPJ' : 'CPF'} ${formatTaxId(doc)}`;
  const card = [brandName(tx.brand), tx.last4 ? `•••• ${tx.last4}` : ''].filter(Boolean).join(' ');
  return `<dl class="purchase"><dt>${esc(t.m.tdsMerchant)}</dt><dd id="merchant">${esc(merchant)}</dd>${
    card ? `<dt>${esc(t.m.tdsCard)}</dt><dd id="card">${esc(card)}</dd>` : ''
  }</dl>`;
}

/** After the challenge: the CRes goes to the 3DS requestor's notification URL (auto-submitted). */
export function challengeDonePage(t: I18n, tx: SandboxTransaction, cres: string): Page {
  const target = tx.notificationUrl ? new URL(tx.notificationUrl) : null;
  if (!target)
    return {
      status: 200,
      headers: headers(`style-src 'self'`),
      html: shell(t, t.m.tdsDone, `<h1>${esc(t.m.tdsDone)}</h1><p>${esc(t.m.tdsFinished)}</p>`),
    };
  const body = `<h1>${esc(t.m.tdsDone)}</h1><p>${esc(tx.transStatus === 'Y' ? t.m.tdsVerified : t.m.tdsNotVerified)}</p>
<form id="cres-form" method="post" action="${esc(target.toString())}">
  <input type="hidden" name="cres" value="${esc(cres)}">
  <button type="submit">${esc(t.m.tdsContinue)}</button>
</form>`;
  return {
    status: 200,
    headers: headers(`script-src 'self'; style-src 'self'; form-action 'self' ${target.origin}`),
    html: shell(t, t.m.tdsDone, body, `<script src="/sandbox/three-ds/assets/acs.js" defer></script>`),
  };
}

export const DDC_SCRIPT = String.raw`(function () {
  'use strict';
  var d = JSON.parse(document.getElementById('ddc').textContent);
  function done(ok) {
    var msg = JSON.stringify({ MessageType: 'profile.completed', SessionId: d.referenceId, Status: ok });
    if (window.parent && window.parent !== window) window.parent.postMessage(msg, '*');
  }
  if (!d.referenceId) { done(false); return; }
  var facts = {
    colorDepth: screen.colorDepth, screenHeight: screen.height, screenWidth: screen.width,
    timeZoneOffset: new Date().getTimezoneOffset(), language: navigator.language, javaEnabled: false, javaScriptEnabled: true
  };
  fetch('/sandbox/three-ds/ddc/' + encodeURIComponent(d.referenceId), {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(facts), credentials: 'omit'
  }).then(function (r) { done(r.ok); }, function () { done(false); });
})();
`;

export const ACS_SCRIPT = String.raw`(function () {
  'use strict';
  var f = document.getElementById('cres-form');
  if (f) f.submit();
})();
`;

export const ACS_STYLE = `body{margin:0;font:15px/1.4 system-ui,sans-serif;color:#1d2433;background:#fff}
main{max-width:380px;margin:0 auto;padding:16px}
.badge{display:inline-block;font-size:.7rem;font-weight:700;letter-spacing:.05em;color:#7c2d12;background:#fff4d6;padding:2px 6px;border-radius:4px}
h1{font-size:1.1rem}.hint{font-size:.85rem;color:#4a5468}
label{display:block;margin:12px 0 4px;font-size:.85rem}
input{width:100%;box-sizing:border-box;padding:10px;font-size:1rem;border:1px solid #8a94a6;border-radius:6px}
input[aria-invalid=true]{border:2px solid #b91c1c}:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
button{margin:12px 8px 0 0;padding:10px 16px;font-size:1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}
button.secondary{background:#e4e8f0;color:#1d2433}
.error{color:#b91c1c;font-size:.85rem}
.purchase{display:grid;grid-template-columns:auto 1fr;gap:2px 10px;margin:8px 0;font-size:.9rem}.purchase dt{color:#4a5468}.purchase dd{margin:0;font-weight:600;overflow-wrap:anywhere}
`;
