import { i18n } from '../../../kernel/common/i18n';
import { FeeSimulation } from '../domain/fees';
import { installmentLabel } from './pages';
import { bankCodeWithDv, formatTaxId, lineGroups } from './slip-pages';

describe('payer page figures', () => {
  it('installments: a short text for the select, every installment in full, with or without interest', () => {
    const pt = i18n('pt-BR');
    const o = (installmentCents: number[], grossCents: number, passFee = false) =>
      installmentLabel(pt, { installmentCents, grossCents, passFee } as FeeSimulation);
    expect(o([2998, 2996, 2996], 8990)).toEqual({
      short: '3x de R$ 29,96 sem juros',
      full: '3x de R$ 29,96 sem juros, 1ª parcela de R$ 29,98, total R$ 89,90.',
    });
    expect(o([5181, 5181, 5181], 15543)).toEqual({
      short: '3x de R$ 51,81 sem juros',
      full: '3x de R$ 51,81 sem juros, total R$ 155,43.',
    });
    expect(o([5310, 5310, 5310], 15930, true)).toEqual({
      short: '3x de R$ 53,10 (total R$ 159,30)',
      full: '3x de R$ 53,10 (total R$ 159,30), com juros.',
    });
    expect(o([123456], 123456, true)).toEqual({ short: '1x de R$ 1.234,56', full: '1x de R$ 1.234,56, taxa do cartão incluída.' });
    expect(installmentLabel(i18n('en'), { installmentCents: [8990], grossCents: 8990, passFee: false } as FeeSimulation).short).toBe(
      '1x R$89.90 interest-free',
    );
  });

  it('prints the bank code with its check digit as boletos do', () => {
    expect(['237', '341', '001', '104', '033'].map(bankCodeWithDv)).toEqual(['237-2', '341-7', '001-9', '104-0', '033-7']);
  });

  it('formats a CNPJ/CPF and keeps each printed group of the line whole', () => {
    expect(formatTaxId('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatTaxId('52998224725')).toBe('529.982.247-25');
    expect(lineGroups('23791.23405 90000.000001 1 16430000025000')).toBe(
      '<span class="grp">23791.23405</span> <span class="grp">90000.000001</span> <span class="grp">1</span> <span class="grp">16430000025000</span>',
    );
  });
});
