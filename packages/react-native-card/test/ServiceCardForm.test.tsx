import { HOSTED_ORIGIN, HOSTED_URL, RESULT, renderForm, webViewRenderCount } from './helpers';
import { resetWebViewDouble } from './doubles/react-native-webview';

beforeEach(() => resetWebViewDouble());

describe('configuration_error', () => {
  it('is reported once on mount for an http:// URL, and no web view is rendered', () => {
    const h = renderForm({ hostedCardUrl: 'http://cards.example.com/hosted/sess_123' });
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError).toHaveBeenCalledWith({
      code: 'configuration_error',
      message: expect.stringContaining('HTTPS'),
      retryable: false,
    });
    expect(webViewRenderCount()).toBe(0);
    expect(h.renderer.toJSON()).toBeNull();

    h.rerender(); // same invalid configuration, new render
    h.rerender({ onError: h.onError });
    expect(h.onError).toHaveBeenCalledTimes(1);
  });

  it('is reported for an empty allowedOrigins, and no web view is rendered', () => {
    const h = renderForm({ allowedOrigins: [] });
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError.mock.calls[0][0]).toMatchObject({ code: 'configuration_error' });
    expect(h.onError.mock.calls[0][0].message).toMatch(/allowedOrigins/);
    expect(webViewRenderCount()).toBe(0);
  });

  it.each([
    ['an http origin', ['http://cards.example.com']],
    ['an http origin next to a valid one', [HOSTED_ORIGIN, 'http://acs.bank.example']],
    ['a wildcard', ['https://*.example.com']],
    ['a path', ['https://cards.example.com/hosted']],
    ['a non-string entry', [HOSTED_ORIGIN, 42 as unknown as string]],
    ['a list without the hosted page origin', ['https://other.example.com']],
  ])('is reported when allowedOrigins contains %s', (_label, allowedOrigins) => {
    const h = renderForm({ allowedOrigins });
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError.mock.calls[0][0].code).toBe('configuration_error');
    expect(webViewRenderCount()).toBe(0);
  });

  it.each([
    [''],
    ['not a url'],
    ['cards.example.com/hosted'],
    ['https://'],
    ['https:///path'],
    ['https://user:secret@cards.example.com/hosted'],
    ['https://cards.example.com:99999/'],
    ['https://cards example.com/'],
    ['javascript:alert(1)'],
    ['file:///data/card.html'],
    ['ftp://cards.example.com/'],
    [undefined as unknown as string],
  ])('is reported for hostedCardUrl %p', (hostedCardUrl) => {
    const h = renderForm({ hostedCardUrl });
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError.mock.calls[0][0].code).toBe('configuration_error');
    expect(webViewRenderCount()).toBe(0);
  });

  it('does not put the session URL in the error message', () => {
    const h = renderForm({ hostedCardUrl: 'http://cards.example.com/hosted/sess_secret' });
    expect(h.onError.mock.calls[0][0].message).not.toContain('sess_secret');
  });

  it('renders the web view once the configuration is fixed', () => {
    const h = renderForm({ hostedCardUrl: 'http://cards.example.com/x' });
    expect(webViewRenderCount()).toBe(0);
    h.rerender({ hostedCardUrl: HOSTED_URL });
    expect(h.props().source).toEqual({ uri: HOSTED_URL });
    expect(h.onError).toHaveBeenCalledTimes(1);
  });
});

