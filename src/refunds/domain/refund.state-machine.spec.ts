import { expectExhaustiveMatrix } from '../../../test/support/state-machine-matrix';
import { holdsAmount, REFUND_MACHINE, sourcesOf } from './refund.state-machine';

describe('refund state machine', () => {
  it('over every (state, trigger) pair', () => {
    expectExhaustiveMatrix(REFUND_MACHINE, {
      'PENDING succeeded': 'SUCCEEDED',
      'PENDING failed': 'FAILED',
      'PENDING reversed': 'REVERSED',
      'SUCCEEDED failed': 'FAILED',
      'SUCCEEDED reversed': 'REVERSED',
    });
  });

  it('gives the conditional UPDATE its sources, and holds the amount only while pending or done', () => {
    expect(sourcesOf('failed').sort()).toEqual(['PENDING', 'SUCCEEDED']);
    expect(sourcesOf('reversed').sort()).toEqual(['PENDING', 'SUCCEEDED']);
    expect(['PENDING', 'SUCCEEDED', 'FAILED', 'REVERSED'].filter((s) => holdsAmount(s as never))).toEqual(['PENDING', 'SUCCEEDED']);
  });
});
