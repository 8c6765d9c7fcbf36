import { saoPauloDate } from './clock';

const reference = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });

describe('saoPauloDate', () => {
  it('turns at midnight in São Paulo (03:00 UTC), not at midnight UTC', () => {
    expect(saoPauloDate(new Date('2026-11-21T02:59:59.999Z'))).toBe('2026-11-20');
    expect(saoPauloDate(new Date('2026-11-21T03:00:00.000Z'))).toBe('2026-11-21');
    expect(saoPauloDate(new Date('2026-11-21T00:30:00.000Z'))).toBe('2026-11-20');
  });

  it('follows the old daylight-saving changes (2018: -03:00 → -02:00 on 4 Nov)', () => {
    expect(saoPauloDate(new Date('2018-11-04T02:59:59Z'))).toBe('2018-11-03');
    expect(saoPauloDate(new Date('2018-11-04T03:00:00Z'))).toBe('2018-11-04');
    expect(saoPauloDate(new Date('2019-02-17T01:59:59Z'))).toBe('2019-02-16');
    expect(saoPauloDate(new Date('2019-02-17T02:00:00Z'))).toBe('2019-02-16');
  });

  it('answers what Intl answers for any instant, asked again and again (the per-hour memo)', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const from = Date.parse('2015-01-01T00:00:00Z');
    const span = Date.parse('2030-01-01T00:00:00Z') - from;
    for (let i = 0; i < 20_000; i++) {
      const d = new Date(from + Math.floor(rnd() * span));
      expect(saoPauloDate(d)).toBe(reference.format(d));
      // a second instant in the same UTC hour, from the memo
      const same = new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000 + Math.floor(rnd() * 3_600_000));
      expect(saoPauloDate(same)).toBe(reference.format(same));
    }
  });
});