describe('web view', () => {
  it('loads hostedCardUrl and defaults allowedOrigins to its origin', () => {
    const h = renderForm();
    expect(h.onError).not.toHaveBeenCalled();
    expect(h.props().source).toEqual({ uri: HOSTED_URL });
    expect(h.shouldStart(HOSTED_URL)).toBe(true);
    expect(h.shouldStart('https://other.example.com/')).toBe(false);
  });

  it('normalises the default origin (case, default port)', () => {
    const h = renderForm({ hostedCardUrl: 'HTTPS://Cards.Example.COM:443/hosted/s' });
    expect(h.shouldStart('https://cards.example.com/next')).toBe(true);
  });

  it('uses the given allowedOrigins, normalised and de-duplicated', () => {
    const h = renderForm({
      allowedOrigins: ['https://cards.example.com/', 'https://ACS.bank.example:8443', HOSTED_ORIGIN],
    });
    expect(h.shouldStart('https://acs.bank.example:8443/x')).toBe(true);
  });

  it('is hardened by default', () => {
    const h = renderForm();
    expect(h.props()).toMatchObject({
      javaScriptEnabled: true,
      domStorageEnabled: true,
      cacheEnabled: false,
      cacheMode: 'LOAD_NO_CACHE',
      incognito: true,
      allowFileAccess: false,
      allowFileAccessFromFileURLs: false,
      allowUniversalAccessFromFileURLs: false,
      setSupportMultipleWindows: false,
      javaScriptCanOpenWindowsAutomatically: false,
      mixedContentMode: 'never',
      sharedCookiesEnabled: false,
      thirdPartyCookiesEnabled: false,
      textInteractionEnabled: true,
      saveFormDataDisabled: true,
      geolocationEnabled: false,
      allowsLinkPreview: false,
      webviewDebuggingEnabled: false,
      originWhitelist: ['*'],
    });
    expect(typeof h.props().onShouldStartLoadWithRequest).toBe('function');
    expect(typeof h.props().onMessage).toBe('function');
    expect(typeof h.props().onHttpError).toBe('function');
    expect(typeof h.props().onError).toBe('function');
  });

  it('passes style and testID to the web view', () => {
    const style = { flex: 1, height: 420 };
    const h = renderForm({ style, testID: 'card-form' });
    expect(h.props().style).toBe(style);
    expect(h.props().testID).toBe('card-form');
    expect(h.renderer.root.findByType('RNCWebView' as never).props.testID).toBe('card-form');
  });
});

describe('navigation allow-list', () => {
  it.each([[HOSTED_URL], ['https://cards.example.com/hosted/sess_123/step-2'], ['https://CARDS.example.com:443/other'], ['about:blank']])(
    'allows %s',
    (url) => {
      expect(renderForm().shouldStart(url)).toBe(true);
    },
  );

  it.each([
    ['http://cards.example.com/hosted/sess_123'],
    ['https://evil.example.net/phish'],
    ['https://cards.example.com.evil.net/'],
    ['https://cards.example.com:8443/'],
    ['https://cards.example.com@evil.net/'],
    ['https://evil.net\\@cards.example.com/'],
    ['javascript:alert(document.cookie)'],
    ['file:///etc/passwd'],
    ['data:text/html,<script>alert(1)</script>'],
    ['intent://scan/#Intent;scheme=zxing;end'],
    ['about:srcdoc'],
    [''],
  ])('blocks %p', (url) => {
    expect(renderForm().shouldStart(url)).toBe(false);
  });

  it('allows every origin of allowedOrigins and nothing else', () => {
    const h = renderForm({ allowedOrigins: [HOSTED_ORIGIN, 'https://acs.bank.example'] });
    expect(h.shouldStart('https://acs.bank.example/challenge')).toBe(true);
    expect(h.shouldStart('http://acs.bank.example/challenge')).toBe(false);
    expect(h.shouldStart('https://bank.example/')).toBe(false);
  });
});

