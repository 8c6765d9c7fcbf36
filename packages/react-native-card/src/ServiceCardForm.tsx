import { useCallback, useEffect, useMemo, useRef } from 'react';
import type { ReactElement } from 'react';
import { WebView } from 'react-native-webview';
import type { WebViewProps } from 'react-native-webview';
import { httpsOriginOf, isAllowedHttpsUrl, normaliseAllowedOrigin } from './origin';
import { parseServiceCardMessage } from './protocol';
import type { ServiceCardError, ServiceCardFormProps } from './types';

type MessageEvent = Parameters<NonNullable<WebViewProps['onMessage']>>[0];
type HttpErrorEvent = Parameters<NonNullable<WebViewProps['onHttpError']>>[0];
type LoadErrorEvent = Parameters<NonNullable<WebViewProps['onError']>>[0];
type ShouldStartLoadRequest = Parameters<NonNullable<WebViewProps['onShouldStartLoadWithRequest']>>[0];

/**
 * Web view settings applied to every hosted card page. They cannot be
 * overridden through props: HTTPS only, no disk cache, no file access,
 * incognito, no extra windows, no cookie sharing, no form autofill storage.
 */
export const SERVICE_CARD_WEBVIEW_HARDENING = Object.freeze({
  javaScriptEnabled: true,
  // The hosted page may keep per-session state in web storage; with
  // `incognito` it lives only as long as this web view.
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
  // Kept enabled so the cardholder can place the cursor, select and correct input.
  textInteractionEnabled: true,
  saveFormDataDisabled: true,
  geolocationEnabled: false,
  allowsLinkPreview: false,
  allowsBackForwardNavigationGestures: false,
  webviewDebuggingEnabled: false,
  dataDetectorTypes: 'none',
} as const satisfies Partial<WebViewProps>);

/**
 * `react-native-webview` hands every URL that fails its `originWhitelist` to the operating
 * system (`Linking.openURL`) without asking `onShouldStartLoadWithRequest`, so an allow-list
 * there would let off-list navigations leave the app. Every URL passes it instead and the
 * component's own exact check (`onShouldStartLoadWithRequest`) decides, refusing the rest.
 */
const ALL_NAVIGATIONS_TO_THE_COMPONENT: string[] = ['*'];

/** HTTP statuses of the page load that mean the session is expired, used or unauthorized. */
const SESSION_HTTP_STATUSES: ReadonlySet<number> = new Set([401, 403, 404, 410]);
/** Other HTTP statuses after which a new attempt may succeed. */
const RETRYABLE_HTTP_STATUSES: ReadonlySet<number> = new Set([408, 425, 429]);

type ResolvedConfig = { ok: true; url: string; origins: string[] } | { ok: false; message: string };

function resolveConfig(hostedCardUrl: unknown, allowedOrigins: unknown): ResolvedConfig {
  const pageOrigin = httpsOriginOf(hostedCardUrl);
  if (pageOrigin === null) {
    return { ok: false, message: 'hostedCardUrl must be an absolute HTTPS URL' };
  }
  let origins: string[];
  if (allowedOrigins === undefined) {
    origins = [pageOrigin];
  } else {
    if (!Array.isArray(allowedOrigins) || allowedOrigins.length === 0) {
      return { ok: false, message: 'allowedOrigins must be a non-empty array of HTTPS origins' };
    }
    origins = [];
    for (let i = 0; i < allowedOrigins.length; i++) {
      const origin = normaliseAllowedOrigin(allowedOrigins[i]);
      if (origin === null) {
        return {
          ok: false,
          message: `allowedOrigins[${i}] is not an HTTPS origin (expected https://host[:port])`,
        };
      }
      if (!origins.includes(origin)) origins.push(origin);
    }
    if (!origins.includes(pageOrigin)) {
      return { ok: false, message: 'allowedOrigins does not include the origin of hostedCardUrl' };
    }
  }
  return { ok: true, url: hostedCardUrl as string, origins };
}

function configKeyOf(hostedCardUrl: unknown, allowedOrigins: unknown): string {
  try {
    return JSON.stringify([hostedCardUrl, allowedOrigins ?? null]);
  } catch {
    return String(Math.random());
  }
}

interface SessionState {
  url: string;
  succeeded: boolean;
  requestId?: string;
}

/**
 * Card form for the mobile SDK: renders the hosted card page (the session URL
 * created by the backend) in a hardened web view and reports the outcome.
 * The card number and security code go only from the cardholder to the hosted
 * page; the app receives the tokenization result (display values and opaque
 * references) through `onSuccess`.
 */
