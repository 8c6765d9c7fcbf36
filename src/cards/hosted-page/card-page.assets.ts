/**
 * The hosted card page's script and style, served from this service's own origin
 * (`/hosted-card/assets/…`) so the CSP can be `script-src 'self'` with no inline script and no
 * third party. Plain ES2017, no build step, no dependency.
 *
 * Message protocol (packages/react-native-card/README.md): `ready`, `success`, `error`, with
 * `"v": 1`. Sent to `window.ReactNativeWebView.postMessage(JSON.stringify(msg))` when present,
 * else to `window.parent.postMessage(msg, parentOrigin)` when the page is framed and the
 * session has a parent origin (never `"*"`).
 */
import { PAYER_INPUT_JS } from '../../../kernel/common/payer-input.client';

export const CARD_PAGE_SCRIPT =
  PAYER_INPUT_JS +
  String.raw`(function () {
  'use strict';
  var cfgNode = document.getElementById('card-page-config');
  var cfg = JSON.parse(cfgNode.textContent);
  var rn = window.ReactNativeWebView && typeof window.ReactNativeWebView.postMessage === 'function' ? window.ReactNativeWebView : null;
  var framed = window.parent && window.parent !== window;

  function post(msg) {
    msg.v = 1;
    if (rn) { rn.postMessage(JSON.stringify(msg)); return; }
    if (framed && cfg.parentOrigin) window.parent.postMessage(msg, cfg.parentOrigin);
  }
  function postError(code, message, requestId, retryable) {
    post({ type: 'error', error: { code: code, message: message, requestId: requestId || cfg.requestId, retryable: retryable } });
  }
  function $(id) { return document.getElementById(id); }
  function show(id, on) { $(id).hidden = !on; }

  if (cfg.state !== 'ready') {
    show('expired', true);
    show('card-form', false);
    // In the React Native web view the HTTP status (404/410) already reports token_expired.
    if (!rn) postError('token_expired', 'The card session is expired, already used or unknown; create a new session', cfg.requestId, true);
    return;
  }

  var form = $('card-form');
  var number = $('card-number');
  var expiry = $('card-expiry');
  var cvv = $('card-cvv');
  var nickname = $('card-nickname');
  var brandLabel = $('card-brand');
  var submit = $('card-submit');
  var status = $('card-status');
  var sent = false;
  var M = (cfg.i18n && cfg.i18n.m) || {};
  function t(k, vars) { return String(M[k] || k).replace(/\{(\w+)\}/g, function (m, v) { return vars && v in vars ? String(vars[v]) : m; }); }
  var PI = window.PayerInput;

  function digits(s) { return String(s || '').replace(/[^0-9]/g, ''); }
  function brandOf(d) {
    if (/^4/.test(d)) return 'VISA';
    var two = Number(d.slice(0, 2)), four = Number(d.slice(0, 4));
    if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
    if ((two === 34 || two === 37) && d.length <= 15) return 'AMEX';
    return 'UNKNOWN';
  }
  function lengthOk(brand, n) {
    if (brand === 'VISA') return n === 13 || n === 16 || n === 19;
    if (brand === 'MASTERCARD') return n === 16;
    if (brand === 'AMEX') return n === 15;
    return n >= 12 && n <= 19;
  }
  function cvvLengths(brand) { return brand === 'AMEX' ? [4] : brand === 'UNKNOWN' ? [3, 4] : [3]; }
  function parseExpiry(v) {
    var m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(v);
    if (!m) return null;
    var month = Number(m[1]), year = Number(m[2]);
    if (year < 100) year += 2000;
    return month >= 1 && month <= 12 ? { month: month, year: year } : null;
  }

  PI.bind(number, PI.cardNumber);
  PI.bind(expiry, PI.expiry);
  PI.bind(cvv, function (v) { return digits(v).slice(0, 4); });
  number.addEventListener('input', function () {
    var d = digits(number.value).slice(0, 19);
    var b = brandOf(d);
    brandLabel.textContent = d.length >= 1 && b !== 'UNKNOWN' ? b : '';
    cvv.maxLength = b === 'AMEX' ? 4 : b === 'UNKNOWN' ? 4 : 3;
  });
  // an error clears as soon as its field is corrected
  ['card-number', 'card-expiry', 'card-cvv', 'card-nickname'].forEach(function (f) {
    $(f).addEventListener('input', function () {
      if ($(f).getAttribute('aria-invalid') !== 'true') return;
      setError(f, check().errors[f] || '');
    });
  });

  function setError(field, message) {
    var node = $(field + '-error');
    node.textContent = message || '';
    var input = $(field);
    if (message) input.setAttribute('aria-invalid', 'true'); else input.removeAttribute('aria-invalid');
  }
  function clearErrors() { ['card-number', 'card-expiry', 'card-cvv', 'card-nickname'].forEach(function (f) { setError(f, ''); }); }
  var FIELD = { cardNumber: 'card-number', expirationMonth: 'card-expiry', expirationYear: 'card-expiry', securityCode: 'card-cvv', nickname: 'card-nickname' };

  function check() {
    var errors = {};
    var d = digits(number.value);
    var b = brandOf(d);
    if (d.length < 12 || d.length > 19) errors['card-number'] = t('errCardLength');
    else if (!PI.luhn(d)) errors['card-number'] = t('errCardNumber');
    else if (!lengthOk(b, d.length)) errors['card-number'] = t('errCardNumber');
    var exp = parseExpiry(expiry.value);
    var today = cfg.today.split('-').map(Number);
    if (!exp) errors['card-expiry'] = t('errExpiry');
    else if (exp.year < today[0] || (exp.year === today[0] && exp.month < today[1])) errors['card-expiry'] = t('errExpired');
    else if (exp.year > today[0] + 20) errors['card-expiry'] = t('errExpiryYear');
    var c = digits(cvv.value);
    if (cvvLengths(b).indexOf(c.length) < 0 || c.length !== cvv.value.length) errors['card-cvv'] = t('cpCvvDigits', { n: cvvLengths(b).join(t('cpOr')) });
    var nick = nickname.value.trim();
    if (nick.length > 40) errors['card-nickname'] = t('cpNickLong');
    else if (/\d[\d\s-]{10,}\d/.test(nick)) errors['card-nickname'] = t('cpNickDigits');
    return { errors: errors, card: { cardNumber: d, expirationMonth: exp ? String(exp.month) : '', expirationYear: exp ? String(exp.year) : '', securityCode: c, nickname: nick || undefined } };
  }

  function wipe() { number.value = ''; expiry.value = ''; cvv.value = ''; }

  form.addEventListener('submit', function (ev) {
    ev.preventDefault();
    if (sent) return;
    clearErrors();
    status.textContent = '';
    var r = check();
    var fields = Object.keys(r.errors);
    if (fields.length) {
      fields.forEach(function (f) { setError(f, r.errors[f]); });
      $(fields[0]).focus();
      postError('validation_error', 'The card data is invalid: ' + fields.map(function (f) { return f.replace('card-', ''); }).join(', '), cfg.requestId, true);
      return;
    }
    sent = true;
    submit.disabled = true;
    status.textContent = t('cpSaving');
    fetch(cfg.sessionId + '/tokenize', {
      method: 'POST',
      credentials: 'omit',
      cache: 'no-store',
      headers: { 'content-type': 'application/json', 'x-card-page-key': cfg.pageKey },
      body: JSON.stringify(r.card)
    }).then(function (res) {
      return res.text().then(function (text) {
        var body = null;
        try { body = JSON.parse(text); } catch (e) { body = null; }
        return { status: res.status, body: body };
      });
    }).then(function (res) {
      var requestId = res.body && res.body.requestId;
      if (res.status === 201 && res.body && res.body.slugStoredCard) {
        wipe();
        show('card-form', false);
        $('done-text').textContent = res.body.brand + ' •••• ' + res.body.last4;
        show('done', true);
        post({ type: 'success', result: res.body });
        return;
      }
      var code = res.body && res.body.error;
      if (res.status === 400 && code === 'validation_error') {
        sent = false;
        submit.disabled = false;
        status.textContent = '';
        (res.body.details || []).forEach(function (d) { if (FIELD[d.field]) setError(FIELD[d.field], d.message); });
        postError('validation_error', res.body.message || 'The card data is invalid', requestId, true);
        return;
      }
      wipe();
      if (res.status === 404 || res.status === 410) {
        show('card-form', false);
        show('expired', true);
        postError('token_expired', 'The card session is expired or already used; create a new session', requestId, true);
        return;
      }
      show('card-form', false);
      show('failed', true);
      var retryable = res.status >= 500 || res.status === 408 || res.status === 429;
      postError('tokenization_failed', 'The card could not be saved (HTTP ' + res.status + ')', requestId, retryable);
    }).catch(function () {
      wipe();
      show('card-form', false);
      show('failed', true);
      postError('tokenization_failed', 'The card could not be saved (network error)', cfg.requestId, true);
    });
  });

  show('card-form', true);
  number.focus();
  post({ type: 'ready', requestId: cfg.requestId });
})();
`;

export const CARD_PAGE_STYLE = `*{box-sizing:border-box}
html,body{margin:0;padding:0;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2433;background:#fff}
main{max-width:420px;margin:0 auto;padding:16px}
h1{font-size:1.1rem;margin:0 0 12px}
label{display:block;font-size:.85rem;margin:12px 0 4px;color:#4a5468}
input{width:100%;padding:10px 12px;font-size:1rem;border:1px solid #8a94a6;border-radius:6px;background:#fff;color:inherit}
input[aria-invalid=true]{border-color:#c62828;border-width:2px}
:focus-visible{outline:3px solid #1f5eff;outline-offset:2px}
.row{display:flex;gap:12px}.row>div{flex:1}
.brand{float:right;font-size:.75rem;font-weight:600;color:#4a5468}
.error{min-height:1em;margin:4px 0 0;font-size:.85rem;color:#b91c1c}
button{margin-top:16px;width:100%;padding:12px;font-size:1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}
button:disabled{opacity:.6;cursor:default}
.status{margin-top:8px;font-size:.85rem;color:#4a5468;min-height:1.2em}
.notice{padding:16px;border-radius:6px;background:#f3f5f9}
[hidden]{display:none!important}
`;
