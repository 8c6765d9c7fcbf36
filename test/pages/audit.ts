import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Browser, BrowserContext, chromium, Frame, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENS = join(__dirname, '../../test-artifacts/screens');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.1 A and AA rules. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export type Lang = 'pt-BR' | 'en';
export const LANGS: Lang[] = ['pt-BR', 'en'];
export const WIDTHS = [375, 1280] as const;

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
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
}

export interface Audit {
  /** Every axe violation, as `page-state: rule (n nodes)`. */
  violations: string[];
  /** Requests that left our origins. */
  foreign: string[];
  /** CSP reports from the console. */
  csp: string[];
  /** Per audited state: bytes of HTML + JS + CSS the page loaded. */
  weights: Record<string, number>;
  /** The names of the screenshots written, and the axe result per state. */
  log: string[];
}

export function newAudit(): Audit {
  mkdirSync(SCREENS, { recursive: true });
  return { violations: [], foreign: [], csp: [], weights: {}, log: [] };
}

/**
 * A context in a language and a width: `Accept-Language` follows `locale`. It records what
 * every page loads (to weigh it and to catch another origin) and the console's CSP reports.
 */
export async function context(browser: Browser, audit: Audit, lang: Lang, width: number, origins: string[]): Promise<BrowserContext> {
  const ctx = await browser.newContext({
    locale: lang,
    viewport: { width, height: width < 600 ? 740 : 900 },
    permissions: ['clipboard-read', 'clipboard-write'],
    timezoneId: 'America/Sao_Paulo',
  });
  ctx.on('request', (r) => {
    const u = r.url();
    if (u.startsWith('data:') || u.startsWith('about:') || u.startsWith('blob:')) return;
    if (!origins.includes(new URL(u).origin)) audit.foreign.push(u);
  });
  ctx.on('page', (p) => watch(p, audit));
  return ctx;
}

const loaded = new WeakMap<Page, Map<string, number>>();
function watch(page: Page, audit: Audit): void {
  const sizes = new Map<string, number>();
  loaded.set(page, sizes);
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) audit.csp.push(m.text());
  });
  page.on('response', async (r) => {
    const type = r.request().resourceType();
    if (type !== 'document' && type !== 'script' && type !== 'stylesheet') return;
    try {
      sizes.set(r.url(), (await r.body()).length);
    } catch {
      /* a redirect or a frame gone: no body */
    }
  });
}

/**
 * A full-page screenshot (an artifact for people, not an assertion). Chromium on a loaded machine
 * now and then answers `Page.captureScreenshot` with "Unable to capture screenshot" when no frame
 * is ready: the page is brought to the front and asked again, twice at most.
 */
async function screenshot(page: Page, path: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.screenshot({ path, fullPage: true });
      return;
    } catch (e) {
      if (attempt >= 3 || !/Unable to capture screenshot/.test(String((e as Error).message))) throw e;
      await page.bringToFront();
      await new Promise((r) => setTimeout(r, 250 * attempt));
    }
  }
}

/**
 * Writes `{name}.png`, runs axe (WCAG 2.1 A/AA) in the page, or in `frame` (our page framed by
 * a merchant's), and weighs the page.
 */
export async function check(page: Page, audit: Audit, name: string, frame?: Frame): Promise<void> {
  await page.waitForLoadState('load');
  await screenshot(page, join(SCREENS, `${name}.png`));
  const target: Page | Frame = frame ?? page;
  // evaluate() runs through the DevTools protocol: the page's CSP still forbids inline code. axe is
  // put in a document once: a page checked in several states keeps it.
  if (await target.evaluate(`typeof axe === 'undefined'`)) await target.evaluate(AXE);
  const result: any = await target.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(AXE_TAGS)} }, resultTypes: ['violations'] })`,
  );
  for (const v of result.violations)
    audit.violations.push(`${name}: ${v.id} (${v.nodes.length}) ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`);
  const weight = [...(loaded.get(page)?.values() ?? [])].reduce((a, b) => a + b, 0);
  audit.weights[name] = weight;
  audit.log.push(`${name}.png · axe ${result.violations.length} violations · ${weight} B`);
}

/** Presses Tab until the element matching `selector` (in `frame` when given) has the focus (keyboard only). */
export async function tabTo(page: Page, selector: string, max = 40, frame?: Frame): Promise<void> {
  const where: Page | Frame = frame ?? page;
  for (let i = 0; i < max; i++) {
    if (await where.evaluate((s) => document.hasFocus() && !!document.activeElement && document.activeElement.matches(s), selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Tabs to a field and types into it. */
export async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await tabTo(page, selector);
  await page.keyboard.type(text);
}

export function writeReport(audit: Audit, file: string): void {
  mkdirSync(SCREENS, { recursive: true });
  writeFileSync(join(SCREENS, file), [...audit.log, '', ...audit.violations].join('\n') + '\n');
}
