import { act, create } from 'react-test-renderer';
import type { ReactTestRenderer } from 'react-test-renderer';
import type { WebViewProps } from 'react-native-webview';
import { ServiceCardForm } from '../src';
import type { ServiceCardFormProps } from '../src';
import { lastWebViewProps, webViewRenders } from './doubles/react-native-webview';

export const HOSTED_URL = 'https://cards.example.com/hosted/sess_123?t=opaque';
export const HOSTED_ORIGIN = 'https://cards.example.com';

export const RESULT = Object.freeze({
  slugStoredCard: 'sc_01HZX',
  slugToken: 'tk_01HZX',
  tokenExpirationDate: '2030-01-31T23:59:59Z',
  brand: 'VISA',
  first4: '4111',
  last4: '1111',
  expirationMonth: '12',
  expirationYear: '2030',
  nickname: 'Work card',
  requestId: 'req-success-1',
});

type EventOf<K extends keyof WebViewProps> = NonNullable<WebViewProps[K]> extends (event: infer E) => unknown ? E : never;

/** Builds the `{ nativeEvent }` object the web view passes to a handler. */
function event<K extends keyof WebViewProps>(nativeEvent: Record<string, unknown>): EventOf<K> {
  return { nativeEvent } as unknown as EventOf<K>;
}

export interface Harness {
  renderer: ReactTestRenderer;
  onSuccess: jest.Mock;
  onError: jest.Mock;
  onReady: jest.Mock;
  props: () => WebViewProps;
  rerender: (overrides?: Partial<ServiceCardFormProps>) => void;
  /** The hosted page posts `data` (objects are JSON-encoded) while showing `url`. */
  post: (data: unknown, ...url: [string?]) => void;
  httpError: (statusCode: number, url?: string) => void;
  loadError: (nativeEvent: { code: number; description: string; domain?: string }) => void;
  shouldStart: (url: string) => boolean;
}

export function renderForm(overrides: Partial<ServiceCardFormProps> = {}): Harness {
  const onSuccess = jest.fn();
  const onError = jest.fn();
  const onReady = jest.fn();
  const element = (extra: Partial<ServiceCardFormProps>) => (
    <ServiceCardForm hostedCardUrl={HOSTED_URL} onSuccess={onSuccess} onError={onError} onReady={onReady} {...overrides} {...extra} />
  );
  let renderer: ReactTestRenderer | undefined;
  act(() => {
    renderer = create(element({}));
  });
  const props = () => lastWebViewProps();
  return {
    renderer: renderer!,
    onSuccess,
    onError,
    onReady,
    props,
    rerender: (extra = {}) =>
      act(() => {
        renderer!.update(element(extra));
      }),
    post: (data, ...url) =>
      act(() => {
        props().onMessage!(
          event<'onMessage'>({ url: url.length > 0 ? url[0] : HOSTED_URL, data: typeof data === 'string' ? data : JSON.stringify(data) }),
        );
      }),
    httpError: (statusCode, url = HOSTED_URL) =>
      act(() => {
        props().onHttpError!(event<'onHttpError'>({ url, statusCode, description: 'http error' }));
      }),
    loadError: (nativeEvent) =>
      act(() => {
        props().onError!(event<'onError'>({ url: HOSTED_URL, ...nativeEvent }));
      }),
    shouldStart: (url) => {
      const request = { url, navigationType: 'other', isTopFrame: true } as unknown as Parameters<
        NonNullable<WebViewProps['onShouldStartLoadWithRequest']>
      >[0];
      return props().onShouldStartLoadWithRequest!(request) as unknown as boolean;
    },
  };
}

export function webViewRenderCount(): number {
  return webViewRenders.length;
}
