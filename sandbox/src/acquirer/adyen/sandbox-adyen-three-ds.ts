import { SANDBOX_RECEIVER } from '../../../../kernel/common/protocols/sandbox-receiver';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AdyenPaymentResponse, decodeAdyenToken, encodeAdyenToken } from '../../../../kernel/common/protocols/adyen';
import * as sql from '../../../../kernel/platform/database/sql';
import { decisionFor, SandboxThreeDsDecision, SandboxThreeDsService } from '../../three-ds/sandbox-three-ds.service';
import type { SandboxTransaction } from '../../three-ds/sandbox-three-ds.repository';
import { AdyenAnswerError, pspReferenceOf } from './sandbox-adyen-checkout';
import { ADYEN_THREE_DS2_CARDS } from './adyen-test-data';
import { ecisFor } from '../../cards/three-ds-cards';

/** Adyen's 3DS2 test cards challenge and pass; every other card decides as at the sandbox 3DS server. */
function adyenDecision(pan: string): SandboxThreeDsDecision {
  if (!ADYEN_THREE_DS2_CARDS.includes(pan)) return decisionFor(pan);
  const eci = ecisFor(pan);
  return {
    eci,
    outcome: {
      kind: 'challenge_success',
      challenge: true,
      transStatus: 'C',
      afterChallenge: { transStatus: 'Y', eci: eci.authenticated, liabilityShift: true, proceedToAuthorization: true },
    },
  };
}

const refuse = (status: number, errorCode: string, message: string, errorType: string) =>
  new AdyenAnswerError({ status, errorCode, message, errorType });

/** Merchant document the 3DS directory knows for a merchant account when the request names none. */
const DEFAULT_MERCHANT_DOCUMENT = SANDBOX_RECEIVER.cnpj;

/**
 * Native 3DS2 at the sandbox's Adyen face, authentication only (`authenticationData.authenticationOnly`):
 * `/payments` answers `IdentifyShopper` with the `threeDS2` fingerprint action (the 3DS Method URL
 * of the sandbox ACS), `/payments/details` with the `threeDSResult` answers `ChallengeShopper`
 * (the ACS challenge URL) or `AuthenticationFinished` with `threeDS2Result` (transStatus, ECI,
 * authenticationValue, dsTransID). The transactions, the test cards and the ACS pages are the
 * sandbox 3DS server's (SandboxThreeDsService), so both faces authenticate alike.
 */
@Injectable()
export class SandboxAdyenThreeDs {
  constructor(
    private readonly ds: DataSource,
    private readonly threeDs: SandboxThreeDsService,
  ) {}

  async start(body: Record<string, any>, merchantAccount: string): Promise<AdyenPaymentResponse> {
    if (body.merchantAccount !== merchantAccount) throw refuse(403, '901', 'Invalid Merchant Account', 'security');
    if (typeof body.reference !== 'string' || !body.reference)
      throw refuse(422, '130', "Required field 'reference' is not provided.", 'validation');
    if (typeof body.returnUrl !== 'string' || !body.returnUrl)
      throw refuse(422, '14_006', "Required field 'returnUrl' is not provided.", 'validation');
    const value = body.amount?.value;
    if (!Number.isSafeInteger(value) || value < 0 || body.amount?.currency !== 'BRL')
      throw refuse(422, '137', 'Invalid amount specified', 'validation');
    const pan = body.paymentMethod?.number;
    const document = typeof body.metadata?.documentId === 'string' ? body.metadata.documentId : DEFAULT_MERCHANT_DOCUMENT;
    const setup = await this.threeDs.setup({ merchantDocument: document, cardNumber: pan });
    if (setup.status === 403) throw refuse(403, '901', 'Invalid Merchant Account', 'security');
    if (setup.status !== 201) throw refuse(422, '101', 'Invalid card number', 'validation');
    const referenceId = String(setup.body.referenceId);
    const psp = pspReferenceOf(`3ds:${referenceId}`);
    await sql.exec(
      this.ds,
      `INSERT INTO sandbox_adyen_three_ds (reference_id, psp_reference, merchant_reference, decision, amount_cents, return_url)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [referenceId, psp, body.reference, JSON.stringify(adyenDecision(pan)), value, body.returnUrl],
    );
    return {
      pspReference: psp,
      resultCode: 'IdentifyShopper',
      merchantReference: body.reference,
      action: {
        type: 'threeDS2',
        subtype: 'fingerprint',
        paymentMethodType: 'scheme',
        paymentData: referenceId,
        token: encodeAdyenToken({
          threeDSMethodUrl: setup.body.deviceDataCollectionUrl,
          threeDSServerTransID: referenceId,
          threeDSMethodNotificationURL: body.returnUrl,
        }),
      },
    } as AdyenPaymentResponse;
  }

  async details(body: Record<string, any>): Promise<AdyenPaymentResponse> {
    const result = decodeAdyenToken(body?.details?.threeDSResult);
    const referenceId = typeof result?.threeDSServerTransID === 'string' ? result.threeDSServerTransID : body?.paymentData;
    const row =
      typeof referenceId === 'string'
        ? await sql.maybeOne<{
            psp_reference: string;
            merchant_reference: string;
            decision: SandboxThreeDsDecision;
            amount_cents: string;
            return_url: string;
          }>(
            this.ds,
            `SELECT psp_reference, merchant_reference, decision, amount_cents, return_url FROM sandbox_adyen_three_ds WHERE reference_id = $1`,
            [referenceId],
          )
        : null;
    let tx = row ? await this.threeDs.find(referenceId) : null;
    if (!row || !tx) throw refuse(422, '14_002', 'Invalid payment data: no such 3DS transaction', 'validation');
    const base = { pspReference: row.psp_reference, merchantReference: row.merchant_reference };
    if (tx.status === 'SETUP') {
      if (row.decision.outcome.kind === 'error')
        return { ...base, resultCode: 'Error', refusalReason: '3D Secure Error' } as AdyenPaymentResponse;
      tx = await this.threeDs.applyDecision(tx.referenceId, row.decision, Number(row.amount_cents), row.return_url);
    }
    return { ...base, ...this.answer(tx) } as AdyenPaymentResponse;
  }

  private answer(tx: SandboxTransaction): Record<string, unknown> {
    const view = this.threeDs.view(tx);
    if (tx.status === 'CHALLENGE_PENDING')
      return {
        resultCode: 'ChallengeShopper',
        action: {
          type: 'threeDS2',
          subtype: 'challenge',
          paymentMethodType: 'scheme',
          paymentData: tx.referenceId,
          token: encodeAdyenToken({
            acsURL: view.challengeUrl,
            acsTransID: view.acsTransactionId,
            messageVersion: '2.2.0',
            threeDSServerTransID: tx.referenceId,
            dsTransID: view.dsTransactionId,
          }),
        },
      };
    return {
      resultCode: 'AuthenticationFinished',
      threeDS2Result: {
        transStatus: view.transStatus,
        ...(view.eci ? { eci: view.eci } : {}),
        ...(view.cavv ? { authenticationValue: view.cavv } : {}),
        dsTransID: view.dsTransactionId,
        threeDSServerTransID: tx.referenceId,
        messageVersion: '2.2.0',
      },
    };
  }
}
