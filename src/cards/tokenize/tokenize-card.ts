import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { CardsConfig } from '../cards.config';
import { CardErrors } from '../cards.errors';
import { CardInput, ValidCard, validateCardInput } from '../domain/card-input';

const CARD_INPUT_FIELDS = new Set(['cardNumber', 'expirationMonth', 'expirationYear', 'securityCode', 'nickname']);
import { newId } from '../ids';
import { rfc3339, Sql } from '../sql';
import { SecurityCodeStore } from '../vault/security-code-store';
import { CardVault } from '../vault/card-vault';
import { StoredCardsRepository } from '../vault/stored-cards.repository';

/** The spec's tokenization result (also what the hosted page posts as `success.result`). */
export interface TokenizationResult {
  slugStoredCard: string;
  slugToken: string;
  tokenExpirationDate: string;
  brand: string;
  first4: string;
  last4: string;
  expirationMonth: string;
  expirationYear: string;
  nickname?: string;
  requestId: string;
}

/**
 * Tokenization: validate, encrypt the card number into the vault (or recognise the tenant's
 * stored card by its keyed fingerprint), issue a single-use token, keep the security code in
 * memory for that token only. Shared by the hosted page and the server-to-server route.
 */
@Injectable()
export class TokenizeCard {
  constructor(
    private readonly ds: DataSource,
    private readonly cards: StoredCardsRepository,
    private readonly vault: CardVault,
    private readonly codes: SecurityCodeStore,
    private readonly clock: Clock,
    private readonly config: CardsConfig,
  ) {}

  private day = { at: Number.NaN, today: '' };

  /**
   * Validates card input on the server; throws 400 validation_error with details. The body is
   * checked here rather than by the global ValidationPipe (class-validator cost a measurable
   * share of this hot route): not an object or unknown fields answer like the pipe would.
   */
  validate(input: unknown): ValidCard {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw CardErrors.error('validation_error', 'The request has invalid fields', {
        details: [{ field: 'body', code: 'isObject', message: 'the body must be a JSON object' }],
      });
    }
    const unknown = Object.keys(input).filter((k) => !CARD_INPUT_FIELDS.has(k));
    if (unknown.length) {
      throw CardErrors.error('validation_error', 'The request has invalid fields', {
        details: unknown.map((field) => ({ field, code: 'whitelistValidation', message: `${field} is not a known field` })),
      });
    }
    const r = validateCardInput(input as CardInput, this.today());
    if (!r.ok) {
      throw CardErrors.error('validation_error', 'The card data is invalid', {
        details: r.problems.map((p) => ({ field: p.field, code: p.code, message: p.message })),
      });
    }
    return r.card;
  }

  /** The business date, computed at most once a second (the time zone formatting is not free). */
  private today(): string {
    const now = this.clock.now().getTime();
    if (!(now >= this.day.at && now - this.day.at < 1000)) this.day = { at: now, today: this.clock.today() };
    return this.day.today;
  }

  async tokenize(tenantId: string, input: unknown, requestId: string): Promise<TokenizationResult> {
    const card = this.validate(input);
    return this.store(this.ds, tenantId, card, requestId);
  }

  /** Stores an already validated card (inside the caller's transaction when `db` is a manager). */
  async store(db: Sql, tenantId: string, card: ValidCard, requestId: string): Promise<TokenizationResult> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.tokenTtlSeconds * 1000);
    const candidateId = newId('sc');
    const tokenId = newId('tk');
    const first4 = card.pan.slice(0, 4);
    const last4 = card.pan.slice(-4);
    const storedCardId = await this.cards.saveWithToken(
      db,
      {
        id: candidateId,
        tenantId,
        fingerprint: this.vault.fingerprint(tenantId, card.pan),
        sealed: this.vault.seal(card.pan, candidateId),
        brand: card.brand,
        first4,
        last4,
        expMonth: card.expMonth,
        expYear: card.expYear,
        nickname: card.nickname,
        now,
      },
      { id: tokenId, expiresAt },
    );
    this.codes.put(tokenId, card.securityCode, expiresAt);
    const result: TokenizationResult = {
      slugStoredCard: storedCardId,
      slugToken: tokenId,
      tokenExpirationDate: rfc3339(expiresAt),
      brand: card.brand,
      first4,
      last4,
      expirationMonth: String(card.expMonth).padStart(2, '0'),
      expirationYear: String(card.expYear),
      requestId,
    };
    if (card.nickname) result.nickname = card.nickname;
    return result;
  }

  /** Forgets the security code of a token whose storing transaction rolled back. */
  forget(slugToken: string): void {
    this.codes.discard(slugToken);
  }
}
