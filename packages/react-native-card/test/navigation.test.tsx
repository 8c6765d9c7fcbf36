/**
 * Off-list navigations through the real `react-native-webview` decision code.
 *
 * The web view does not call the component's `onShouldStartLoadWithRequest` for a URL that
 * fails its own `originWhitelist`: it hands that URL to the operating system
 * (`Linking.openURL`), so a page inside the form could send the payer out of the app (another
 * browser, a `tel:`/`intent:` handler) before the component's check ran. These tests feed the
 * props the component renders into the library's own `createOnShouldStartLoadWithRequest`
 * (from `react-native-webview/lib/WebViewShared`, the function both platforms' WebView use),
 * with only `react-native` itself replaced (native code, outside this package), and check that
 * every off-list navigation is refused inside the component and never reaches `Linking`.
 */
const openURL = jest.fn(async () => true);
const canOpenURL = jest.fn(async () => true);

jest.mock('react-native', () => ({
  Linking: { openURL, canOpenURL },
  Platform: { OS: 'ios', select: (o: Record<string, unknown>) => o.ios },
  StyleSheet: { create: <T,>(s: T) => s },
  View: 'View',
  Text: 'Text',
  ActivityIndicator: 'ActivityIndicator',
}));

import { HOSTED_ORIGIN, HOSTED_URL, renderForm } from './helpers';
import { resetWebViewDouble } from './doubles/react-native-webview';

const { createOnShouldStartLoadWithRequest } = require('react-native-webview/lib/WebViewShared');

beforeEach(() => {
  resetWebViewDouble();
  openURL.mockClear();
  canOpenURL.mockClear();
});

/** What the web view decides for `url` with the props the component gave it. */
async function navigate(url: string, allowedOrigins?: string[]): Promise<boolean> {
  const props = renderForm(allowedOrigins ? { allowedOrigins } : {}).props();
  const decisions: boolean[] = [];
  const decide = createOnShouldStartLoadWithRequest(
    (shouldStart: boolean) => decisions.push(shouldStart),
    props.originWhitelist,
    props.onShouldStartLoadWithRequest,
  );
  decide({ nativeEvent: { url, lockIdentifier: 1, navigationType: 'other', isTopFrame: true } });
  await new Promise<void>((r) => setImmediate(r)); // let a Linking promise chain run, if one started
  expect(decisions).toHaveLength(1);
  return decisions[0];
}

describe('navigations decided by the real web view logic', () => {
  it.each([
    ['https://evil.example.net/phish'],
    ['https://cards.example.com.evil.net/'],
    ['https://cards.example.com:8443/'],
    ['http://cards.example.com/hosted/sess_123'],
    ['tel:+5511999999999'],
    ['mailto:payer@example.com'],
    ['intent://scan/#Intent;scheme=zxing;end'],
    ['itms-apps://apps.apple.com/app/id1'],
    ['javascript:alert(1)'],
  ])('%s is blocked inside the component and never handed to Linking', async (url) => {
    expect(await navigate(url)).toBe(false);
    expect(canOpenURL).not.toHaveBeenCalled();
    expect(openURL).not.toHaveBeenCalled();
  });

  it('the hosted page, about:blank and listed origins still load', async () => {
    expect(await navigate(HOSTED_URL)).toBe(true);
    expect(await navigate('about:blank')).toBe(true);
    expect(await navigate('https://acs.bank.example/challenge', [HOSTED_ORIGIN, 'https://acs.bank.example'])).toBe(true);
    expect(await navigate('https://other.bank.example/', [HOSTED_ORIGIN, 'https://acs.bank.example'])).toBe(false);
    expect(openURL).not.toHaveBeenCalled();
  });
});