export function ServiceCardForm(props: ServiceCardFormProps): ReactElement | null {
  const { hostedCardUrl, allowedOrigins, style, testID } = props;

  // Latest callbacks, so inline arrow functions from the app do not re-create handlers.
  const callbacks = useRef(props);
  callbacks.current = props;

  const configKey = configKeyOf(hostedCardUrl, allowedOrigins);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const config = useMemo(() => resolveConfig(hostedCardUrl, allowedOrigins), [configKey]);

  // configuration_error: reported once per distinct invalid configuration.
  const reportedConfigKey = useRef<string | null>(null);
  useEffect(() => {
    if (config.ok) {
      reportedConfigKey.current = null;
      return;
    }
    if (reportedConfigKey.current === configKey) return;
    reportedConfigKey.current = configKey;
    callbacks.current.onError({ code: 'configuration_error', message: config.message, retryable: false });
  }, [config, configKey]);

  // Per-session state; a new hostedCardUrl is a new session (one per attempt).
  const session = useRef<SessionState | null>(null);
  const currentSession = useCallback((): SessionState | null => {
    if (!config.ok) return null;
    if (session.current === null || session.current.url !== config.url) {
      session.current = { url: config.url, succeeded: false };
    }
    return session.current;
  }, [config]);

  const report = useCallback(
    (error: ServiceCardError) => {
      const requestId = error.requestId ?? currentSession()?.requestId;
      callbacks.current.onError(requestId !== undefined ? { ...error, requestId } : error);
    },
    [currentSession],
  );

  const onMessage = useCallback(
    (event: MessageEvent) => {
      if (!config.ok) return;
      const { url, data } = event.nativeEvent;
      if (!isAllowedHttpsUrl(url, config.origins)) {
        const origin = httpsOriginOf(url);
        report({
          code: 'message_origin_rejected',
          message: `Ignored a message from ${origin ?? 'a non-HTTPS or unknown origin'}, which is not in allowedOrigins`,
          retryable: false,
        });
        return;
      }

      const parsed = parseServiceCardMessage(data);
      if (!parsed.ok) {
        report({
          code: 'message_invalid',
          message: `Malformed message from the hosted page: ${parsed.reason}`,
          retryable: true,
        });
        return;
      }

      const state = currentSession();
      if (state === null) return;
      const message = parsed.message;
      switch (message.type) {
        case 'ready':
          if (message.requestId !== undefined) state.requestId = message.requestId;
          callbacks.current.onReady?.(message.requestId);
          return;
        case 'success':
          if (state.succeeded) return; // onSuccess fires at most once per session
          state.succeeded = true;
          state.requestId = message.result.requestId;
          callbacks.current.onSuccess(message.result);
          return;
        case 'error':
          report({ ...message.error });
          return;
      }
    },
    [config, currentSession, report],
  );

  const onHttpError = useCallback(
    (event: HttpErrorEvent) => {
      const status = Number(event.nativeEvent.statusCode);
      if (SESSION_HTTP_STATUSES.has(status)) {
        report({
          code: 'token_expired',
          message: `The hosted card session is expired or unauthorized (HTTP ${status}); create a new session`,
          retryable: true,
        });
        return;
      }
      report({
        code: 'tokenization_failed',
        message: `The hosted card page failed to load (HTTP ${status})`,
        retryable: status >= 500 || RETRYABLE_HTTP_STATUSES.has(status),
      });
    },
    [report],
  );

  const onLoadError = useCallback(
    (event: LoadErrorEvent) => {
      const { code, description, domain } = event.nativeEvent;
      // A navigation cancelled by onShouldStartLoadWithRequest is reported by
      // iOS as an error; it is not a load failure of the hosted page.
      if ((domain === 'NSURLErrorDomain' && code === -999) || (domain === 'WebKitErrorDomain' && code === 102)) {
        return;
      }
      report({
        code: 'tokenization_failed',
        message: `The hosted card page failed to load (${domain ? `${domain} ` : ''}${code}${description ? `: ${description}` : ''})`,
        retryable: true,
      });
    },
    [report],
  );

  const onShouldStartLoadWithRequest = useCallback(
    (request: ShouldStartLoadRequest): boolean => {
      if (!config.ok) return false;
      return request.url === 'about:blank' || isAllowedHttpsUrl(request.url, config.origins);
    },
    [config],
  );

  if (!config.ok) return null;

  return (
    <WebView
      key={config.url}
      {...SERVICE_CARD_WEBVIEW_HARDENING}
      source={{ uri: config.url }}
      originWhitelist={ALL_NAVIGATIONS_TO_THE_COMPONENT}
      onShouldStartLoadWithRequest={onShouldStartLoadWithRequest}
      onMessage={onMessage}
      onHttpError={onHttpError}
      onError={onLoadError}
      style={style}
      testID={testID}
    />
  );
}
