import { boletoDueDate } from './boleto-due-date';

describe('boletoDueDate', () => {
  it('counts business days from the day after issue, skipping weekends and national bank holidays', () => {
    expect(boletoDueDate('2026-11-26', 3, null)).toBe('2026-12-01'); // Thursday → Tuesday
    expect(boletoDueDate('2026-11-27', 3, null)).toBe('2026-12-02'); // Friday → Wednesday
    expect(boletoDueDate('2026-12-24', 3, null)).toBe('2026-12-30'); // Christmas and the weekend skipped
    expect(boletoDueDate('2027-02-05', 3, null)).toBe('2027-02-12'); // Carnival Monday and Tuesday skipped (Ash Wednesday counts)
    expect(boletoDueDate('2026-11-28', 0, null)).toBe('2026-11-30'); // 0 on a Saturday: the next business day
    expect(boletoDueDate('2026-11-26', 1, null)).toBe('2026-11-27');
  });

  it("never falls after the link's expiry: the last business day on or before it, else the expiry date", () => {
    expect(boletoDueDate('2026-11-27', 3, '2026-12-10')).toBe('2026-12-02');
    expect(boletoDueDate('2026-11-25', 3, '2026-11-29')).toBe('2026-11-27'); // expiry on a Sunday → Friday
    expect(boletoDueDate('2026-11-28', 3, '2026-11-29')).toBe('2026-11-29'); // no business day left before it
  });
});