describe('messages from the hosted page', () => {
  it('calls onReady with the requestId', () => {
    const h = renderForm();
    h.post({ type: 'ready', requestId: 'req-ready-1' });
    expect(h.onReady).toHaveBeenCalledTimes(1);
    expect(h.onReady).toHaveBeenCalledWith('req-ready-1');
    expect(h.onError).not.toHaveBeenCalled();
  });

  it('calls onReady without a requestId, and accepts "v": 1', () => {
    const h = renderForm();
    h.post({ v: 1, type: 'ready' });
    expect(h.onReady).toHaveBeenCalledTimes(1);
    expect(h.onReady.mock.calls[0]).toEqual([undefined]);
  });

  it('calls onSuccess with the tokenization result', () => {
    const h = renderForm();
    h.post({ v: 1, type: 'success', result: RESULT });
    expect(h.onSuccess).toHaveBeenCalledTimes(1);
    expect(h.onSuccess).toHaveBeenCalledWith({ ...RESULT });
    expect(h.onError).not.toHaveBeenCalled();
  });

  it('delivers only the documented result fields', () => {
    const h = renderForm();
    h.post({ type: 'success', result: { ...RESULT, pan: '4111111111111111', cvv: '123' } });
    const delivered = h.onSuccess.mock.calls[0][0];
    expect(delivered).toEqual({ ...RESULT });
    expect(delivered).not.toHaveProperty('pan');
    expect(delivered).not.toHaveProperty('cvv');
  });

  it('fires onSuccess at most once even if the page posts success twice', () => {
    const h = renderForm();
    h.post({ type: 'success', result: RESULT });
    h.post({ type: 'success', result: { ...RESULT, slugToken: 'tk_second' } });
    h.post({ v: 1, type: 'success', result: RESULT });
    expect(h.onSuccess).toHaveBeenCalledTimes(1);
    expect(h.onSuccess.mock.calls[0][0].slugToken).toBe(RESULT.slugToken);
  });

  it('fires onSuccess again for a new session (new hostedCardUrl)', () => {
    const h = renderForm();
    h.post({ type: 'success', result: RESULT });
    const next = 'https://cards.example.com/hosted/sess_456?t=opaque2';
    h.rerender({ hostedCardUrl: next });
    expect(h.props().source).toEqual({ uri: next });
    h.post({ type: 'success', result: { ...RESULT, slugToken: 'tk_456' } }, next);
    h.post({ type: 'success', result: { ...RESULT, slugToken: 'tk_456b' } }, next);
    expect(h.onSuccess).toHaveBeenCalledTimes(2);
    expect(h.onSuccess.mock.calls[1][0].slugToken).toBe('tk_456');
  });

  it('uses the latest callbacks passed by the app', () => {
    const h = renderForm();
    const laterSuccess = jest.fn();
    h.rerender({ onSuccess: laterSuccess });
    h.post({ type: 'success', result: RESULT });
    expect(h.onSuccess).not.toHaveBeenCalled();
    expect(laterSuccess).toHaveBeenCalledTimes(1);
  });
});

describe('message_origin_rejected', () => {
  it.each([
    ['a foreign https origin', 'https://evil.example.net/page'],
    ['a look-alike host', 'https://cards.example.com.evil.net/hosted'],
    ['the same host over http', 'http://cards.example.com/hosted/sess_123'],
    ['another port', 'https://cards.example.com:8443/hosted'],
    ['about:blank', 'about:blank'],
    ['a missing url', undefined as unknown as string],
  ])('rejects a success message from %s and does not deliver it', (_label, url) => {
    const h = renderForm();
    h.post({ type: 'success', result: RESULT }, url);
    expect(h.onSuccess).not.toHaveBeenCalled();
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError.mock.calls[0][0]).toMatchObject({
      code: 'message_origin_rejected',
      retryable: false,
    });
  });

  it('rejects ready and error messages from a foreign origin too', () => {
    const h = renderForm();
    h.post({ type: 'ready', requestId: 'r' }, 'https://evil.example.net/');
    h.post({ type: 'error', error: { code: 'token_expired', message: 'x' } }, 'https://evil.example.net/');
    expect(h.onReady).not.toHaveBeenCalled();
    expect(h.onError.mock.calls.map((c) => c[0].code)).toEqual(['message_origin_rejected', 'message_origin_rejected']);
  });

  it('names the rejected origin but not the full URL', () => {
    const h = renderForm();
    h.post({ type: 'ready' }, 'https://evil.example.net/path/secret-token');
    const { message } = h.onError.mock.calls[0][0];
    expect(message).toContain('https://evil.example.net');
    expect(message).not.toContain('secret-token');
  });

  it('accepts messages from an extra allowed origin', () => {
    const h = renderForm({ allowedOrigins: [HOSTED_ORIGIN, 'https://acs.bank.example'] });
    h.post({ type: 'ready', requestId: 'r1' }, 'https://acs.bank.example/3ds');
    expect(h.onReady).toHaveBeenCalledWith('r1');
    expect(h.onError).not.toHaveBeenCalled();
  });
});

