import { i18n } from '../../../kernel/common/i18n';
import { installmentLabel } from './pages';
import { bankCodeWithDv, formatTaxId, lineGroups } from './slip-pages';

describe('payer page figures', () => {
  it('installments add up: the uneven first one is shown', () => {
    expect(installmentLabel(i18n('pt-BR'), [2998, 2996, 2996], 8990)).toBe('1x de R$ 29,98 + 2x de R$ 29,96 (total R$ 89,90)');
    expect(installmentLabel(i18n('pt-BR'), [4495, 4495], 8990)).toBe('2x de R$ 44,95 (total R$ 89,90)');
    expect(installmentLabel(i18n('en'), [8990], 8990)).toBe('1x R$89.90');
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
