import { toCents } from '../../kernel/common/formats/money';
import { Injectable } from '@nestjs/common';
import { Clock } from '../../kernel/platform/clock/clock';
import { PlatformConfig } from '../../kernel/platform/config/platform.config';
import { InitializePaymentDto, InitializePaymentResultDto, ThreeDsSetupDto, ThreeDsSetupResultDto } from './dto/three-ds.dto';
import { ThreeDsCard, ThreeDsCardReference, ThreeDsCardSource } from '../../kernel/common/contracts/three-ds-card-source.port';
import { ThreeDsServerPort } from '../provider/three-ds-server.port';
import { ThreeDsConfig } from './three-ds.config';
import { ThreeDsErrors } from './three-ds.errors';
import { newAuthenticationId, newToken, rfc3339, tokenHash } from './three-ds.ids';
import { ThreeDsRecord, ThreeDsRepository } from './three-ds.repository';
import { sourcesOf } from './three-ds.state-machine';

/** Where the ACS posts the challenge result (CRes) from the cardholder's browser: our route. */
export const CHALLENGE_RESULT_PATH = '/v1/acquiring/payments/3ds/challenge-result';

/** initialize (the token) and setup (the 3DS server's referenceId and device data collection). */
@Injectable()
export class ThreeDsService {
  /** CHALLENGE_RESULT_PATH at this service's public URL, handed to the 3DS server */
  readonly notificationUrl: string;

  constructor(
    private readonly repo: ThreeDsRepository,
    private readonly server: ThreeDsServerPort,
    private readonly cards: ThreeDsCardSource,
    private readonly clock: Clock,
    private readonly config: ThreeDsConfig,
    platform: PlatformConfig,
  ) {
    this.notificationUrl = `${platform.publicUrl}${CHALLENGE_RESULT_PATH}`;
  }

  async initialize(tenantId: string, dto: InitializePaymentDto): Promise<InitializePaymentResultDto> {
    const token = newToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.authenticationTtlMinutes * 60_000);
    await this.repo.insert({
      id: newAuthenticationId(),
      tenantId,
      tokenHash: tokenHash(token),
      documentId: dto.documentId,
      amountCents: toCents(dto.amount),
      now,
      expiresAt,
    });
    return { token, expiresAt: rfc3339(expiresAt) };
  }

  async setup(tenantId: string, dto: ThreeDsSetupDto): Promise<ThreeDsSetupResultDto> {
    const auth = await this.authentication(tenantId, dto.token);
    if (!sourcesOf('setup').includes(auth.status))
      throw ThreeDsErrors.error('already_authenticated', 'This payment was already authenticated; initialize a new one');
    const card = await this.card(tenantId, dto);
    const setup = await this.server.setup({
      merchantDocument: auth.documentId,
      cardNumber: card.pan,
      amountCents: auth.amountCents,
      notificationUrl: this.notificationUrl,
    });
    const ok = await this.repo.recordSetup(
      auth.id,
      sourcesOf('setup'),
      { referenceId: setup.referenceId, cardFingerprint: card.fingerprint, brand: card.brand, last4: card.last4 },
      this.clock.now(),
    );
    if (!ok) throw ThreeDsErrors.error('already_authenticated', 'This payment was already authenticated; initialize a new one');
    return { referenceId: setup.referenceId, deviceDataCollectionUrl: setup.deviceDataCollectionUrl, accessToken: setup.accessToken };
  }

  /** The tenant's authentication for a live token; 401 otherwise (the spec's "bad token"). */
  async authentication(tenantId: string, token: string): Promise<ThreeDsRecord> {
    const auth =
      typeof token === 'string' && /^[A-Za-z0-9_-]{20,100}$/.test(token)
        ? await this.repo.findByToken(tenantId, tokenHash(token), this.clock.now())
        : null;
    if (!auth)
      throw ThreeDsErrors.error('invalid_payment_token', 'The token is unknown or expired; call POST /v1/acquiring/payments/initialize');
    return auth;
  }

  /** The card of a call: exactly one of cardNumber, storedCardSlug, transactionTokenSlug. */
  async card(tenantId: string, ref: ThreeDsCardReference): Promise<ThreeDsCard> {
    const given = [ref.cardNumber, ref.storedCardSlug, ref.transactionTokenSlug].filter((v) => v !== undefined);
    if (given.length !== 1) {
      throw ThreeDsErrors.error('validation_error', 'The request has invalid fields', {
        details: [
          { field: 'cardNumber', code: 'exactlyOne', message: 'give exactly one of cardNumber, storedCardSlug or transactionTokenSlug' },
        ],
      });
    }
    const found = await this.cards.resolve(tenantId, ref);
    if (found.ok) return found.card;
    if (found.reason === 'invalid_card_number') {
      throw ThreeDsErrors.error('validation_error', 'The request has invalid fields', {
        details: [{ field: 'cardNumber', code: 'card_number', message: 'card number is not valid' }],
      });
    }
    throw ThreeDsErrors.error('card_not_found', 'No such stored card or live token for this tenant');
  }
}