describe('message_invalid', () => {
  const base = { type: 'success', result: RESULT };
  const { requestId: _omit, ...withoutRequestId } = RESULT;
  it.each([
    ['unparseable JSON', '{"type":"success",'],
    ['plain text', 'hello'],
    ['an empty string', ''],
    ['a JSON array', '[]'],
    ['a JSON string', '"ready"'],
    ['JSON null', 'null'],
    ['an unknown type', { type: 'done' }],
    ['a missing type', { result: RESULT }],
    ['an unsupported version', { ...base, v: 2 }],
    ['a success without result', { type: 'success' }],
    ['a success with a missing field', { type: 'success', result: withoutRequestId }],
    ['a success with a numeric last4', { type: 'success', result: { ...RESULT, last4: 1111 } }],
    ['a success with a full card number as first4', { type: 'success', result: { ...RESULT, first4: '4111111111111111' } }],
    ['a success with a non-string nickname', { type: 'success', result: { ...RESULT, nickname: 7 } }],
    ['a ready with a numeric requestId', { type: 'ready', requestId: 1 }],
    ['an error without error object', { type: 'error' }],
    ['an error with an unknown code', { type: 'error', error: { code: 'boom', message: 'x' } }],
    ['an error with a component-only code', { type: 'error', error: { code: 'configuration_error', message: 'x' } }],
    ['an error without message', { type: 'error', error: { code: 'validation_error' } }],
    ['an error with a string retryable', { type: 'error', error: { code: 'tokenization_failed', message: 'x', retryable: 'yes' } }],
  ])('is reported for %s', (_label, data) => {
    const h = renderForm();
    h.post(data);
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError.mock.calls[0][0]).toMatchObject({ code: 'message_invalid', retryable: true });
    expect(h.onSuccess).not.toHaveBeenCalled();
    expect(h.onReady).not.toHaveBeenCalled();
  });

  it('is reported for non-string data', () => {
    const h = renderForm();
    h.post({ type: 'ready' });
    h.onReady.mockClear();
    // Some bridges could hand over an already-decoded object; only strings are accepted.
    const props = h.props();
    const { act } = jest.requireActual('react-test-renderer');
    act(() => props.onMessage!({ nativeEvent: { url: HOSTED_URL, data: { type: 'ready' } } } as never));
    expect(h.onError.mock.calls[0][0].code).toBe('message_invalid');
    expect(h.onReady).not.toHaveBeenCalled();
  });

  it('is reported for an oversized message', () => {
    const h = renderForm();
    h.post({ type: 'ready', requestId: 'x'.repeat(20000) });
    expect(h.onError.mock.calls[0][0].code).toBe('message_invalid');
  });

  it('carries the requestId announced by the ready message', () => {
    const h = renderForm();
    h.post({ type: 'ready', requestId: 'req-ready-9' });
    h.post('not json');
    expect(h.onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'message_invalid', requestId: 'req-ready-9' }));
  });
});

