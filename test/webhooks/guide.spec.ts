import { OPEN_SEALED_BODY_SNIPPET, VERIFY_SIGNATURE_SNIPPET } from '../../src/webhooks/domain/receiver-examples';
import { guideJsBlocks, guideOpener, guideVerifier } from './guide-snippets';

describe('docs/guide/webhooks.md', () => {
  it('prints both receiver snippets verbatim', () => {
    const blocks = guideJsBlocks();
    expect(blocks).toContain(VERIFY_SIGNATURE_SNIPPET);
    expect(blocks).toContain(OPEN_SEALED_BODY_SNIPPET);
  });

  it('its snippets load as written', () => {
    expect(typeof guideVerifier()).toBe('function');
    expect(typeof guideOpener()).toBe('function');
  });
});
