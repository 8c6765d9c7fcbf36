import { refundStepStatus, SANDBOX_REFUND_AMOUNTS, sandboxRefundSteps } from './sandbox-refunds';

describe('sandbox refund amounts', () => {
  it('decides by the last two cent digits; any other amount succeeds', () => {
    expect(sandboxRefundSteps(1013)).toEqual(['FAILED:refund_declined']);
    expect(sandboxRefundSteps(13)).toEqual(['FAILED:refund_declined']);
    expect(sandboxRefundSteps(99_914)).toEqual(['SUCCEEDED', 'FAILED:refund_failed_at_scheme']);
    expect(sandboxRefundSteps(2015)).toEqual(['SUCCEEDED', 'REVERSED']);
    for (const n of [1, 100, 1012, 1016, 1116, 5000]) expect(sandboxRefundSteps(n)).toEqual(['SUCCEEDED']);
  });

  it('every step of the table reads as a status and a reason', () => {
    for (const a of SANDBOX_REFUND_AMOUNTS)
      for (const s of a.steps) expect(['SUCCEEDED', 'FAILED', 'REVERSED']).toContain(refundStepStatus(s).status);
    expect(refundStepStatus('FAILED:refund_declined')).toEqual({ status: 'FAILED', reason: 'refund_declined' });
    expect(refundStepStatus('REVERSED')).toEqual({ status: 'REVERSED' });
  });
});
