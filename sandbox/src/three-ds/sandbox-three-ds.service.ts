import { toCents } from '../../../kernel/common/formats/money';
import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { cardBrand, isLuhnValid } from '../../../kernel/common/formats/pan';
import { ecisFor, threeDsOutcome } from '../cards/three-ds-cards';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { SandboxThreeDsConfig } from './sandbox-three-ds.config';
import { SandboxThreeDsRepository, SandboxTransaction } from './sandbox-three-ds.repository';
import type { ThreeDsServerResult } from '../../../kernel/common/protocols/three-ds-server';

/** Merchant document the sandbox 3DS server does not know (403 merchant_not_found). */
export const SANDBOX_UNKNOWN_MERCHANT = '99999999000191';

export class SandboxAnswer {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {}
}

export type ChallengeSubmit =
  { kind: 'done'; tx: SandboxTransaction } | { kind: 'retry'; tx: SandboxTransaction; attemptsLeft: number } | { kind: 'unknown' };

/**
 * The sandbox 3DS server: Cardinal-like setup (referenceId, device data collection), authenticate
 * with outcomes by the Cardinal test cards (src/cards/domain/three-ds-cards.ts), and an ACS
 * challenge that asks for a one-time code. Its state is in PostgreSQL (every replica agrees);
 * it never stores a card number.
 */
@Injectable()
export class SandboxThreeDsService {
  private readonly publicUrl: string;

  constructor(
    private readonly repo: SandboxThreeDsRepository,
    private readonly clock: Clock,
    private readonly config: SandboxThreeDsConfig,
    platform: PlatformConfig,
  ) {
    this.publicUrl = platform.publicUrl;
  }

  async setup(body: { merchantDocument?: unknown; cardNumber?: unknown }): Promise<SandboxAnswer> {
    const refusal = this.refuse(body);
    if (refusal) return refusal;
    const pan = String(body.cardNumber);
    const referenceId = randomUUID();
    await this.repo.create(referenceId, String(body.merchantDocument), cardBrand(pan), pan.slice(-4), this.clock.now());
    return new SandboxAnswer(201, {
      referenceId,
      deviceDataCollectionUrl: `${this.publicUrl}/sandbox/three-ds/ddc?referenceId=${referenceId}`,
      accessToken: sandboxJwt({ referenceId, iat: Math.floor(this.clock.now().getTime() / 1000) }),
    });
  }

  async authenticate(body: Record<string, unknown>): Promise<SandboxAnswer> {
    const refusal = this.refuse(body);
    if (refusal) return refusal;
    const tx = typeof body.referenceId === 'string' ? await this.repo.find(body.referenceId) : null;
    if (!tx) return new SandboxAnswer(404, { error: 'reference_not_found' });
    if (tx.merchantDocument !== body.merchantDocument) return new SandboxAnswer(403, { error: 'merchant_not_found' });
    if (tx.status !== 'SETUP') return new SandboxAnswer(200, { ...this.result(tx) });
    const decision = decisionFor(String(body.cardNumber));
    const amountCents = typeof body.amount === 'string' && /^\d+(\.\d{1,2})?$/.test(body.amount) ? toCents(Number(body.amount)) : null;
    const notificationUrl = typeof body.notificationUrl === 'string' ? body.notificationUrl : null;
    // Cardinal's "error on authentication" card: the directory server is not reachable.
    if (decision.outcome.kind === 'error')
      return new SandboxAnswer(502, { error: 'ds_unavailable', message: 'directory server communication error' });
    return new SandboxAnswer(200, { ...this.result(await this.applyDecision(tx.referenceId, decision, amountCents, notificationUrl)) });
  }

  /**
   * Authenticates a transaction in SETUP with an outcome decided from its card (decisionFor):
   * frictionless, or a pending challenge on the ACS page. Shared by the Adyen face, which keeps
   * the decision between its calls instead of the card number. Answers the transaction after.
   */
  async applyDecision(
    referenceId: string,
    decision: SandboxThreeDsDecision,
    amountCents: number | null,
    notificationUrl: string | null,
  ): Promise<SandboxTransaction> {
    const { outcome, eci } = decision;
    const base = {
      outcome: outcome.kind,
      amountCents,
      dsTransactionId: randomUUID(),
      eciAfterY: null,
      eciAfterN: null,
      acsTransactionId: null,
      notificationUrl: null,
    };
    let saved: SandboxTransaction | null;
    if (outcome.kind !== 'error' && outcome.challenge) {
      saved = await this.repo.authenticate(
        referenceId,
        {
          ...base,
          status: 'CHALLENGE_PENDING',
          transStatus: 'C',
          eci: null,
          cavv: null,
          acsTransactionId: randomUUID(),
          eciAfterY: eci.authenticated,
          eciAfterN: eci.notAuthenticated,
          notificationUrl,
        },
        this.clock.now(),
      );
    } else if (outcome.kind !== 'error') {
      saved = await this.repo.authenticate(
        referenceId,
        {
          ...base,
          status: 'FRICTIONLESS',
          transStatus: outcome.transStatus,
          eci: outcome.eci,
          cavv: outcome.transStatus === 'Y' ? cavv() : null,
        },
        this.clock.now(),
      );
    } else saved = null;
    return saved ?? (await this.repo.find(referenceId))!;
  }

