import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { CardsConfig } from '../cards.config';
import { CardErrors } from '../cards.errors';
import { newSecret, secretHash } from '../ids';
import { CardSessionsRepository, SessionView } from '../sessions/card-sessions.repository';
import { TokenizationResult, TokenizeCard } from '../tokenize/tokenize-card';
import { CardPageModel } from './card-page.view';
import { transaction } from '../../../kernel/platform/database/sql';

const SESSION_ID = /^hcs_[A-Za-z0-9_-]{16,64}$/;
const KEY = /^[A-Za-z0-9_-]{20,100}$/;

/** Browser request facts the hosted tokenize call is checked against. */
export interface PageCall {
  sessionId: string;
  pageKey: string | undefined;
  origin: string | undefined;
  fetchSite: string | undefined;
  requestId: string;
}

/**
 * The hosted card page: opening a session URL (single use) and the page's own same-origin
 * tokenize call, authorised by the page key handed to the page that opened the session.
 */
@Injectable()
export class HostedCardPageService {
  private readonly pageOrigin: string;

  constructor(
    private readonly ds: DataSource,
    private readonly sessions: CardSessionsRepository,
    private readonly tokenizer: TokenizeCard,
    private readonly clock: Clock,
    private readonly config: CardsConfig,
    platform: PlatformConfig,
  ) {
    this.pageOrigin = new URL(config.cardPageUrl ?? platform.publicUrl).origin;
  }

  async open(sessionId: string, urlKey: string | undefined, requestId: string): Promise<CardPageModel> {
    const today = this.clock.today();
    const expired = (status: 404 | 410, s: SessionView | null): CardPageModel => ({
      state: 'expired',
      status,
      requestId,
      parentOrigin: s ? parentOriginOf(s) : null,
      frameAncestors: s?.frameAncestors ?? [],
      today,
    });
    if (!SESSION_ID.test(sessionId) || typeof urlKey !== 'string' || !KEY.test(urlKey)) return expired(404, null);
    const pageKey = newSecret();
    const s = await this.sessions.open(sessionId, secretHash(urlKey), secretHash(pageKey), this.clock.now());
    if (!s) {
      const known = await this.sessions.peek(sessionId, secretHash(urlKey));
      return expired(known ? 410 : 404, known);
    }
    return {
      state: 'ready',
      status: 200,
      sessionId,
      pageKey,
      requestId,
      parentOrigin: parentOriginOf(s),
      frameAncestors: s.frameAncestors,
      today,
    };
  }

  async tokenize(call: PageCall, body: unknown): Promise<TokenizationResult> {
    if ((call.origin !== undefined && call.origin !== this.pageOrigin) || call.fetchSite === 'cross-site') {
      throw CardErrors.error('origin_not_allowed', 'The hosted card page posts only to its own origin');
    }
    const gone = () => CardErrors.error('session_expired', 'The card session is expired, already used or unknown; create a new session');
    if (!SESSION_ID.test(call.sessionId) || typeof call.pageKey !== 'string' || !KEY.test(call.pageKey)) throw gone();
    const pageKeyHash = secretHash(call.pageKey);
    const session = await this.sessions.findOpened(call.sessionId, pageKeyHash, this.clock.now());
    if (!session || session.failedAttempts >= this.config.sessionMaxFailedAttempts) throw gone();
    let card;
    try {
      card = this.tokenizer.validate(body);
    } catch (e) {
      await this.sessions.recordFailure(call.sessionId);
      throw e;
    }
    let slugToken: string | undefined;
    try {
      return await transaction(this.ds, async (m) => {
        const result = await this.tokenizer.store(m, session.tenantId, card, call.requestId);
        slugToken = result.slugToken;
        const used = await this.sessions.markUsed(m, call.sessionId, pageKeyHash, result.slugStoredCard, this.clock.now());
        if (!used) throw gone();
        return result;
      });
    } catch (e) {
      if (slugToken) this.tokenizer.forget(slugToken);
      throw e;
    }
  }
}

/** The session's parent origin, while it is still one of the tenant's frame ancestors. */
function parentOriginOf(s: SessionView): string | null {
  if (s.parentOrigin && s.frameAncestors.includes(s.parentOrigin)) return s.parentOrigin;
  return s.frameAncestors.length === 1 ? s.frameAncestors[0] : null;
}
