import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { buildBrCode } from '../../../kernel/common/formats/brcode';
import { centsToDecimalString } from '../../../kernel/common/formats/money';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PixChargeResult } from '../acquirer.port';
import { BoletoPixRequest, BoletoPixResult, PixChargeRefused, PixChargeRequest, PixChargesPort } from '../pix-charges.port';
import { PixApiClient, PixApiRejection } from './pix-api-client';
import { PixApiConfig } from './pix-api.config';
import * as sql from '../../../kernel/platform/database/sql';

/** The name a cobv gives the boleto's digitable line in `infoAdicionais` (the payer's bank shows it). */
export const BOLETO_LINE_INFO = 'Linha digitavel';

/** What PUT /cob and PUT /cobv answer that we read (CobGerada, CobVGerada). */
interface ChargeAnswer {
  txid?: string;
  calendario?: { criacao?: string; expiracao?: number };
  location?: string;
  loc?: { location?: string };
  pixCopiaECola?: string;
}

/** Our transaction id (a UUID) as a txid: its 32 hex digits (the standard: 26–35 letters and digits). */
export function txidOf(transactionId: string): string {
  const t = transactionId.replace(/-/g, '');
  if (!/^[a-zA-Z0-9]{26,35}$/.test(t)) throw new Error(`transaction id ${transactionId} cannot be a txid`);
  return t;
}

/** PessoaFisica / PessoaJuridica from a CPF or CNPJ (digits) and a name. */
export function devedorOf(name: string, taxId: string | null | undefined): Record<string, string> | undefined {
  const digits = (taxId ?? '').replace(/\D/g, '');
  const nome = name.trim().slice(0, 200);
  if (!nome) return undefined;
  if (digits.length === 11) return { cpf: digits, nome };
  if (digits.length === 14) return { cnpj: digits, nome };
  return undefined;
}

/**
 * PixChargesPort over API Pix (BANK_PROVIDER=pix-api). A link's Pix is a location
 * (`POST /loc` tipoCob cob) and `PUT /cob/{txid}` on it, txid = our transaction id; the payer
 * sees the PSP's `pixCopiaECola`, a dynamic BR Code carrying the location URL, valid
 * `calendario.expiracao` seconds. A boleto's Pix QR is `PUT /cobv/{txid}` with the boleto's due
 * date (valid that day only, like the boleto), the payer as devedor and the digitable line in
 * `infoAdicionais`. Each charge is recorded (`pix_api_charges`) before it is asked for, so a Pix
 * the PSP reports is matched to our transaction and checked against its amount.
 */
@Injectable()
export class PixApiCharges extends PixChargesPort {
  readonly provider = 'pix-api' as const;

  constructor(
    private readonly ds: DataSource,
    private readonly client: PixApiClient,
    private readonly config: PixApiConfig,
    private readonly clock: Clock,
  ) {
    super();
  }

  async createCharge(req: PixChargeRequest): Promise<PixChargeResult> {
    const txid = txidOf(req.transactionId);
    const now = this.clock.now();
    await this.record(txid, 'cob', req.transactionId, req.amountCents, new Date(now.getTime() + req.expiresInSeconds * 1000), null);
    const devedor = devedorOf(req.payerName ?? '', req.payerTaxId);
    const cob = await this.put('cob', txid, {
      calendario: { expiracao: req.expiresInSeconds },
      ...(devedor ? { devedor } : {}),
      valor: { original: centsToDecimalString(req.amountCents) },
      chave: this.config.pixKey,
      ...(req.merchantName ? { solicitacaoPagador: `Pagamento a ${req.merchantName.trim()}`.slice(0, 140) } : {}),
    });
    const criacao = Date.parse(cob.calendario?.criacao ?? '');
    const expiracao = cob.calendario?.expiracao ?? req.expiresInSeconds;
    const expiresAt = new Date((Number.isNaN(criacao) ? now.getTime() : criacao) + expiracao * 1000);
    await sql.rows(this.ds, `UPDATE pix_api_charges SET expires_at = $2 WHERE txid = $1`, [txid, expiresAt]);
    return { txid, brCode: this.brCode(cob, req.merchantName), expiresAt: expiresAt.toISOString(), status: 'PENDING' };
  }

