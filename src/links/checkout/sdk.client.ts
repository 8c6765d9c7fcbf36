/**
 * `/sdk/checkout.js`: `ServiceCheckout.open({ slug, onSuccess, onClose, closeOnSuccess, lang })`
 * opens the hosted checkout in an overlay iframe: a modal dialog (`role="dialog"`,
 * `aria-modal`), the rest of the page inert while it is open (the focus stays inside), Escape
 * closes it, and it closes itself `closeOnSuccess` ms after a confirmed payment (default 2500;
 * `false` keeps it open). On close the focus returns where it was. Messages are accepted only from the service's origin (the
 * origin this script was loaded from) and only from that iframe; `onSuccess` fires once with
 * `{ status, amount, method }`. Served as `sdkMain.toString()`: self-contained.
 */
export function sdkMain(): void {
  const w = window as any;
  if (w.ServiceCheckout) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const origin = script && script.src ? new URL(script.src).origin : location.origin;
  let current: { close: () => void } | null = null;

  w.ServiceCheckout = {
    origin,
    open(opts: {
      slug: string;
      onSuccess?: (r: { status: string; amount: number; method: string }) => void;
      onClose?: () => void;
      closeOnSuccess?: number | boolean;
      lang?: string;
    }) {
      if (!opts || typeof opts.slug !== 'string' || !/^[A-Za-z0-9]{6,32}$/.test(opts.slug))
        throw new Error('ServiceCheckout.open: a valid slug is required');
      if (current) current.close();
      const overlay = document.createElement('div');
      overlay.setAttribute('data-service-checkout', '');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', 'Checkout');
      const returnFocus = document.activeElement as HTMLElement | null;
      const inerted: Element[] = [];
      Array.from(document.body.children).forEach((el) => {
        if (!el.hasAttribute('inert')) {
          el.setAttribute('inert', '');
          inerted.push(el);
        }
      });
      overlay.style.cssText =
        'position:fixed;inset:0;background:rgba(15,23,42,.55);z-index:2147483647;display:flex;align-items:center;justify-content:center';
      const frame = document.createElement('iframe');
      frame.title = 'Checkout';
      const lang = opts.lang && /^[A-Za-z-]{2,10}$/.test(opts.lang) ? '&lang=' + encodeURIComponent(opts.lang) : '';
      frame.src =
        origin + '/checkout/' + encodeURIComponent(opts.slug) + '?embed=1&parentOrigin=' + encodeURIComponent(location.origin) + lang;
      frame.style.cssText = 'width:min(520px,100vw);height:min(760px,100vh);border:0;border-radius:14px;background:#fff';
      frame.setAttribute('allow', 'clipboard-write');
      overlay.appendChild(frame);
      let succeeded = false;
      let closed = false;
      const onMessage = (e: MessageEvent) => {
        if (e.origin !== origin || e.source !== frame.contentWindow) return;
        const d: any = e.data;
        if (!d || typeof d !== 'object') return;
        if (d.type === 'service-checkout:success' && !succeeded) {
          succeeded = true;
          if (opts.onSuccess) opts.onSuccess({ status: String(d.status), amount: Number(d.amount), method: String(d.method) });
          const after =
            opts.closeOnSuccess === undefined || opts.closeOnSuccess === true
              ? 2500
              : opts.closeOnSuccess === false
                ? -1
                : Number(opts.closeOnSuccess);
          if (after >= 0) setTimeout(() => handle.close(), after);
        } else if (d.type === 'service-checkout:close') {
          handle.close();
        }
      };
      const handle = {
        close() {
          if (closed) return;
          closed = true;
          window.removeEventListener('message', onMessage);
          document.removeEventListener('keydown', onKey, true);
          inerted.forEach((el) => el.removeAttribute('inert'));
          overlay.remove();
          if (returnFocus && typeof returnFocus.focus === 'function') returnFocus.focus();
          if (current === handle) current = null;
          if (opts.onClose) opts.onClose();
        },
      };
      overlay.addEventListener('click', (e) => {
        if (e.target === overlay) handle.close();
      });
      const onKey = (e: KeyboardEvent) => {
        if (e.key === 'Escape') handle.close();
      };
      window.addEventListener('message', onMessage);
      document.addEventListener('keydown', onKey, true);
      document.body.appendChild(overlay);
      frame.focus();
      current = handle;
      return handle;
    },
  };
}

export const SDK_JS = `(${sdkMain.toString()})();\n`;
