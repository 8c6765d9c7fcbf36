import { EN } from './en';
import { fill, i18n, negotiateLocale } from './index';
import { PT_BR } from './pt-BR';

describe('payer page language', () => {
  it('defaults to pt-BR, follows Accept-Language by q, and an explicit ?lang= wins', () => {
    expect(negotiateLocale(undefined)).toBe('pt-BR');
    expect(negotiateLocale('*')).toBe('pt-BR');
    expect(negotiateLocale('fr-FR,fr;q=0.9')).toBe('pt-BR');
    expect(negotiateLocale('en-US,en;q=0.9')).toBe('en');
    expect(negotiateLocale('en;q=0.5, pt-BR;q=0.8')).toBe('pt-BR');
    expect(negotiateLocale('fr, en-GB;q=0.7, pt;q=0.6')).toBe('en');
    expect(negotiateLocale('en;q=0, pt;q=0.1')).toBe('pt-BR');
    expect(negotiateLocale('pt-BR', 'en')).toBe('en');
    expect(negotiateLocale('en', 'pt')).toBe('pt-BR');
    expect(negotiateLocale('en', 'xx')).toBe('en');
  });

  it('has the same keys and the same {placeholders} in both catalogues', () => {
    expect(Object.keys(EN).sort()).toEqual(Object.keys(PT_BR).sort());
    const vars = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const k of Object.keys(PT_BR) as (keyof typeof PT_BR)[]) expect([k, vars(EN[k])]).toEqual([k, vars(PT_BR[k])]);
  });

  it('formats money, days and São Paulo times per language', () => {
    const pt = i18n('pt-BR');
    const en = i18n('en');
    expect(pt.brl(123456)).toBe('R$ 1.234,56');
    expect(pt.brl(9990)).toBe('R$ 99,90');
    expect(en.brl(123456)).toBe('R$1,234.56');
    expect(pt.date('2026-12-14')).toBe('14/12/2026');
    expect(en.date('2026-12-14')).toBe('14/12/2026');
    // 03:31 UTC is 00:31 in São Paulo (UTC-3), the day before in neither case here
    expect(pt.dateTime('2026-12-11T03:31:18.631Z')).toMatch(/^11\/12\/2026,? 00:31/);
    expect(pt.dateTime('2026-12-11T02:59:00Z')).toMatch(/^10\/12\/2026,? 23:59/);
  });

  it('says a status in words, never the code', () => {
    expect(i18n('pt-BR').status('CARD', 'ACCEPTED')).toBe('Pago com cartão');
    expect(i18n('pt-BR').status('PIX', 'PENDING')).toBe('Aguardando pagamento');
    expect(i18n('en').status('BOLETO', 'PAID')).toBe('Paid by boleto');
    expect(i18n('pt-BR').status('CARD', 'SOMETHING_NEW')).toBe('Em processamento');
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fill('{a} e {b}', { a: 1 })).toBe('1 e {b}');
  });
});
