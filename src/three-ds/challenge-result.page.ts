import { I18n } from '../../kernel/common/i18n';
import { ThreeDsRecord } from './three-ds.repository';
import { browserUrl } from './three-ds.view';

export const CHALLENGE_RESULT_SCRIPT_PATH = '/three-ds/assets/challenge-result.js';
export const CHALLENGE_RESULT_STYLE_PATH = '/three-ds/assets/challenge-result.css';

/** The framed completion: a short centred status a payer reads while the store takes over. */
export const CHALLENGE_RESULT_STYLE = `body{margin:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;background:#fff}
main{max-width:380px;margin:0 auto;padding:32px 16px;text-align:center}h1{font-size:1.1rem;margin:0 0 8px}
.ok{color:#15803d;font-weight:600}.ko{color:#b91c1c;font-weight:600}
`;

/**
 * The page the ACS posts the challenge response to. It tells its parent (the merchant page that
 * framed the challenge) `3DS_CHALLENGE_COMPLETE` or `3DS_CHALLENGE_FAILED` with postMessage,
 * targeted at the origin of the authenticate call's returnUrl; in a React Native web view it
 * posts the same message as JSON; opened top-level it navigates to returnUrl.
 */
export const CHALLENGE_RESULT_SCRIPT = String.raw`(function () {
  'use strict';
  var d = JSON.parse(document.getElementById('challenge-result').textContent);
  var msg = { type: d.type, referenceId: d.referenceId, transStatus: d.transStatus };
  if (window.ReactNativeWebView && typeof window.ReactNativeWebView.postMessage === 'function') {
    window.ReactNativeWebView.postMessage(JSON.stringify(msg));
  } else if (window.parent && window.parent !== window) {
    if (d.targetOrigin) window.parent.postMessage(msg, d.targetOrigin);
  } else if (d.returnUrl) {
    var sep = d.returnUrl.indexOf('?') < 0 ? '?' : '&';
    window.location.replace(d.returnUrl + sep + 'referenceId=' + encodeURIComponent(d.referenceId || '') + '&result=' + encodeURIComponent(d.type));
  }
})();
`;

export interface ChallengeResultPage {
  status: 200 | 400;
  headers: Record<string, string>;
  html: string;
}

export function renderChallengeResult(auth: ThreeDsRecord | null, t: I18n): ChallengeResultPage {
  const complete = auth?.status === 'AUTHENTICATED';
  const ret = auth?.returnUrl ? browserUrl(auth.returnUrl) : null;
  const data = {
    type: complete ? '3DS_CHALLENGE_COMPLETE' : '3DS_CHALLENGE_FAILED',
    referenceId: auth?.referenceId ?? null,
    transStatus: auth?.transStatus ?? null,
    targetOrigin: ret?.origin ?? null,
    returnUrl: ret?.toString() ?? null,
  };
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
  const text = complete ? t.m.tdsComplete : t.m.tdsIncomplete;
  const html = `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.m.tdsResultTitle}</title>
<link rel="stylesheet" href="${CHALLENGE_RESULT_STYLE_PATH}">
<script type="application/json" id="challenge-result">${json}</script>
<script src="${CHALLENGE_RESULT_SCRIPT_PATH}" defer></script>
</head><body><main><h1>${t.m.tdsResultTitle}</h1><p class="${complete ? 'ok' : 'ko'}" role="status">${text}</p></main></body></html>
`;
  const headers = {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${ret ? ret.origin : "'none'"}`,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
  return { status: auth ? 200 : 400, headers, html };
}
