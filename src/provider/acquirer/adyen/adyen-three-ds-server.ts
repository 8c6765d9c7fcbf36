import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AdyenPaymentResponse, decodeAdyenToken, encodeAdyenToken } from '../../../../kernel/common/protocols/adyen';
import { ProviderCallError } from '../../../../kernel/platform/http/resilient-http';
import {
  ThreeDsAuthenticateRequest,
  ThreeDsServerError,
  ThreeDsServerPort,
  ThreeDsServerResult,
  ThreeDsSetupRequest,
  ThreeDsSetupResult,
} from '../../three-ds-server.port';
import { AdyenCheckoutClient } from './adyen-checkout.client';
import { resultMeaning } from './adyen-result.map';

/** The 3DS2 action's token, read; empty when the answer has none. */
function tokenOf(res: AdyenPaymentResponse): Record<string, string> {
  const token = decodeAdyenToken(res.action?.type === 'threeDS2' ? res.action.token : undefined) ?? {};
  return Object.fromEntries(Object.entries(token).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** EMV transStatus of Adyen's `threeDS2Result` as the port's: A (attempt, liability shifted) counts as authenticated, R as refused. */
const TRANS_STATUS: Readonly<Record<string, ThreeDsServerResult['transStatus']>> = { Y: 'Y', A: 'Y', N: 'N', R: 'N', U: 'U' };

/**
 * The spec's 3DS steps on Adyen's native 3DS2, authentication only (`ACQUIRER_PROVIDER=adyen`):
 * setup is `POST /payments` with `authenticationData.authenticationOnly` (the card, the
 * initialized amount, the request's notificationUrl, the challenge-result route, as `returnUrl`), answered `IdentifyShopper`
 * with the fingerprint action, whose 3DS Method URL is the device data collection URL and whose
 * `threeDSServerTransID` is our referenceId; authenticate and result are `POST /payments/details`
 * with the `threeDSResult`, answered `ChallengeShopper` (the ACS URL) or
 * `AuthenticationFinished` (`threeDS2Result`: transStatus, ECI, authenticationValue as the CAVV,
 * dsTransID). The payment then goes to `/payments` with that result as `mpiData`.
 */
@Injectable()
export class AdyenThreeDsServer extends ThreeDsServerPort {
  constructor(private readonly adyen: AdyenCheckoutClient) {
    super();
  }

  async setup(req: ThreeDsSetupRequest): Promise<ThreeDsSetupResult> {
    const reference = `3ds_${randomUUID()}`;
    const res = await this.call(
      'setup',
      '/payments',
      {
        merchantAccount: this.adyen.config.merchantAccount,
        reference,
        amount: { currency: 'BRL', value: req.amountCents ?? 0 },
        paymentMethod: { type: 'scheme', number: req.cardNumber },
        authenticationData: { authenticationOnly: true, threeDSRequestData: { nativeThreeDS: 'preferred' } },
        channel: 'Web',
        returnUrl: req.notificationUrl,
        metadata: { documentId: req.merchantDocument },
      },
      reference,
    );
    const token = tokenOf(res);
    if (resultMeaning(res.resultCode).threeDs !== 'fingerprint' || !token.threeDSServerTransID || !token.threeDSMethodUrl)
      throw ThreeDsServerError.unavailable("The acquirer's 3DS answer had no fingerprint step; retry later");
    return {
      referenceId: token.threeDSServerTransID,
      deviceDataCollectionUrl: token.threeDSMethodUrl,
      accessToken: res.action?.type === 'threeDS2' ? String(res.action.token) : '',
    };
  }

  async authenticate(req: ThreeDsAuthenticateRequest): Promise<ThreeDsServerResult> {
    const res = await this.call(
      'authenticate',
      '/payments/details',
      { details: { threeDSResult: encodeAdyenToken({ threeDSCompInd: 'Y', threeDSServerTransID: req.referenceId }) } },
      `3ds-authenticate-${req.referenceId}`,
    );
    return this.result_(req.referenceId, res, false);
  }

  /** After the challenge: no idempotency key, since a later ask must see the cardholder's answer. */
  async result(referenceId: string): Promise<ThreeDsServerResult> {
    const res = await this.call('result', '/payments/details', {
      details: { threeDSResult: encodeAdyenToken({ threeDSServerTransID: referenceId }) },
    });
    return this.result_(referenceId, res, true);
  }

  private result_(referenceId: string, res: AdyenPaymentResponse, afterChallenge: boolean): ThreeDsServerResult {
    const step = resultMeaning(res.resultCode).threeDs;
    if (step === 'challenge') {
      const t = tokenOf(res);
      return {
        referenceId,
        transStatus: 'C',
        dsTransactionId: t.dsTransID ?? '',
        ...(t.acsTransID ? { acsTransactionId: t.acsTransID } : {}),
        ...(t.acsURL ? { challengeUrl: t.acsURL } : {}),
        challenged: false,
      };
    }
    const r = res.threeDS2Result;
    if (step !== 'finished' || !r) throw ThreeDsServerError.unavailable();
    return {
      referenceId,
      transStatus: TRANS_STATUS[r.transStatus ?? ''] ?? 'U',
      ...(r.eci ? { eci: r.eci } : {}),
      ...(r.authenticationValue ? { cavv: r.authenticationValue } : {}),
      dsTransactionId: r.dsTransID ?? '',
      challenged: afterChallenge,
    };
  }

  /** One call in the spec's terms: Adyen's 403 is an unknown merchant, its "no such payment data" a reference mismatch, anything else 500. */
  private async call(operation: string, path: string, body: object, idempotencyKey?: string): Promise<AdyenPaymentResponse> {
    try {
      return (await this.adyen.post<AdyenPaymentResponse>(`threeDs.${operation}`, path, body, idempotencyKey)) ?? {};
    } catch (e) {
      if (e instanceof ProviderCallError && e.code === 'provider_rejected') {
        const code = (e.body as { errorCode?: string } | null)?.errorCode;
        if (e.status === 403) throw ThreeDsServerError.merchantNotFound();
        if (code === '14_002') throw ThreeDsServerError.unknownReference();
      }
      throw ThreeDsServerError.unavailable();
    }
  }
}
