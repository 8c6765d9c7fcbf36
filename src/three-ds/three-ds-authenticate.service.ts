import { Injectable } from '@nestjs/common';
import { Clock } from '../../kernel/platform/clock/clock';
import { DEVICE_CHANNELS, ThreeDsAuthenticateDto, ThreeDsResultDto, TRANSACTION_TYPES } from './dto/three-ds.dto';
import { ThreeDsServerPort, ThreeDsServerResult } from '../provider/three-ds-server.port';
import { ThreeDsErrors } from './three-ds.errors';
import { ThreeDsRecord, ThreeDsRepository } from './three-ds.repository';
import { ThreeDsService } from './three-ds.service';
import { sourcesOf, transition, triggerOf } from './three-ds.state-machine';
import { browserUrl, centsOf, decimal, resultView } from './three-ds.view';
import { isUniqueViolation } from '../../kernel/platform/database/sql';

/** authenticate (frictionless or challenge) and the challenge result. */
@Injectable()
export class ThreeDsAuthenticateService {
  constructor(
    private readonly base: ThreeDsService,
    private readonly repo: ThreeDsRepository,
    private readonly server: ThreeDsServerPort,
    private readonly clock: Clock,
  ) {}

  async authenticate(tenantId: string, dto: ThreeDsAuthenticateDto): Promise<ThreeDsResultDto> {
    const auth = await this.base.authentication(tenantId, dto.token);
    if (dto.documentId !== auth.documentId)
      throw ThreeDsErrors.error('document_mismatch', 'documentId differs from the one given to initialize');
    if (auth.status === 'INITIALIZED')
      throw ThreeDsErrors.error('setup_required', 'Call POST /v1/acquiring/payments/3ds/setup before authenticate');
    if (dto.referenceId !== auth.referenceId)
      throw ThreeDsErrors.error('reference_mismatch', 'referenceId is not the one answered by the last setup of this token');
    if (auth.requestId !== null) return this.replay(auth, dto.requestId);
    this.checkFields(dto, auth);
    const card = await this.base.card(tenantId, dto);
    if (card.fingerprint !== auth.cardFingerprint)
      throw ThreeDsErrors.error('card_mismatch', 'The card differs from the one given to setup');
    const result = await this.server.authenticate({
      referenceId: auth.referenceId!,
      merchantDocument: auth.documentId,
      cardNumber: card.pan,
      amount: decimal(auth.amountCents),
      currency: auth.currency,
      transType: TRANSACTION_TYPES[dto.transactionType],
      deviceChannel: DEVICE_CHANNELS[dto.deviceChannel],
      notificationUrl: this.base.notificationUrl,
      challengeWindowSize: dto.acsWindowSize,
      browser: { ...dto.deviceInformation },
    });
    const trigger = triggerOf(result.transStatus, false);
    let saved: ThreeDsRecord | null;
    try {
      saved = await this.repo.recordAuthentication(
        auth.id,
        sourcesOf(trigger),
        transition('SETUP_COMPLETE', trigger)!,
        { requestId: dto.requestId, returnUrl: dto.returnUrl, result },
        this.clock.now(),
      );
    } catch (e: any) {
      if (isUniqueViolation(e)) throw ThreeDsErrors.error('request_id_reused', 'requestId was already used by another 3DS authentication');
      throw e;
    }
    if (!saved) return this.replay(await this.base.authentication(tenantId, dto.token), dto.requestId);
    return resultView(saved);
  }

  /** JSON call after the challenge: the authoritative result from the 3DS server. */
  async challengeResult(tenantId: string, token: string | undefined, referenceId: string | undefined): Promise<ThreeDsResultDto> {
    if (!token || !referenceId) {
      throw ThreeDsErrors.error('validation_error', 'The request has invalid fields', {
        details: [
          ...(!token ? [{ field: 'token', code: 'isDefined', message: 'token is required' }] : []),
          ...(!referenceId ? [{ field: 'referenceId', code: 'isDefined', message: 'referenceId is required' }] : []),
        ],
      });
    }
    const auth = await this.base.authentication(tenantId, token);
    if (auth.referenceId !== referenceId) throw ThreeDsErrors.error('reference_mismatch', 'referenceId is not the one of this token');
    if (auth.acsTransactionId === null) throw ThreeDsErrors.error('not_challenged', 'This authentication had no challenge');
    const after = await this.settle(auth);
    if (after.status === 'CHALLENGE_PENDING')
      throw ThreeDsErrors.error('challenge_pending', 'The cardholder has not finished the challenge yet');
    return resultView(after);
  }

