import { existsSync } from 'node:fs';
import { Browser } from 'playwright-core';
import { startTestApp, TestApp } from '../support/test-app';
import { Audit, check, CHROMIUM, context, launch, newAudit, WIDTHS, writeReport } from './audit';

const suite = existsSync(CHROMIUM) ? describe : describe.skip;

/** Swagger UI at /docs on a phone and a desktop: tenant tags first, the operator's last, no sideways scroll. */
suite('Swagger UI in Chromium', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let browser: Browser;
  const audit: Audit = newAudit();

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launch()]);
  });
  afterAll(async () => {
    writeReport(audit, 'swagger.txt');
    await browser?.close();
    await t?.close();
  });

  for (const width of WIDTHS) {
    it(`at ${width} px: readable, tenant tags first and admin last, nothing from another origin`, async () => {
      const ctx = await context(browser, audit, 'en', width, [t.url]);
      const page = await ctx.newPage();
      await page.goto(`${t.url}/docs`);
      await page.waitForSelector('.opblock-tag');
      const tags = await page.$$eval('.opblock-tag', (els) => els.map((e) => e.getAttribute('data-tag')));
      expect(tags[0]).toBe('credentials');
      expect(tags[tags.length - 1]).toBe('admin');
      // open one operation: its path and parameters stay within the screen
      await page.click('.opblock-tag[data-tag="payment links"]');
      await page.waitForSelector('.opblock');
      await page.click('.opblock .opblock-summary');
      await page.waitForSelector('.opblock-body');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await check(page, audit, `swagger-ui-${width}`);
      expect(audit.weights[`swagger-ui-${width}`]).toBeGreaterThan(0);
      await ctx.close();
    });
  }

  it("loaded nothing from another origin; axe finds only the two rules Swagger UI's own markup breaks", () => {
    expect(audit.foreign).toEqual([]);
    // an operation summary is a button holding a button, and the servers select has no label: both Swagger UI's markup
    const rules = new Set(audit.violations.map((v) => v.split(' ')[1]));
    expect([...rules].filter((r) => r !== 'nested-interactive' && r !== 'select-name')).toEqual([]);
  });
});
