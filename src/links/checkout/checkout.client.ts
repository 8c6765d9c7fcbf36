import { PAYER_INPUT_JS } from '../../../kernel/common/payer-input.client';
import { checkoutAmountField, checkoutCardFields, CheckoutUi } from './checkout-fields.client';
import { installmentText } from './installments.client';

/**
 * The checkout page's script, written in TypeScript for type checks and served as plain
 * JavaScript (`checkoutMain.toString()`), from our origin: the page's CSP allows no inline code.
 * It must be self-contained: no imports, no outer variables (type-only imports are erased); the
 * parts in checkout-fields.client.ts are served beside it and handed in as `parts`. Its words come from the page's
 * JSON block (the message catalogue of the page's language); it formats money with `Intl`.
 */
export function checkoutMain(parts: {
  amount: typeof checkoutAmountField;
  card: typeof checkoutCardFields;
  inst: typeof installmentText;
}): void {
  const $ = (id: string) => document.getElementById(id) as any;
  document.querySelectorAll('[data-print]').forEach((b) => b.addEventListener('click', () => window.print()));
  const dataEl = $('checkout-data');
  const data = dataEl ? JSON.parse(dataEl.textContent || '{}') : {};
  const query = new URLSearchParams(location.search);
  const parentOrigin: string | null = data.parentOrigin || query.get('parentOrigin');
  const notifyParent = (msg: Record<string, unknown>) => {
    if (window.parent === window || !parentOrigin || !/^https?:\/\/[^/]+$/.test(parentOrigin)) return;
    try {
      window.parent.postMessage(msg, parentOrigin);
    } catch {
      /* a bad origin: nothing to tell */
    }
  };
  const close = $('close');
  if (close) close.addEventListener('click', () => notifyParent({ type: 'service-checkout:close' }));
  document.addEventListener('keydown', (e: KeyboardEvent) => {
    if (e.key === 'Escape' && close) notifyParent({ type: 'service-checkout:close' });
  });
  if (!data.slug) return;

  const PI = (window as any).PayerInput;
  const I = data.i18n || { intl: 'pt-BR', m: {} };
  const t = (k: string, vars?: Record<string, unknown>) =>
    String(I.m[k] || k).replace(/\{(\w+)\}/g, (m: string, v: string) => (vars && v in vars ? String(vars[v]) : m));
  const money = new Intl.NumberFormat(I.intl, { style: 'currency', currency: 'BRL' });
  const brl = (n: number) => money.format(n).replace(/\u00a0/g, ' ');
  const fmtDay = (iso: string) =>
    new Intl.DateTimeFormat(I.intl, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(iso + 'T12:00:00Z'),
    );
  const withLang = (url: string) => url + (url.indexOf('?') < 0 ? '?' : '&') + 'lang=' + encodeURIComponent(I.locale || 'pt-BR');
  // the service's clock less the payer's: expiries are on the service's (the test clock in sandbox mode)
  let clockSkew = typeof data.serverNow === 'number' ? data.serverNow - Date.now() : 0;
  const base = '/checkout/' + data.slug;
  let done = false;
  const uuid = (): string => {
    const c: any = (window as any).crypto;
    if (c && c.randomUUID) return c.randomUUID();
    const b = new Uint8Array(16);
    c.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => ('0' + x.toString(16)).slice(-2)).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  };
  const digits = (s: string) => (s || '').replace(/\D/g, '');
  const show = (el: any, on: boolean) => {
    if (el) el.hidden = !on;
  };
  const setError = (id: string, msg: string) => {
    const el = $(id);
    if (el) el.textContent = msg;
  };

  // ---- errors next to their field: aria-invalid + the error slot it is described by; cleared when corrected
  const validators: Record<string, () => string> = {};
  const fieldError = (id: string, msg: string) => {
    const input = $(id);
    setError(id + '-error', msg);
    if (!input) return;
    if (msg) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
  };
  const recheck = (id: string) => {
    const input = $(id);
    if (input && input.getAttribute('aria-invalid') === 'true' && validators[id]) fieldError(id, validators[id]());
  };
  ['amount', 'payer-name', 'payer-email', 'payer-taxid', 'card-number', 'card-expiry', 'card-cvv', 'card-name'].forEach((id) => {
    const input = $(id);
    if (input) input.addEventListener('input', () => recheck(id));
  });
  /** Checks fields in order; marks each failing one; focuses the first. Returns true when all pass. */
  const checkFields = (ids: string[]): boolean => {
    let first: any = null;
    ids.forEach((id) => {
      const msg = validators[id] ? validators[id]() : '';
      fieldError(id, msg);
      if (msg && !first) first = $(id);
    });
    if (first) first.focus();
    return !first;
  };

  // ---- tabs (arrow keys move between them)
  const tabs = Array.from(document.querySelectorAll('[data-tab]')) as any[];
  const select = (tab: any) => {
    tabs.forEach((o) => {
      const on = o === tab;
      o.classList.toggle('active', on);
      o.setAttribute('aria-selected', String(on));
      o.tabIndex = on ? 0 : -1;
      show($('panel-' + o.getAttribute('data-tab')), on);
    });
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener('click', () => select(tab));
    tab.addEventListener('keydown', (e: KeyboardEvent) => {
      const d = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (!d) return;
      const next = tabs[(i + d + tabs.length) % tabs.length];
      select(next);
      next.focus();
    });
  });

  // ---- installments: the selected option's full detail under the select
  const inst = (amounts: number[], total: number) => parts.inst(t, brl, amounts, total, !!data.passFee);
  const showInstallment = () => {
    const sel = $('installments');
    const opt = sel && sel.selectedOptions[0];
    if (opt && $('installments-detail')) $('installments-detail').textContent = opt.getAttribute('aria-label') || '';
  };
  if ($('installments')) $('installments').addEventListener('change', showInstallment);

  // ---- amount (open links; checkout-fields.client.ts)
  const ui: CheckoutUi = { $, t, brl, digits, PI, validators, fieldError, locale: I.locale, data, base, inst, showInstallment };
  const { amountInput, parseAmount } = parts.amount(ui);

  // ---- payer
  PI.bind($('payer-taxid'), PI.taxId);
  let needTaxId = false;
  validators['payer-name'] = () => (($('payer-name').value || '').trim().length < 2 ? t('errName') : '');
  validators['payer-email'] = () => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(($('payer-email').value || '').trim()) ? '' : t('errEmail'));
  validators['payer-taxid'] = () => {
    const d = digits($('payer-taxid').value);
    if (d && d.length !== 11 && d.length !== 14) return t('errTaxId');
    return needTaxId && !d ? t('errTaxIdRequired') : '';
  };
  const payer = () => {
    const name = ($('payer-name').value || '').trim();
    const email = ($('payer-email').value || '').trim();
    const taxId = digits($('payer-taxid').value);
    return taxId ? { name, email, taxId } : { name, email };
  };
  const payerFields = () => (amountInput ? ['amount'] : []).concat(['payer-name', 'payer-email', 'payer-taxid']);

  // ---- card checks (the server checks again; checkout-fields.client.ts)
  const { cardData } = parts.card(ui);

  // ---- attempts
  const attempt = (body: Record<string, unknown>) => {
    const payload: Record<string, unknown> = { attemptId: uuid(), ...body };
    if (amountInput) payload.amount = parseAmount();
    return fetch(base + '/payments', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    }).then(
      (r) =>
        r.json().then((j: any) => {
          if (!r.ok) throw new Error(j.message || t('errStart'));
          return j;
        }),
      () => {
        throw new Error(t('errNetwork'));
      },
    );
  };
  const statusWord = (method: string, status: string) =>
    I.m['st_' + method + '_' + status] ? t('st_' + method + '_' + status) : t('st_unknown');
  const succeed = (v: any) => {
    if (done) return;
    done = true;
    stopTimers();
    document.querySelectorAll('.panel, .tabs, .payer, .amount').forEach((el: any) => show(el, false));
    $('done-text').textContent = t('doneText', { amount: brl(v.amount), status: statusWord(v.method, v.status) });
    $('done').setAttribute('data-status', v.status);
    $('done-receipt').href = withLang(v.receiptUrl);
    show($('done'), true);
    $('done').focus();
    notifyParent({ type: 'service-checkout:success', status: v.status, amount: v.amount, method: v.method });
  };

  // ---- polling (paused while the page is hidden) and the Pix countdown
  let pollTimer: any = null;
  let countdownTimer: any = null;
  const stopTimers = () => {
    clearTimeout(pollTimer);
    clearInterval(countdownTimer);
  };
  let polling: (() => void) | null = null;
  const poll = (paymentId: string, statusId: string, every: number, onEnd: (v: any) => void) => {
    let inFlight = false;
    const tick = () => {
      clearTimeout(pollTimer);
      pollTimer = null;
      if (done || inFlight) return;
      if (document.hidden) return; // resumed by visibilitychange
      inFlight = true;
      fetch(base + '/payments/' + paymentId)
        .then((r) => (r.ok ? r.json() : null))
        .then((v) => {
          inFlight = false;
          if (!v) return schedule();
          if (v.paid) return succeed(v);
          if (!v.pending) {
            polling = null;
            return onEnd(v);
          }
          schedule();
        })
        .catch(() => {
          inFlight = false;
          schedule();
        });
    };
    const schedule = () => {
      clearTimeout(pollTimer);
      pollTimer = setTimeout(tick, every);
    };
    polling = tick;
    $(statusId).textContent = t('waiting');
    schedule();
  };
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden && polling && !done) polling(); // at once: the payer may have paid in the bank app meanwhile
  });

  const copyButton = (btnId: string, noteId: string, text: () => string) => {
    const btn = $(btnId);
    if (!btn) return;
    btn.addEventListener('click', () => {
      const note = $(noteId);
      const ok = () => {
        note.textContent = t('copied');
        setTimeout(() => (note.textContent = ''), 4000);
      };
      const clip: any = navigator.clipboard;
      if (clip && clip.writeText) clip.writeText(text()).then(ok, () => (note.textContent = t('copyFailed')));
      else note.textContent = t('copyFailed');
    });
  };

  const cardForm = $('card-form');
  if (cardForm) {
    cardForm.addEventListener('submit', (ev: Event) => {
      ev.preventDefault();
      needTaxId = false;
      setError('card-error', '');
      if (!checkFields(payerFields().concat(['card-number', 'card-expiry', 'card-cvv', 'card-name']))) return;
      const body = { method: 'CARD', payer: payer(), card: cardData(), installments: Number($('installments').value || 1) };
      const btn = $('pay-card');
      btn.disabled = true;
      btn.textContent = t('processing');
      attempt(body)
        .then((v) => {
          if (v.paid) return succeed(v);
          setError('card-error', t('errRefused', { reason: t('reason_' + (I.m['reason_' + v.reason] ? v.reason : 'other')) }));
        })
        .catch((e) => setError('card-error', e.message))
        .then(() => {
          btn.disabled = false;
          btn.textContent = t('pay');
        });
    });
  }

  const pixBtn = $('pay-pix');
  const pixExpired = () => {
    stopTimers();
    polling = null;
    show($('pix-result'), false);
    show($('pix-expired'), true);
  };
  const startCountdown = (expiresAt: string, serverNow?: string) => {
    const end = Date.parse(expiresAt);
    const at = serverNow ? Date.parse(serverNow) : NaN;
    if (!isNaN(at)) clockSkew = at - Date.now(); // the clock may have moved since the page loaded
    const el = $('pix-countdown');
    const render = () => {
      const left = Math.max(0, Math.round((end - (Date.now() + clockSkew)) / 1000));
      const mm = Math.floor(left / 60);
      const ss = ('0' + (left % 60)).slice(-2);
      el.textContent = t('pixExpiresIn', { time: mm + ':' + ss });
      el.setAttribute('data-seconds', String(left));
      if (left <= 0) pixExpired();
    };
    clearInterval(countdownTimer);
    countdownTimer = setInterval(render, 1000);
    render();
  };
  const generatePix = () => {
    setError('pix-error', '');
    needTaxId = false;
    if (!checkFields(payerFields())) return;
    pixBtn.disabled = true;
    attempt({ method: 'PIX', payer: payer() })
      .then((v) => {
        $('pix-qr').src = v.pix.qrCode;
        $('pix-qr').alt = t('pixQrAlt', { amount: brl(v.amount) });
        $('pix-code').value = v.pix.brCode;
        if (v.pix.bankAppUrl) {
          $('pix-bank').href = v.pix.bankAppUrl;
          show($('pix-bank'), true);
        }
        show($('pix-expired'), false);
        show($('pix-result'), true);
        show(pixBtn, false);
        startCountdown(v.pix.expiresAt, v.pix.serverNow);
        poll(v.paymentId, 'pix-status', 1500, (end) =>
          end.status === 'EXPIRED' ? pixExpired() : ($('pix-status').textContent = statusWord('PIX', end.status)),
        );
        $('pix-copy').focus();
      })
      .catch((e) => {
        setError('pix-error', e.message);
      })
      .then(() => {
        pixBtn.disabled = false;
      });
  };
  if (pixBtn) {
    pixBtn.addEventListener('click', generatePix);
    $('pix-new').addEventListener('click', generatePix);
    copyButton('pix-copy', 'pix-copied', () => $('pix-code').value);
  }

  const boletoBtn = $('pay-boleto');
  if (boletoBtn) {
    let line = '';
    copyButton('boleto-copy', 'boleto-copied', () => line);
    boletoBtn.addEventListener('click', () => {
      setError('boleto-error', '');
      needTaxId = true;
      if (!checkFields(payerFields())) return;
      boletoBtn.disabled = true;
      attempt({ method: 'BOLETO', payer: payer() })
        .then((v) => {
          if (!v.boleto) throw new Error(t('errBoleto'));
          line = v.boleto.digitableLine;
          const el = $('boleto-line');
          el.textContent = '';
          String(v.boleto.formattedLine)
            .split(' ')
            .forEach((g: string, i: number) => {
              if (i) el.appendChild(document.createTextNode(' '));
              const s = document.createElement('span');
              s.className = 'grp';
              s.textContent = g;
              el.appendChild(s);
            });
          $('boleto-barcode').src = v.boleto.barcodeUrl;
          $('boleto-due').textContent = t('boletoDue', { date: fmtDay(v.boleto.dueDate) });
          $('boleto-due').setAttribute('data-date', v.boleto.dueDate);
          $('boleto-print').href = withLang(v.boleto.printUrl);
          if (v.boleto.downloadUrl) {
            $('boleto-download').href = v.boleto.downloadUrl;
            show($('boleto-download'), true);
            show($('boleto-download-sep'), true);
          }
          if (v.boleto.bankAppUrl) {
            $('boleto-bank').href = v.boleto.bankAppUrl;
            show($('boleto-bank'), true);
          }
          show($('boleto-result'), true);
          show(boletoBtn, false);
          poll(v.paymentId, 'boleto-status', 3000, (end) => ($('boleto-status').textContent = statusWord('BOLETO', end.status)));
          $('boleto-copy').focus();
        })
        .catch((e) => {
          setError('boleto-error', e.message);
          boletoBtn.disabled = false;
        });
    });
  }

  // The pay buttons are served disabled, so a payer who taps before this script has run sends
  // nothing (no native form submission with the payer's data); they work from here on.
  [cardForm && $('pay-card'), pixBtn, boletoBtn].forEach((b) => {
    if (b) b.disabled = false;
  });
}

export const CHECKOUT_JS = `${PAYER_INPUT_JS}(${checkoutMain.toString()})({ amount: ${checkoutAmountField.toString()}, card: ${checkoutCardFields.toString()}, inst: ${installmentText.toString()} });\n`;