describe('errors forwarded from the hosted page', () => {
  it.each([
    ['validation_error', { code: 'validation_error', message: 'Invalid card number', requestId: 'req-v' }],
    ['token_expired', { code: 'token_expired', message: 'Session expired', requestId: 'req-t' }],
    ['tokenization_failed', { code: 'tokenization_failed', message: 'Acquirer unavailable', requestId: 'req-f', retryable: true }],
    ['tokenization_failed (not retryable)', { code: 'tokenization_failed', message: 'Card refused', retryable: false }],
  ])('forwards %s', (_label, error) => {
    const h = renderForm();
    h.post({ v: 1, type: 'error', error: { ...error, extra: 'dropped' } });
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError).toHaveBeenCalledWith(error);
    expect(h.onSuccess).not.toHaveBeenCalled();
  });

  it('fills in the requestId of the session when the page omits it', () => {
    const h = renderForm();
    h.post({ type: 'ready', requestId: 'req-s' });
    h.post({ type: 'error', error: { code: 'validation_error', message: 'Expired card' } });
    expect(h.onError).toHaveBeenCalledWith({
      code: 'validation_error',
      message: 'Expired card',
      requestId: 'req-s',
    });
  });
});

describe('load failures', () => {
  it.each([401, 403, 404, 410])('HTTP %i on the page load is token_expired', (status) => {
    const h = renderForm();
    h.httpError(status);
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError.mock.calls[0][0]).toMatchObject({ code: 'token_expired' });
    expect(h.onError.mock.calls[0][0].message).toContain(String(status));
  });

  it.each([
    [500, true],
    [502, true],
    [503, true],
    [429, true],
    [408, true],
    [400, false],
    [405, false],
  ])('HTTP %i on the page load is tokenization_failed (retryable %p)', (status, retryable) => {
    const h = renderForm();
    h.httpError(status);
    expect(h.onError).toHaveBeenCalledTimes(1);
    expect(h.onError.mock.calls[0][0]).toMatchObject({ code: 'tokenization_failed', retryable });
  });

  it('a network failure (web view onError) is tokenization_failed and retryable', () => {
    const h = renderForm();
    h.loadError({ code: -2, description: 'net::ERR_NAME_NOT_RESOLVED' });
    h.loadError({ code: -1009, description: 'The Internet connection appears to be offline.', domain: 'NSURLErrorDomain' });
    expect(h.onError).toHaveBeenCalledTimes(2);
    for (const [error] of h.onError.mock.calls) {
      expect(error).toMatchObject({ code: 'tokenization_failed', retryable: true });
    }
    expect(h.onError.mock.calls[0][0].message).toContain('net::ERR_NAME_NOT_RESOLVED');
  });

  it('ignores the iOS cancellation of a navigation blocked by the allow-list', () => {
    const h = renderForm();
    h.loadError({ code: -999, description: 'cancelled', domain: 'NSURLErrorDomain' });
    h.loadError({ code: 102, description: 'Frame load interrupted', domain: 'WebKitErrorDomain' });
    expect(h.onError).not.toHaveBeenCalled();
  });
});

describe('every error code', () => {
  it('is produced in its situation', () => {
    const seen = new Set<string>();
    const collect = (h: ReturnType<typeof renderForm>) => h.onError.mock.calls.forEach(([e]) => seen.add(e.code));

    collect(renderForm({ hostedCardUrl: 'http://cards.example.com/' }));
    let h = renderForm();
    h.httpError(410);
    collect(h);
    h = renderForm();
    h.post({ type: 'ready' }, 'https://evil.example.net/');
    collect(h);
    h = renderForm();
    h.post('{');
    collect(h);
    h = renderForm();
    h.post({ type: 'error', error: { code: 'validation_error', message: 'x' } });
    collect(h);
    h = renderForm();
    h.loadError({ code: -6, description: 'net::ERR_CONNECTION_REFUSED' });
    collect(h);

    const { SERVICE_CARD_ERROR_CODES } = jest.requireActual('../src');
    expect([...seen].sort()).toEqual([...SERVICE_CARD_ERROR_CODES].sort());
  });
});
