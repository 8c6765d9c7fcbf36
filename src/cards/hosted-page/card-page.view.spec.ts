import { i18n } from '../../../kernel/common/i18n';
import { cardPageHeaders, jsonForScript, renderCardPage } from './card-page.view';

describe('hosted card page view', () => {
  it('keeps script-breaking characters out of the inline JSON', () => {
    const json = jsonForScript({ x: '</script><script>alert(1)</script>&\u2028' });
    expect(json).not.toMatch(/<|>|&|\u2028/);
    expect(JSON.parse(json)).toEqual({ x: '</script><script>alert(1)</script>&\u2028' });
  });

  it('has a strict CSP with no inline script, and frame-ancestors per tenant', () => {
    const none = cardPageHeaders({ frameAncestors: [] });
    expect(none['content-security-policy']).toContain("script-src 'self';");
    expect(none['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(none['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(none['x-frame-options']).toBe('DENY');
    expect(none['cache-control']).toBe('no-store');
    const some = cardPageHeaders({ frameAncestors: ['https://shop.example.com'] });
    expect(some['content-security-policy']).toContain('frame-ancestors https://shop.example.com');
    expect(some['x-frame-options']).toBeUndefined();
  });

  it('renders no inline script other than the JSON configuration', () => {
    const html = renderCardPage(
      {
        state: 'ready',
        status: 200,
        sessionId: 'hcs_x',
        pageKey: 'k',
        requestId: 'r',
        parentOrigin: null,
        frameAncestors: [],
        today: '2026-11-20',
      },
      i18n('pt-BR'),
    );
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain('Dados do cartão');
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toEqual(['<script type="application/json" id="card-page-config">', '<script src="assets/card-page.js" defer>']);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });
});
