/**
 * The checkout page's script, written in TypeScript for type checks and served as plain
 * JavaScript (`checkoutMain.toString()`), from our origin: the page's CSP allows no inline code.
 * It must be self-contained: no imports, no outer variables.
 */
export function checkoutMain(): void {
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
  if (!data.slug) return;

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
  const brl = (n: number) => 'R$ ' + n.toFixed(2).replace('.', ',').replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const digits = (s: string) => (s || '').replace(/\D/g, '');
  const show = (el: any, on: boolean) => {
    if (el) el.hidden = !on;
  };
  const setError = (id: string, msg: string) => {
    const el = $(id);
    if (el) el.textContent = msg;
  };

  // ---- tabs
  document.querySelectorAll('[data-tab]').forEach((t: any) =>
    t.addEventListener('click', () => {
      document.querySelectorAll('[data-tab]').forEach((o: any) => {
        const on = o === t;
        o.classList.toggle('active', on);
        o.setAttribute('aria-selected', String(on));
        show($('panel-' + o.getAttribute('data-tab')), on);
      });
    }),
  );

  // ---- amount (open links)
  const amountInput = $('amount');
  const amountValue = (): number | null => {
    if (data.fixedAmount !== null) return null;
    const raw = (amountInput.value || '').trim().replace(/\./g, (m: string, i: number, s: string) => (s.indexOf(',') >= 0 ? '' : m)).replace(',', '.');
    if (!/^\d+(\.\d{1,2})?$/.test(raw)) throw new Error('Type a valid amount, like 50,00');
    const n = Number(raw);
    if (n <= 0) throw new Error('Type a valid amount');
    if (data.minAmount !== null && n < data.minAmount) throw new Error('The least amount is ' + brl(data.minAmount));
    if (data.maxAmount !== null && n > data.maxAmount) throw new Error('The most amount is ' + brl(data.maxAmount));
    return n;
  };
  let quoteTimer: any = null;
  const applyQuote = (options: any[]) => {
    const sel = $('installments');
    if (sel) {
      const card = options.filter((o) => o.paymentMethod === 'CARD');
      sel.innerHTML = '';
      card.forEach((o) => {
        const opt = document.createElement('option');
        opt.value = String(o.installments);
        const each = o.installmentAmounts[o.installmentAmounts.length - 1];
        opt.textContent = o.installments === 1 ? '1x ' + brl(o.grossAmount) : o.installments + 'x ' + brl(each) + ' (total ' + brl(o.grossAmount) + ')';
        sel.appendChild(opt);
      });
    }
    ['PIX', 'BOLETO'].forEach((m) => {
      const f = $('figure-' + m);
      const o = options.find((x) => x.paymentMethod === m);
      if (f) f.textContent = o ? brl(o.grossAmount) : '';
    });
  };
  if (amountInput) {
    amountInput.addEventListener('input', () => {
      clearTimeout(quoteTimer);
      quoteTimer = setTimeout(() => {
        let n: number | null;
        try {
          n = amountValue();
        } catch {
          return;
        }
        fetch(base + '/quote', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ amount: n }) })
          .then((r) => (r.ok ? r.json() : null))
          .then((q) => q && applyQuote(q.options))
          .catch(() => undefined);
      }, 250);
    });
  }

  // ---- payer
  const payer = (needTaxId: boolean) => {
    const name = ($('payer-name').value || '').trim();
    const email = ($('payer-email').value || '').trim();
    const taxId = digits($('payer-taxid').value);
    if (name.length < 2) throw new Error('Type your full name');
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new Error('Type a valid e-mail');
    if (taxId && taxId.length !== 11 && taxId.length !== 14) throw new Error('CPF has 11 digits and CNPJ 14');
    if (needTaxId && !taxId) throw new Error('A boleto needs your CPF or CNPJ');
    return taxId ? { name, email, taxId } : { name, email };
  };

  // ---- card checks (the server checks again)
  const luhn = (n: string) => {
    if (n.length < 12 || n.length > 19) return false;
    let sum = 0;
    let dbl = false;
    for (let i = n.length - 1; i >= 0; i--) {
      let d = n.charCodeAt(i) - 48;
      if (dbl) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
      dbl = !dbl;
    }
    return sum % 10 === 0;
  };
  const brand = (n: string): string | null => {
    const p2 = Number(n.slice(0, 2));
    const p3 = Number(n.slice(0, 3));
    const p4 = Number(n.slice(0, 4));
    const p6 = Number(n.slice(0, 6));
    if (/^(401178|401179|431274|438935|451416|457393|45763[12]|504175|50(6699|67[0-7][0-9])|509\d{3}|627780|636297|636368|65003[1-3]|6500(3[5-9]|4\d|5[01])|650(4[0-3]\d|40[5-9])|6504(8[5-9]|9\d)|6505([0-2]\d|3[0-8])|6505(4[1-9]|[5-8]\d|9[0-8])|6507(0\d|1[0-8])|6507(2[0-7])|6509(0[1-9]|[1-6]\d|7[0-8])|6516(5[2-9]|[67]\d)|6550(0\d|1[0-9])|6550(2[1-9]|[34]\d|5[0-8]))/.test(n)) return 'elo';
    if (p6 === 606282 || p4 === 3841) return 'hipercard';
    if (p2 === 34 || p2 === 37) return 'amex';
    if (p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) return 'diners';
    if (p4 === 6011 || p2 === 65) return 'discover';
    if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return 'mastercard';
    if (n.charAt(0) === '4') return 'visa';
    return null;
  };
  const numberInput = $('card-number');
  if (numberInput) {
    numberInput.addEventListener('input', () => {
      const n = digits(numberInput.value);
      $('card-brand').textContent = n.length >= 4 ? brand(n) || '' : '';
    });
  }
  const cardData = () => {
    const n = digits(numberInput.value);
    if (!luhn(n)) throw new Error('The card number is not valid');
    const b = brand(n);
    if (!b) throw new Error('This card brand is not accepted');
    const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec($('card-expiry').value || '');
    if (!m) throw new Error('Type the expiry as MM/YY');
    const month = Number(m[1]);
    let year = Number(m[2]);
    if (year < 100) year += 2000;
    const now = new Date();
    if (month < 1 || month > 12 || year * 12 + month - 1 < now.getFullYear() * 12 + now.getMonth()) throw new Error('The card is expired');
    const cvv = digits($('card-cvv').value);
    if (cvv.length !== (b === 'amex' ? 4 : 3)) throw new Error('The security code has ' + (b === 'amex' ? 4 : 3) + ' digits');
    const holderName = ($('card-name').value || '').trim();
    if (holderName.length < 2) throw new Error('Type the name on the card');
    return { number: n, expMonth: month, expYear: year, cvv, holderName };
  };

  // ---- attempts
  const attempt = (body: Record<string, unknown>) => {
    const amount = amountValue();
    const payload: Record<string, unknown> = { attemptId: uuid(), ...body };
    if (amount !== null) payload.amount = amount;
    return fetch(base + '/payments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) }).then((r) =>
      r.json().then((j: any) => {
        if (!r.ok) throw new Error(j.message || 'The payment could not be started');
        return j;
      }),
    );
  };
  const succeed = (v: any) => {
    if (done) return;
    done = true;
    document.querySelectorAll('.panel, .tabs, .payer, .amount').forEach((el: any) => show(el, false));
    $('done-text').textContent = brl(v.amount) + ' paid by ' + ({ CARD: 'card', PIX: 'Pix', BOLETO: 'boleto' } as any)[v.method] + ' (' + v.status + ').';
    $('done-receipt').href = v.receiptUrl;
    show($('done'), true);
    notifyParent({ type: 'service-checkout:success', status: v.status, amount: v.amount, method: v.method });
  };
  const poll = (paymentId: string, statusId: string, every: number) => {
    const started = Date.now();
    const tick = () => {
      if (done || Date.now() - started > 2 * 3600 * 1000) return;
      fetch(base + '/payments/' + paymentId)
        .then((r) => (r.ok ? r.json() : null))
        .then((v) => {
          if (!v) return setTimeout(tick, every);
          if (v.paid) return succeed(v);
          if (!v.pending) {
            $(statusId).textContent = v.status === 'EXPIRED' ? 'This code expired. Generate a new one.' : 'Status: ' + v.status;
            return;
          }
          setTimeout(tick, every);
        })
        .catch(() => setTimeout(tick, every));
    };
    setTimeout(tick, every);
  };
  const REASONS: Record<string, string> = {
    generic_decline: 'The card issuer declined the payment.',
    insufficient_funds: 'Insufficient funds.',
    invalid_card: 'The card was not accepted.',
    expired_card: 'The card is expired.',
    processing_error: 'A processing error happened; try again.',
    acquirer_unavailable: 'The payment service is unavailable; try again.',
  };

  const cardForm = $('card-form');
  if (cardForm) {
    cardForm.addEventListener('submit', (ev: Event) => {
      ev.preventDefault();
      setError('card-error', '');
      let body;
      try {
        body = { method: 'CARD', payer: payer(false), card: cardData(), installments: Number($('installments').value || 1) };
      } catch (e: any) {
        return setError('card-error', e.message);
      }
      const btn = $('pay-card');
      btn.disabled = true;
      attempt(body)
        .then((v) => {
          if (v.paid) return succeed(v);
          setError('card-error', 'Payment refused: ' + (REASONS[v.reason] || v.status) + ' You can try another card.');
        })
        .catch((e) => setError('card-error', e.message))
        .then(() => {
          btn.disabled = false;
        });
    });
  }

  const pixBtn = $('pay-pix');
  if (pixBtn) {
    pixBtn.addEventListener('click', () => {
      setError('pix-error', '');
      let body;
      try {
        body = { method: 'PIX', payer: payer(false) };
      } catch (e: any) {
        return setError('pix-error', e.message);
      }
      pixBtn.disabled = true;
      attempt(body)
        .then((v) => {
          $('pix-qr').src = v.pix.qrCode;
          $('pix-code').value = v.pix.brCode;
          if (v.pix.bankAppUrl) {
            $('pix-bank').href = v.pix.bankAppUrl;
            show($('pix-bank'), true);
          }
          show($('pix-result'), true);
          show(pixBtn, false);
          poll(v.paymentId, 'pix-status', 1500);
        })
        .catch((e) => {
          setError('pix-error', e.message);
          pixBtn.disabled = false;
        });
    });
    $('pix-copy').addEventListener('click', () => {
      const t = $('pix-code');
      t.select();
      if (navigator.clipboard) navigator.clipboard.writeText(t.value).catch(() => undefined);
    });
  }

  const boletoBtn = $('pay-boleto');
  if (boletoBtn) {
    boletoBtn.addEventListener('click', () => {
      setError('boleto-error', '');
      let body;
      try {
        body = { method: 'BOLETO', payer: payer(true) };
      } catch (e: any) {
        return setError('boleto-error', e.message);
      }
      boletoBtn.disabled = true;
      attempt(body)
        .then((v) => {
          if (!v.boleto) throw new Error('The boleto could not be issued; try again or pay another way');
          $('boleto-line').textContent = v.boleto.formattedLine;
          $('boleto-barcode').src = v.boleto.barcodeUrl;
          $('boleto-due').textContent = v.boleto.dueDate;
          $('boleto-print').href = v.boleto.printUrl;
          if (v.boleto.bankAppUrl) {
            $('boleto-bank').href = v.boleto.bankAppUrl;
            show($('boleto-bank'), true);
          }
          show($('boleto-result'), true);
          show(boletoBtn, false);
          poll(v.paymentId, 'boleto-status', 3000);
        })
        .catch((e) => {
          setError('boleto-error', e.message);
          boletoBtn.disabled = false;
        });
    });
  }
}

export const CHECKOUT_JS = `(${checkoutMain.toString()})();\n`;
