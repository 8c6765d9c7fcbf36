import { holdsAmount, sourcesOf } from './refund.state-machine';

describe('refund state machine', () => {
  // its exhaustive (state, trigger) matrix is in test/platform/state-machines.spec.ts, with every other machine's
  it('gives the conditional UPDATE its sources, and holds the amount only while pending or done', () => {
    expect(sourcesOf('failed').sort()).toEqual(['PENDING', 'SUCCEEDED']);
    expect(sourcesOf('reversed').sort()).toEqual(['PENDING', 'SUCCEEDED']);
    expect(['PENDING', 'SUCCEEDED', 'FAILED', 'REVERSED'].filter((s) => holdsAmount(s as never))).toEqual(['PENDING', 'SUCCEEDED']);
  });
});