  /**
   * Browser form post from the ACS (CRes): the CRes only says which transaction ended; the
   * result itself is read from the 3DS server. Answers the record (or null for an unknown one).
   */
  async challengeResultFromBrowser(cres: string | undefined): Promise<ThreeDsRecord | null> {
    const referenceId = referenceOfCres(cres);
    if (!referenceId) return null;
    const auth = await this.repo.findByReference(referenceId);
    if (!auth || auth.acsTransactionId === null) return null;
    try {
      return await this.settle(auth);
    } catch {
      return auth;
    }
  }

  /** Reads the server's result of a pending challenge and records it (conditional: once). */
  private async settle(auth: ThreeDsRecord): Promise<ThreeDsRecord> {
    if (auth.status !== 'CHALLENGE_PENDING') return auth;
    const result: ThreeDsServerResult = await this.server.result(auth.referenceId!);
    if (result.transStatus === 'C') return auth;
    const trigger = triggerOf(result.transStatus === 'Y' ? 'Y' : 'N', true);
    const saved = await this.repo.recordChallengeResult(
      auth.id,
      sourcesOf(trigger),
      transition('CHALLENGE_PENDING', trigger)!,
      result,
      this.clock.now(),
    );
    return saved ?? (await this.repo.findByReference(auth.referenceId!)) ?? auth;
  }

  private replay(auth: ThreeDsRecord, requestId: string): ThreeDsResultDto {
    if (auth.requestId !== requestId)
      throw ThreeDsErrors.error(
        'already_authenticated',
        'This token was already authenticated (with another requestId); initialize a new payment',
      );
    return resultView(auth);
  }

  private checkFields(dto: ThreeDsAuthenticateDto, auth: ThreeDsRecord): void {
    const details: { field: string; code: string; message: string }[] = [];
    const cents = centsOf(dto.orderInformation.amountDetails.totalAmount);
    if (cents === null)
      details.push({
        field: 'orderInformation.amountDetails.totalAmount',
        code: 'amount',
        message: 'totalAmount must be a decimal with at most 2 decimals',
      });
    if (!browserUrl(dto.returnUrl))
      details.push({ field: 'returnUrl', code: 'url', message: 'returnUrl must be an https URL (http only for localhost)' });
    if (dto.merchantUrl !== undefined && !browserUrl(dto.merchantUrl))
      details.push({ field: 'merchantUrl', code: 'url', message: 'merchantUrl must be an https URL' });
    if (dto.deviceChannel === 'BROWSER' && !dto.deviceInformation.userAgentBrowserValue) {
      details.push({
        field: 'deviceInformation.userAgentBrowserValue',
        code: 'isDefined',
        message: 'userAgentBrowserValue is required for the BROWSER channel',
      });
    }
    if (details.length) throw ThreeDsErrors.error('validation_error', 'The request has invalid fields', { details });
    if (cents !== auth.amountCents)
      throw ThreeDsErrors.error('amount_mismatch', `totalAmount must equal the initialized amount ${decimal(auth.amountCents)}`);
  }
}

/** The 3DS server transaction id (our referenceId) named by a CRes: base64url JSON {threeDSServerTransID, acsTransID, …}. */
export function referenceOfCres(cres: string | undefined): string | null {
  if (typeof cres !== 'string' || cres.length > 4096) return null;
  try {
    const body = JSON.parse(Buffer.from(cres, 'base64url').toString('utf8'));
    const id = body?.threeDSServerTransID;
    return typeof id === 'string' && /^[A-Za-z0-9-]{8,64}$/.test(id) ? id : null;
  } catch {
    return null;
  }
}
