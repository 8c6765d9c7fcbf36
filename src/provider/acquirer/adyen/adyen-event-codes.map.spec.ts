import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ADYEN_EVENT_CODES } from '../../../../kernel/common/protocols/adyen';
import { ADYEN_EVENT_MEANINGS, adyenEventMeaning, boletoStatusOf, cardReportOf } from './adyen-event-codes.map';
import { CARD_REPORTS } from '../../../../kernel/common/protocols/acquirer-events';

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
    expect(adyenEventMeaning('CHARGEBACK')).toEqual({ kind: 'dispute', stage: 'CHARGEBACK', attention: true });
    expect(adyenEventMeaning('NOT_A_CODE').kind).toBe('other');
    expect(adyenEventMeaning('toString').kind).toBe('other');
  });

  it('names the events an operator must see, and only those', () => {
    const flagged = Object.entries(ADYEN_EVENT_MEANINGS)
      .filter(([, m]) => m.attention)
      .map(([code]) => code);
    expect(flagged.sort()).toEqual(['CAPTURE_FAILED', 'CHARGEBACK', 'REFUND_FAILED']);
  });

  it("reads a boleto's events as the statuses links apply, only on success", () => {
    expect(boletoStatusOf('AUTHORISATION', true)).toBe('PAID');
    expect(boletoStatusOf('OFFER_CLOSED', true)).toBe('EXPIRED');
    expect(boletoStatusOf('CANCELLATION', true)).toBe('CANCELED');
    expect(boletoStatusOf('AUTHORISATION', false)).toBeNull();
    expect(boletoStatusOf('CAPTURE', true)).toBeNull();
    const withBoleto = Object.entries(ADYEN_EVENT_MEANINGS)
      .filter(([, m]) => m.kind === 'payment' && m.boleto)
      .map(([code]) => code);
    expect(withBoleto.sort()).toEqual(['AUTHORISATION', 'CANCELLATION', 'OFFER_CLOSED']);
  });

  it("turns a card payment's events into the service's words, so no Adyen code crosses the edge", () => {
    expect(cardReportOf('AUTHORISATION', true)).toBe('AUTHORIZED');
    expect(cardReportOf('AUTHORISATION', false)).toBe('REFUSED');
    expect(cardReportOf('CAPTURE', true)).toBe('CAPTURED');
    expect(cardReportOf('CAPTURE_FAILED', true)).toBe('CAPTURE_FAILED'); // Adyen sends the failure with success true
    expect(cardReportOf('CANCELLATION', true)).toBe('VOIDED');
    expect(cardReportOf('CANCELLATION', false)).toBe('VOID_FAILED');
    expect(cardReportOf('TECHNICAL_CANCEL', true)).toBe('VOIDED');
    expect(cardReportOf('AUTHENTICATION', true)).toBeNull();
    expect(cardReportOf('REFUND', true)).toBeNull(); // a refund's, not the payment's
    expect(cardReportOf('NOT_A_CODE', true)).toBeNull();
    for (const m of Object.values(ADYEN_EVENT_MEANINGS))
      if (m.kind === 'payment')
        for (const r of [m.card.success, m.card.failure]) expect(r === null || (CARD_REPORTS as readonly string[]).includes(r)).toBe(true);
  });
});
