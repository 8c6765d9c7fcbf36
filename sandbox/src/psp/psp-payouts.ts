import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { centsToDecimalString } from '../../../kernel/common/formats/money';
import { Clock } from '../../../kernel/platform/clock/clock';
import { Row } from '../../../kernel/platform/database/sql';
import * as sql from '../../../kernel/platform/database/sql';
import { newEndToEndId } from './psp-pix.face';
import { SandboxPspErrors } from './sandbox-psp.errors';

/** The payee's account when the payout is not sent to a key. */
export interface PayoutAccount {
  ispb: string;
  agencia: string;
  conta: string;
  tipoConta: 'CACC' | 'SVGS' | 'TRAN';
  nome?: string;
  cpf?: string;
  cnpj?: string;
}

export interface PayoutView {
  endToEndId: string;
  valor: string;
  chave?: string;
  account?: PayoutAccount;
  descricao?: string;
  status: 'REALIZADO';
  horario: string;
}

/**
 * Pix the merchant sends from its account at the sandbox PSP (sandbox only: API Pix has no
 * operation that sends a Pix). A boleto paid by clearing is refunded this way: the payout's
 * endToEndId is what the tenant confirms the refund with. Each payout is recorded, REALIZADO at
 * once, and can be read back by its endToEndId.
 */
@Injectable()
export class PspPayouts {
  constructor(
    private readonly ds: DataSource,
    private readonly clock: Clock,
  ) {}

  async send(p: { cents: number; chave?: string; account?: PayoutAccount; descricao?: string }): Promise<PayoutView> {
    if ((p.chave === undefined) === (p.account === undefined))
      throw SandboxPspErrors.error('payout_invalid', 'Give the payee as either chave or account, not both');
    const at = this.clock.now();
    const [r] = await sql.rows<Row<'sandbox_psp_payouts'>>(
      this.ds,
      `INSERT INTO sandbox_psp_payouts (end_to_end_id, amount_cents, chave, account, descricao, status, created_at)
       VALUES ($1, $2, $3, $4::jsonb, $5, 'REALIZADO', $6) RETURNING *`,
      [newEndToEndId(at), p.cents, p.chave ?? null, p.account ? JSON.stringify(p.account) : null, p.descricao ?? null, at],
    );
    return view(r);
  }

  async find(e2eid: string): Promise<PayoutView> {
    const r = /^[A-Za-z0-9]{32}$/.test(e2eid)
      ? await sql.maybeOne<Row<'sandbox_psp_payouts'>>(this.ds, `SELECT * FROM sandbox_psp_payouts WHERE end_to_end_id = $1`, [e2eid])
      : null;
    if (!r) throw SandboxPspErrors.error('payout_not_found', 'The sandbox PSP sent no payout with this endToEndId');
    return view(r);
  }
}

function view(r: Row<'sandbox_psp_payouts'>): PayoutView {
  return {
    endToEndId: r.end_to_end_id,
    valor: centsToDecimalString(Number(r.amount_cents)),
    ...(r.chave !== null ? { chave: r.chave } : {}),
    ...(r.account !== null ? { account: r.account as PayoutAccount } : {}),
    ...(r.descricao !== null ? { descricao: r.descricao } : {}),
    status: 'REALIZADO',
    horario: new Date(r.created_at).toISOString(),
  };
}