  async boletoPix(req: BoletoPixRequest): Promise<BoletoPixResult> {
    const txid = txidOf(req.transactionId);
    await this.record(txid, 'cobv', req.transactionId, req.amountCents, null, req.dueDate);
    const devedor = devedorOf(req.payer.name, req.payer.taxId);
    if (!devedor)
      throw new PixChargeRefused(400, 'CobVOperacaoInvalida', 'A Pix charge with a due date needs the payer’s CPF or CNPJ and name', [
        { field: 'payer.taxId', message: 'CPF or CNPJ required' },
      ]);
    const cobv = await this.put('cobv', txid, {
      calendario: { dataDeVencimento: req.dueDate, validadeAposVencimento: 0 },
      devedor,
      valor: { original: centsToDecimalString(req.amountCents) },
      chave: this.config.pixKey,
      infoAdicionais: [{ nome: BOLETO_LINE_INFO, valor: req.boleto.digitableLine }],
    });
    return { txid, brCode: this.brCode(cobv) };
  }

  /** A location of the type, then the charge on it; a PSP refusal becomes PixChargeRefused. */
  private async put(kind: 'cob' | 'cobv', txid: string, body: Record<string, unknown>): Promise<ChargeAnswer> {
    try {
      const loc = await this.client.call<{ id: number }>({
        operation: 'postLoc',
        method: 'POST',
        path: '/loc',
        body: { tipoCob: kind },
        idempotent: true,
      });
      return await this.client.call<ChargeAnswer>({
        operation: kind === 'cob' ? 'putCob' : 'putCobv',
        method: 'PUT',
        path: `/${kind}/${encodeURIComponent(txid)}`,
        body: { ...body, loc: { id: loc.id, tipoCob: kind } },
        idempotent: true,
      });
    } catch (e) {
      if (e instanceof PixApiRejection) throw refusal(e);
      throw e;
    }
  }

  /** One row per charge asked for (a retried attempt keeps the first). */
  private async record(
    txid: string,
    kind: 'cob' | 'cobv',
    transactionId: string,
    amountCents: number,
    expiresAt: Date | null,
    dueDate: string | null,
  ): Promise<void> {
    await sql.rows(
      this.ds,
      `INSERT INTO pix_api_charges (txid, kind, transaction_id, amount_cents, expires_at, due_date, created_at) VALUES ($1, $2, $3, $4, $5, $6, now())
       ON CONFLICT (txid) DO NOTHING`,
      [txid, kind, transactionId, amountCents, expiresAt, dueDate],
    );
  }

  /** The PSP's copy-and-paste code; a PSP that gives only the location gets a dynamic BR Code made from it. */
  private brCode(a: ChargeAnswer, merchantName?: string): string {
    if (a.pixCopiaECola) return a.pixCopiaECola;
    const url = a.location ?? a.loc?.location;
    if (!url) throw new PixChargeRefused(409, 'RespostaIncompleta', 'The PSP answered the charge without pixCopiaECola or location', []);
    return buildBrCode({
      url: url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, ''),
      merchantName: merchantName?.trim() || 'Recebedor',
      merchantCity: 'BRASIL',
      singleUse: true,
    });
  }
}

/** A PSP 4xx as the port's refusal: 400 for the request's content, 409 for the receiver's standing (key, contract, access). */
export function refusal(e: PixApiRejection): PixChargeRefused {
  const p = e.problem;
  const violations = (p.violacoes ?? []).map((v) => ({ field: v.propriedade, message: v.razao }));
  const text = [p.title, p.detail].filter(Boolean).join(' ');
  return new PixChargeRefused(
    p.status === 400 ? 400 : 409,
    e.problemName,
    `The PSP refused the Pix charge (${e.problemName})${text ? `: ${text}` : ''}`,
    violations,
  );
}
