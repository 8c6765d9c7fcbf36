import { PixApiRejection } from './pix-api-client';
import { devolucaoOf, refusalOf } from './pix-api-devolucoes';

const invalid = (propriedade: string, razao: string) =>
  new PixApiRejection('putDevolucao', {
    status: 400,
    type: 'https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida',
    title: 'Devolução inválida.',
    violacoes: [{ razao, propriedade }],
  });

describe('API Pix devoluções: the PSP refusals read by the property they name', () => {
  it.each([
    [
      'devolucao.valor',
      'A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.',
      'exceeds_pix',
    ],
    [
      'id',
      'A presente requisição de devolução apresenta um {id} já utilizado por outra requisição de devolução para o {e2eid} em questão.',
      'id_reused',
    ],
    ['e2eid', 'A presente requisição de devolução viola a janela de tempo permitida (90 dias).', 'window_closed'],
    ['devolucao.valor', 'O campo devolucao.valor não respeita o schema.', 'invalid'],
  ])('%s: %s → %s', (propriedade, razao, reason) => {
    const e = refusalOf(invalid(propriedade, razao));
    expect(e.reason).toBe(reason);
    expect(e.detail).toContain('PixDevolucaoInvalida');
  });

  it('a Pix the PSP does not know is pix_not_found', () => {
    expect(refusalOf(new PixApiRejection('putDevolucao', { status: 404, type: 'x/PixNaoEncontrado' })).reason).toBe('pix_not_found');
  });

  it('reads a Devolucao: natureza ORIGINAL by default, the motivo, the times', () => {
    expect(
      devolucaoOf({
        id: 'abc',
        rtrId: 'D99999999202611261200abcdefghijk',
        valor: '10.13',
        horario: { solicitacao: '2026-11-26T12:00:00Z' },
        status: 'NAO_REALIZADO',
        motivo: 'Conta do pagador encerrada',
      }),
    ).toMatchObject({
      amountCents: 1013,
      natureza: 'ORIGINAL',
      status: 'NAO_REALIZADO',
      motivo: 'Conta do pagador encerrada',
      settledAt: null,
    });
    expect(() => devolucaoOf({ id: 'x', valor: '1.00', status: 'OUTRO' })).toThrow(/unknown status/);
  });
});
