import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ADYEN_EVENT_CODES, ADYEN_EVENT_MEANINGS, adyenEventMeaning } from './adyen-event-codes.map';

describe("Adyen's event codes, each with one meaning", () => {
  it('the table is total over the vendored Webhooks-v1.yaml eventCode enum', () => {
    const doc = parse(readFileSync(join(__dirname, '../../../../test/fixtures/adyen/Webhooks-v1.yaml'), 'utf8'));
    const enums = new Set<string>();
    for (const schema of Object.values<any>(doc.components.schemas))
      for (const c of schema?.properties?.eventCode?.enum ?? []) enums.add(c);
    expect(enums.size).toBeGreaterThan(30);
    expect([...ADYEN_EVENT_CODES].sort()).toEqual([...enums].sort());
    expect(Object.keys(ADYEN_EVENT_MEANINGS).sort()).toEqual([...enums].sort());
  });

  it("reads Adyen's refund quirks: REFUND_FAILED and REFUNDED_REVERSED come with success true", () => {
    const of = (code: string, ok: boolean) => {
      const m = adyenEventMeaning(code);
      return m.kind === 'refund' ? m.status(ok) : m.kind;
    };
    expect(of('REFUND', true)).toBe('SUCCEEDED');
    expect(of('REFUND', false)).toBe('FAILED');
    expect(of('REFUND_FAILED', true)).toBe('FAILED');
    expect(of('REFUNDED_REVERSED', true)).toBe('REVERSED');
    expect(of('CAPTURE_FAILED', true)).toBe('payment');
    expect(adyenEventMeaning('CHARGEBACK')).toEqual({ kind: 'dispute', stage: 'CHARGEBACK' });
    expect(adyenEventMeaning('NOT_A_CODE').kind).toBe('other');
    expect(adyenEventMeaning('toString').kind).toBe('other');
  });
});
