/**
 * Test double of `react-native-webview` (mapped by jest.config.js).
 * It renders a host element `RNCWebView` carrying the props it received and
 * records every render, so tests can inspect the props and fire the handlers
 * (onMessage, onHttpError, onError, onShouldStartLoadWithRequest).
 */
import { createElement } from 'react';
import type { WebViewProps } from 'react-native-webview';

export const webViewRenders: WebViewProps[] = [];

export function lastWebViewProps(): WebViewProps {
  const props = webViewRenders[webViewRenders.length - 1];
  if (props === undefined) throw new Error('WebView was never rendered');
  return props;
}

export function resetWebViewDouble(): void {
  webViewRenders.length = 0;
}

export function WebView(props: WebViewProps) {
  webViewRenders.push(props);
  return createElement('RNCWebView', props);
}

export default WebView;
