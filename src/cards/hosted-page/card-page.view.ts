import { I18n, MessageKey } from '../../../kernel/common/i18n';
import { frameAncestorsDirective } from '../domain/origins';

export interface CardPageModel {
  state: 'ready' | 'expired';
  /** HTTP status of the page: 200 ready, 410 expired or used, 404 unknown. */
  status: 200 | 404 | 410;
  sessionId?: string;
  pageKey?: string;
  requestId: string;
  parentOrigin: string | null;
  frameAncestors: string[];
  /** Business date (YYYY-MM-DD) for the expiry check in the page. */
  today: string;
}

/** Headers of every hosted card page answer. */
export function cardPageHeaders(model: Pick<CardPageModel, 'frameAncestors'>): Record<string, string> {
  const csp = [
    `default-src 'none'`,
    `script-src 'self'`,
    `style-src 'self'`,
    `connect-src 'self'`,
    `img-src 'self'`,
    `form-action 'none'`,
    `base-uri 'none'`,
    frameAncestorsDirective(model.frameAncestors),
  ].join('; ');
  const headers: Record<string, string> = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'cache-control': 'no-store',
    pragma: 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
    'cross-origin-opener-policy': 'same-origin',
  };
  if (!model.frameAncestors.length) headers['x-frame-options'] = 'DENY';
  return headers;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** JSON that is safe inside a <script type="application/json"> block. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The keys the page's script reads. */
const CLIENT_KEYS: MessageKey[] = [
  'errCardLength',
  'errCardNumber',
  'errExpiry',
  'errExpired',
  'errExpiryYear',
  'cpCvvDigits',
  'cpOr',
  'cpNickLong',
  'cpNickDigits',
  'cpSaving',
];

/** The server-rendered page, in the payer's language. Assets are relative so a path prefix in CARD_PAGE_URL keeps working. */
export function renderCardPage(model: CardPageModel, t: I18n): string {
  const e = (k: MessageKey) => escapeHtml(t.m[k]);
  const config = {
    i18n: t.clientBundle(CLIENT_KEYS),
    state: model.state,
    sessionId: model.sessionId ?? null,
    pageKey: model.pageKey ?? null,
    requestId: model.requestId,
    parentOrigin: model.parentOrigin,
    today: model.today,
  };
  return `<!doctype html>
<html lang="${t.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${e('cpTitle')}</title>
<link rel="stylesheet" href="assets/card-page.css">
<script type="application/json" id="card-page-config">${jsonForScript(config)}</script>
<script src="assets/card-page.js" defer></script>
</head>
<body>
<main>
<form id="card-form" method="post" autocomplete="on" novalidate hidden>
  <h1>${e('cpTitle')}</h1>
  <label for="card-number">${e('cardNumber')} <span class="brand" id="card-brand" aria-live="polite"></span></label>
  <input id="card-number" name="cc-number" inputmode="numeric" autocomplete="cc-number" maxlength="23" required aria-describedby="card-number-error">
  <p class="error" id="card-number-error" ></p>
  <div class="row">
    <div>
      <label for="card-expiry">${e('cardExpiry')}</label>
      <input id="card-expiry" name="cc-exp" inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="${e('cardExpiryPlaceholder')}" required aria-describedby="card-expiry-error">
      <p class="error" id="card-expiry-error" ></p>
    </div>
    <div>
      <label for="card-cvv">${e('cardCvv')}</label>
      <input id="card-cvv" name="cc-csc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" required aria-describedby="card-cvv-error">
      <p class="error" id="card-cvv-error" ></p>
    </div>
  </div>
  <label for="card-nickname">${e('cpNickname')}</label>
  <input id="card-nickname" name="nickname" autocomplete="off" maxlength="40" aria-describedby="card-nickname-error">
  <p class="error" id="card-nickname-error" ></p>
  <button id="card-submit" type="submit">${e('cpSave')}</button>
  <p class="status" id="card-status" aria-live="polite"></p>
</form>
<div id="done" class="notice" hidden><strong>${e('cpSaved')}</strong> <span id="done-text"></span></div>
<div id="expired" class="notice" hidden><strong>${e('cpExpired')}</strong> ${e('cpStartAgain')}</div>
<div id="failed" class="notice" hidden><strong>${e('cpFailed')}</strong> ${e('cpStartAgain')}</div>
<noscript><div class="notice">${e('cpNeedsJs')}</div></noscript>
</main>
</body>
</html>
`;
}
