import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserContext, chromium, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Browser tests run only where Chromium is installed; elsewhere they are skipped with a message. */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  console.warn(`${CHROMIUM} is not installed: the hosted card page and 3DS browser tests are SKIPPED`);
  return false;
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const dir = mkdtempSync(join(tmpdir(), 'pp-chromium-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    locale: 'pt-BR',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The merchant's web page, on its own origin: frames a URL (`/host?src=…`) in `#frame`, and a
 * second one in the hidden `#ddc`, and records every message it receives in `window.messages`.
 */
const HOST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>
<h1>Shop checkout</h1>
<iframe id="frame" width="480" height="640"></iframe>
<iframe id="ddc" width="1" height="1" style="display:none"></iframe>
<script>
window.messages = [];
window.addEventListener('message', function (e) { window.messages.push({ origin: e.origin, data: e.data }); });
window.frameUrl = function (id, src) { document.getElementById(id).src = src; };
var src = new URLSearchParams(location.search).get('src');
if (src) window.frameUrl('frame', src);
</script></body></html>`;

export interface HostSite {
  /** http://127.0.0.1:port */
  origin: string;
  /** The same server as another origin (http://localhost:port): a foreign site. */
  foreignOrigin: string;
  close(): Promise<void>;
}

export async function startHostSite(): Promise<HostSite> {
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/host') || req.url?.startsWith('/3ds-done')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HOST_PAGE);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    foreignOrigin: `http://localhost:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Received {
  origin: string;
  data: any;
}

/** Waits for a message matching `pred` on the host page; answers it. */
export async function waitForMessage(page: Page, pred: string, timeoutMs = 15000): Promise<Received> {
  const handle = await page.waitForFunction(`window.messages.find(function (m) { var data = m.data; return ${pred}; })`, null, {
    timeout: timeoutMs,
  });
  return (await handle.jsonValue()) as Received;
}

export function messages(page: Page): Promise<Received[]> {
  return page.evaluate('window.messages') as Promise<Received[]>;
}

/** Types a card into the hosted card page framed in `#frame` and submits it. */
export async function typeCard(page: Page, card: { number: string; expiry: string; cvv: string; nickname?: string }): Promise<void> {
  const f = page.frameLocator('#frame');
  await f.locator('#card-number').fill(card.number);
  await f.locator('#card-expiry').fill(card.expiry);
  await f.locator('#card-cvv').fill(card.cvv);
  if (card.nickname !== undefined) await f.locator('#card-nickname').fill(card.nickname);
  await f.locator('#card-submit').click();
}
