import { Injectable, OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { randomChars } from '../../../kernel/common/random-ids';
import { Clock } from '../../../kernel/platform/clock/clock';
import { SandboxBoletoService } from '../acquirer/sandbox-boleto.service';
import { SandboxNotifier } from '../acquirer/sandbox-notifier';
import { PspPixFace, SandboxPixCharge, SandboxPixService } from '../acquirer/sandbox-pix.service';
import { Tx } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';
import { PspPixCallbacks } from './psp-pix.callbacks';

/** ISPB of the sandbox PSP in the endToEndIds it makes. */
const ISPB = '99999999';

/** `E` + ISPB + yyyyMMddHHmm (UTC) + 11 letters and digits: the SPI's endToEndId (32). */
export function newEndToEndId(at: Date): string {
  const t = at.toISOString();
  const stamp = t.slice(0, 4) + t.slice(5, 7) + t.slice(8, 10) + t.slice(11, 13) + t.slice(14, 16);
  return `E${ISPB}${stamp}${randomChars('abcdefghijklmnopqrstuvwxyz0123456789', 11)}`;
}

/**
 * What a payment of a PSP-face charge sets off, in the paying transaction: the received Pix
 * (`GET /pix`), its callback to `{webhookUrl}/pix` (an outbox row, posted after commit by
 * PspPixCallbacks), and, for a cobv printed on a boleto, the boleto itself (PAID_PIX, one bank).
 */
@Injectable()
export class SandboxPspPixFace implements PspPixFace, OnModuleInit {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
    private readonly pix: SandboxPixService,
    private readonly boletos: SandboxBoletoService,
    private readonly notifier: SandboxNotifier,
    private readonly callbacks: PspPixCallbacks,
  ) {}

  onModuleInit(): void {
    this.pix.attachPspFace(this);
  }

  async onPaid(m: Tx, charge: SandboxPixCharge): Promise<() => Promise<void>> {
    const now = this.clock.now();
    const e2e = newEndToEndId(now);
    await sql.rows(
      m,
      `INSERT INTO sandbox_psp_pix (end_to_end_id, txid, chave, amount_cents, paid_at)
       SELECT $1, txid, chave, amount_cents, $2 FROM sandbox_acquirer_pix_charges WHERE txid = $3`,
      [e2e, now, charge.txid],
    );
    const cb = await sql.rows(m, `INSERT INTO sandbox_psp_pix_callbacks (end_to_end_id) VALUES ($1) RETURNING id`, [e2e]);
    const notices = charge.boletoId ? await this.boletos.paidByItsCobvIn(m, charge.boletoId) : [];
    return async () => {
      await this.callbacks.deliverOne(cb[0].id);
      await this.notifier.deliverNow(notices);
    };
  }

  /** The txid a location URL (`…/sandbox/qr/{token}` or `…/sandbox/qr/cobv/{token}`) serves. */
  async txidAt(url: string): Promise<string | null> {
    const m = /\/sandbox\/qr\/(?:cobv\/)?([a-f0-9]{20,32})$/.exec(url);
    if (!m) return null;
    const rows = await sql.rows(this.ds, `SELECT txid FROM sandbox_psp_locations WHERE token = $1`, [m[1]]);
    return rows[0]?.txid ?? null;
  }
}
