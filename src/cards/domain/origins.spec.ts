import { frameAncestorsDirective, normalizeOrigin } from './origins';

describe('normalizeOrigin', () => {
  it.each([
    ['https://shop.example.com', 'https://shop.example.com'],
    ['https://Shop.Example.com/', 'https://shop.example.com'],
    ['https://shop.example.com:8443', 'https://shop.example.com:8443'],
    ['https://shop.example.com:443', 'https://shop.example.com'],
    ['http://localhost:5173', 'http://localhost:5173'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
  ])('accepts %s as %s', (input, origin) => {
    expect(normalizeOrigin(input)).toBe(origin);
  });

  it.each([
    'http://shop.example.com',
    'https://shop.example.com/checkout',
    'https://shop.example.com?x=1',
    'https://user:pass@shop.example.com',
    'https://*.example.com',
    '*',
    "'self'",
    'javascript:alert(1)',
    'https://shop.example.com; script-src *',
    '',
    42,
  ])('refuses %p', (input) => {
    expect(normalizeOrigin(input)).toBeNull();
  });

  it('renders frame-ancestors, none when empty', () => {
    expect(frameAncestorsDirective([])).toBe("frame-ancestors 'none'");
    expect(frameAncestorsDirective(['https://a.example', 'http://localhost:3000'])).toBe(
      'frame-ancestors https://a.example http://localhost:3000',
    );
  });
});