  /** The transaction of a referenceId (any state), or null. */
  find(referenceId: string): Promise<SandboxTransaction | null> {
    return this.repo.find(referenceId);
  }

  /** The server's result view of a transaction (what `authenticate` and `transactions/:id` answer). */
  view(tx: SandboxTransaction): ThreeDsServerResult {
    return this.result(tx);
  }

  async resultOf(referenceId: string): Promise<SandboxAnswer> {
    const tx = await this.repo.find(referenceId);
    if (!tx || tx.status === 'SETUP') return new SandboxAnswer(404, { error: 'reference_not_found' });
    return new SandboxAnswer(200, { ...this.result(tx) });
  }

  async collectDeviceData(referenceId: string, data: Record<string, unknown>): Promise<boolean> {
    const clean = Object.fromEntries(
      Object.entries(data ?? {})
        .filter(([k, v]) => /^[A-Za-z]{1,40}$/.test(k) && ['string', 'number', 'boolean'].includes(typeof v))
        .slice(0, 20),
    );
    return this.repo.saveDeviceData(referenceId, clean, this.clock.now());
  }

  challenge(acsTransactionId: string): Promise<SandboxTransaction | null> {
    return this.repo.findByAcs(acsTransactionId);
  }

  /** The cardholder's answer on the ACS page: the one-time code, or cancel. */
  async submitChallenge(acsTransactionId: string, form: { otp?: unknown; action?: unknown }): Promise<ChallengeSubmit> {
    const tx = await this.repo.findByAcs(acsTransactionId);
    if (!tx) return { kind: 'unknown' };
    if (tx.status !== 'CHALLENGE_PENDING') return { kind: 'done', tx };
    if (form.action !== 'cancel' && form.otp !== this.config.otp) {
      const after = await this.repo.wrongOtp(acsTransactionId, this.clock.now());
      if (after && after.otpAttempts < 3) return { kind: 'retry', tx: after, attemptsLeft: 3 - after.otpAttempts };
    }
    const passed = form.action !== 'cancel' && form.otp === this.config.otp && tx.outcome === 'challenge_success';
    const done = await this.repo.completeChallenge(
      acsTransactionId,
      passed ? 'Y' : 'N',
      passed ? tx.eciAfterY! : tx.eciAfterN!,
      passed ? cavv() : null,
      this.clock.now(),
    );
    return { kind: 'done', tx: done ?? (await this.repo.findByAcs(acsTransactionId))! };
  }

  /** The EMV CRes the ACS posts through the browser to the 3DS requestor's notification URL. */
  cres(tx: SandboxTransaction): string {
    const body = {
      threeDSServerTransID: tx.referenceId,
      acsTransID: tx.acsTransactionId,
      messageType: 'CRes',
      messageVersion: '2.2.0',
      transStatus: tx.transStatus,
    };
    return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
  }

  private refuse(body: { merchantDocument?: unknown; cardNumber?: unknown }): SandboxAnswer | null {
    if (typeof body.merchantDocument !== 'string' || !/^(\d{11}|\d{14})$/.test(body.merchantDocument))
      return new SandboxAnswer(400, { error: 'invalid_merchant_document' });
    if (body.merchantDocument === SANDBOX_UNKNOWN_MERCHANT) return new SandboxAnswer(403, { error: 'merchant_not_found' });
    if (typeof body.cardNumber !== 'string' || !/^\d{12,19}$/.test(body.cardNumber) || !isLuhnValid(body.cardNumber))
      return new SandboxAnswer(400, { error: 'invalid_card_number' });
    return null;
  }

  private result(tx: SandboxTransaction): ThreeDsServerResult {
    const r: ThreeDsServerResult = {
      referenceId: tx.referenceId,
      transStatus: tx.transStatus ?? 'C',
      dsTransactionId: tx.dsTransactionId!,
      challenged: tx.status === 'CHALLENGE_COMPLETE',
    };
    if (tx.eci) r.eci = tx.eci;
    if (tx.cavv) r.cavv = tx.cavv;
    if (tx.acsTransactionId) {
      r.acsTransactionId = tx.acsTransactionId;
      if (tx.status === 'CHALLENGE_PENDING') r.challengeUrl = `${this.publicUrl}/sandbox/three-ds/challenge/${tx.acsTransactionId}`;
    }
    return r;
  }
}

/** The 3DS outcome a card number gets (Cardinal's test cards), and its ECIs by brand. */
export interface SandboxThreeDsDecision {
  outcome: ReturnType<typeof threeDsOutcome>;
  eci: ReturnType<typeof ecisFor>;
}

export function decisionFor(pan: string): SandboxThreeDsDecision {
  return { outcome: threeDsOutcome(pan), eci: ecisFor(pan) };
}

/** A CAVV as Cardinal formats it: 20 bytes, base64. */
function cavv(): string {
  return randomBytes(20).toString('base64');
}

/** JWT-shaped access token of the device data collection (the sandbox does not verify it). */
function sandboxJwt(payload: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}`;
  return `${unsigned}.${createHmac('sha256', 'sandbox-three-ds').update(unsigned).digest('base64url')}`;
}
