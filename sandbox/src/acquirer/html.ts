import { I18n } from '../../../kernel/common/i18n';

/** Small helpers for the sandbox's server-rendered pages: escaping and one strict CSP. */
export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Only our own scripts and styles; no inline code; not framable. */
export const SANDBOX_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

export function page(t: I18n, title: string, body: string): string {
  return `<!doctype html>
<html lang="${t.locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><link rel="stylesheet" href="/sandbox/assets/bank-app.css"></head>
<body><header><strong>${esc(t.m.bankApp)}</strong> <span class="tag">${esc(t.m.bankTestMode)}</span></header>
<main>${body}</main><script src="/sandbox/assets/bank-app.js"></script></body></html>`;
}

export const BANK_APP_CSS = `body{font-family:system-ui,sans-serif;margin:0;background:#f4f1fb;color:#222}
header{background:#5b2a86;color:#fff;padding:12px 16px}.tag{font-size:12px;margin-left:8px}
:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}label{display:block;margin:8px 0 4px}.grp{white-space:nowrap}
main{max-width:520px;margin:24px auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 2px 8px #0002}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 12px}dt{color:#555}dd{margin:0;overflow-wrap:anywhere}
@media (max-width:560px){main{margin:0;border-radius:0}}
button{background:#5b2a86;color:#fff;border:0;border-radius:8px;padding:12px 18px;font-size:16px;cursor:pointer;margin:8px 8px 0 0}
.payee{border:1px solid #d9cfe8;border-radius:8px;padding:8px 12px;margin:12px 0}.payee h2{font-size:16px;margin:0 0 4px}.payee dd{font-weight:600}
button:disabled{opacity:.75}.status{font-weight:bold}.error{color:#b00020}textarea,input{width:100%;box-sizing:border-box;padding:8px;font-family:monospace}
`;

/** Buttons carry `data-pay` (URL) and `data-body` (JSON); the page reloads with the new status. */
export const BANK_APP_JS = `(function(){
  document.querySelectorAll('button[data-pay]').forEach(function(b){
    b.addEventListener('click', function(){
      b.disabled = true;
      fetch(b.getAttribute('data-pay'), {method:'POST', headers:{'content-type':'application/json'}, body:b.getAttribute('data-body')||'{}'})
        .then(function(r){ return r.json().then(function(j){ return {ok:r.ok, j:j}; }); })
        .then(function(x){
          var out = document.getElementById('result');
          if (!x.ok) { out.className='error'; out.textContent = x.j.message || b.getAttribute('data-refused'); b.disabled=false; return; }
          out.className='status'; out.textContent = b.getAttribute('data-done'); setTimeout(function(){ location.reload(); }, 400);
        })
        .catch(function(){ b.disabled=false; });
    });
  });
})();`;
