import { REQUIRED_QUIRKS, standard, templateOf, validateCallback, validateRequest, validateResponse } from './pix-api-contract';

/** The validator has teeth: the standard's own shapes pass, broken ones fail. */
describe('API Pix contract validator', () => {
  it('accepts a cobr as the standard writes it and refuses a broken one', () => {
    const cobr = {
      idRec: 'RR1234567820240115abcdefghijk',
      infoAdicional: 'Parcela',
      calendario: { dataDeVencimento: '2026-12-10' },
      valor: { original: '99.90' },
      ajusteDiaUtil: true,
      devedor: { cep: '89256140', cidade: 'Guaramirim', email: 'a@b.com', logradouro: 'Rua', uf: 'SC' },
      recebedor: { conta: '123', tipoConta: 'CORRENTE', agencia: '0001' },
    };
    expect(validateRequest('PUT', '/cobr/{txid}', cobr)).toEqual({ valid: true, errors: [] });
    const bad = validateRequest('PUT', '/cobr/{txid}', { ...cobr, valor: { original: 99.9 } });
    expect(bad.valid).toBe(false);
    expect(bad.errors.join()).toMatch(/valor\/original/);
  });

  it("knows each operation's answers; a status the standard does not list is refused", () => {
    expect(validateResponse('GET', '/rec/{idRec}', 418, {}).valid).toBe(false);
    expect(
      validateResponse('PUT', '/cobr/{txid}', 400, {
        type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida',
        title: 'x',
        status: 400,
      }).valid,
    ).toBe(true);
  });

  it('finds templates, literal segments first', () => {
    expect(templateOf('PUT', '/cobr/ABCDEFGHIJKLMNOPQRSTUVWXYZ1')).toBe('/cobr/{txid}');
    expect(templateOf('GET', '/rec')).toBe('/rec');
    expect(templateOf('POST', '/cobr/ABCDEFGHIJKLMNOPQRSTUVWXYZ1/retentativa/2026-12-10')).toBe('/cobr/{txid}/retentativa/{data}');
  });

  it('validates callbacks: recs[] and cobsr[]', () => {
    expect(validateCallback('rec', { recs: 'x' }).valid).toBe(false);
    expect(validateCallback('cobr', { cobsr: 5 }).valid).toBe(false);
  });
});

describe("the file's own inconsistencies, each read as its examples mean it", () => {
  const doc = standard();
  const ex = (name: string) => doc.components.examples[name].value;

  it("the standard's own POST /rec examples validate, and each relaxed `required` is one they lack", () => {
    for (const body of [ex('recBody1'), ex('recBody2')]) expect(validateRequest('POST', '/rec', body)).toEqual({ valid: true, errors: [] });
    expect(doc.components.schemas.RecBase.required).toEqual(expect.arrayContaining(['idRec', 'retentativa']));
    expect(ex('recBody1')).not.toHaveProperty('retentativa');
    expect(doc.components.schemas.PayloadLocationRecGerada.required).toContain('tipo');
    expect(doc.components.schemas.PayloadLocationRecGerada.properties).not.toHaveProperty('tipo');
    expect(ex('recResponse1').loc).not.toHaveProperty('tipo');
    expect(doc.components.schemas.DadosPagadorRec.required).toContain('ispbParticipante');
    expect(doc.components.schemas.DadosPagadorRec.properties).not.toHaveProperty('ispbParticipante');
    expect(Object.keys(REQUIRED_QUIRKS).sort()).toEqual([
      'DadosPagadorRec',
      'PayloadLocationRecGerada',
      'RecBase',
      'SolicRecBase',
      'SolicRecCompleta',
    ]);
    expect(validateRequest('POST', '/solicrec', ex('solicRecBody1'))).toEqual({ valid: true, errors: [] });
    expect(doc.components.schemas.SolicRecBase.required).toContain('pagador');
    expect(ex('solicRecBody1')).not.toHaveProperty('pagador');
  });

  it('still refuses what the standard forbids after the relaxing: a rec answer without status, a request with an unknown periodicity', () => {
    const { status: _s, ...noStatus } = ex('recResponse1');
    expect(validateResponse('GET', '/rec/{idRec}', 200, noStatus).valid).toBe(false);
    expect(
      validateRequest('POST', '/rec', { ...ex('recBody1'), calendario: { dataInicial: '2024-04-01', periodicidade: 'DIARIA' } }).valid,
    ).toBe(false);
  });
});
