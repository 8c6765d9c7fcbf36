import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { Clock } from '../../../kernel/platform/clock/clock';
import { MetricsService } from '../../../kernel/platform/metrics/metrics.service';
import { CardsConfig } from '../cards.config';

interface Held {
  code: Buffer;
  /** business time (Clock) after which the token is expired */
  expiresAt: number;
  /** wall time after which the entry is dropped whatever the test clock says */
  dropAt: number;
}

/**
 * The security code (CVV) of a single-use `slugToken`, held ONLY in this process's memory until
 * the token is used or expires; never written to a log, a database column, Redis or disk.
 *
 * Consequence with several replicas (docs/decisions/cards.md): a payment with a slugToken that
 * reaches another replica, or arrives after a restart, finds no code here and is sent to the
 * acquirer as a card-on-file charge without the security code (the payment records
 * `securityCodePresented: false`). The token itself is single use across replicas (its
 * `used_at` column is set by a conditional UPDATE).
 */
@Injectable()
export class SecurityCodeStore implements OnApplicationShutdown {
  private readonly held = new Map<string, Held>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly clock: Clock,
    private readonly config: CardsConfig,
    metrics: MetricsService,
  ) {
    const held = this.held;
    new Gauge({
      name: 'card_security_codes_held',
      help: 'Security codes held in memory for unused slugTokens on this replica',
      registers: [metrics.registry],
      collect(this: Gauge) {
        this.set(held.size);
      },
    });
    this.sweeper = setInterval(() => this.sweep(), 30_000);
    this.sweeper.unref();
  }

  size(): number {
    return this.held.size;
  }

  /** Keeps the code for `tokenId` until `expiresAt`; false when the store is full (the code is then not kept). */
  put(tokenId: string, securityCode: string, expiresAt: Date): boolean {
    if (this.held.size >= this.config.securityCodeStoreMax) {
      this.sweep();
      if (this.held.size >= this.config.securityCodeStoreMax) return false;
    }
    const ttl = Math.max(0, expiresAt.getTime() - this.clock.now().getTime());
    this.held.set(tokenId, { code: Buffer.from(securityCode, 'utf8'), expiresAt: expiresAt.getTime(), dropAt: Date.now() + ttl });
    return true;
  }

  /** Whether a live code is held for the token (without taking it). */
  has(tokenId: string): boolean {
    const h = this.held.get(tokenId);
    return !!h && h.expiresAt > this.clock.now().getTime() && h.dropAt > Date.now();
  }

  /** Removes and answers the code (once); undefined when absent or expired. */
  take(tokenId: string): string | undefined {
    const h = this.held.get(tokenId);
    if (!h) return undefined;
    this.held.delete(tokenId);
    const alive = h.expiresAt > this.clock.now().getTime() && h.dropAt > Date.now();
    const code = alive ? h.code.toString('utf8') : undefined;
    h.code.fill(0);
    return code;
  }

  /** Forgets a code without using it. */
  discard(tokenId: string): void {
    const h = this.held.get(tokenId);
    if (h) h.code.fill(0);
    this.held.delete(tokenId);
  }

  sweep(): void {
    const now = this.clock.now().getTime();
    const wall = Date.now();
    for (const [id, h] of this.held) {
      if (h.expiresAt <= now || h.dropAt <= wall) {
        h.code.fill(0);
        this.held.delete(id);
      }
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweeper);
    for (const h of this.held.values()) h.code.fill(0);
    this.held.clear();
  }
}
