/**
 * `/sdk/checkout.js`: `ServiceCheckout.open({ slug, onSuccess, onClose })` opens the hosted
 * checkout in an overlay iframe. Messages are accepted only from the service's origin (the
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
    open(opts: { slug: string; onSuccess?: (r: { status: string; amount: number; method: string }) => void; onClose?: () => void }) {
      if (!opts || typeof opts.slug !== 'string' || !/^[A-Za-z0-9]{6,32}$/.test(opts.slug)) throw new Error('ServiceCheckout.open: a valid slug is required');
      if (current) current.close();
      const overlay = document.createElement('div');
      overlay.setAttribute('data-service-checkout', '');
      overlay.style.cssText = 'position:fixed;inset:0;background:rgba(15,23,42,.55);z-index:2147483647;display:flex;align-items:center;justify-content:center';
      const frame = document.createElement('iframe');
      frame.title = 'Checkout';
      frame.src = origin + '/checkout/' + encodeURIComponent(opts.slug) + '?embed=1&parentOrigin=' + encodeURIComponent(location.origin);
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
        } else if (d.type === 'service-checkout:close') {
          handle.close();
        }
      };
      const handle = {
        close() {
          if (closed) return;
          closed = true;
          window.removeEventListener('message', onMessage);
          overlay.remove();
          if (current === handle) current = null;
          if (opts.onClose) opts.onClose();
        },
      };
      overlay.addEventListener('click', (e) => {
        if (e.target === overlay) handle.close();
      });
      window.addEventListener('message', onMessage);
      document.body.appendChild(overlay);
      current = handle;
      return handle;
    },
  };
}

export const SDK_JS = `(${sdkMain.toString()})();\n`;
