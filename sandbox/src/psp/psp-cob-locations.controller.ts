import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { createHash, createPrivateKey, createPublicKey, sign, X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import { Clock } from '../../../kernel/platform/clock/clock';
import { PlatformConfig } from '../../../kernel/platform/config/platform.config';
import { ensureDevCertificates } from '../../../kernel/platform/tls/dev-certificates';
import { SandboxEnabledGuard } from '../sandbox-enabled.guard';
import { PspAnswer, pspProblem } from './problems';
import { PspReceiver } from './psp-receiver';
import { PspCobStore } from './psp-cob.store';
import { payloadView } from './psp-cob.view';

const DAY = 86_400_000;

/**
 * The locations of the sandbox PSP's dynamic BR Codes (API Pix tag CobPayload): open URLs, no
 * mutual TLS, no token, as the standard requires — the payer's bank reads them. Each answers
 * the charge as a JWS (`application/jose`, ES256 with the PSP's development server key; `x5c`
 * carries its certificate and `jku` the key set at `/sandbox/qr/jwks`). Served on the main
 * server (the PSP's API port requires a client certificate).
 */
@ApiExcludeController()
@UseGuards(SandboxEnabledGuard)
@Controller('sandbox/qr')
export class SandboxPspCobLocationsController {
  private signer: { key: ReturnType<typeof createPrivateKey>; x5c: string; kid: string; jwk: object } | null = null;

  constructor(
    private readonly store: PspCobStore,
    private readonly receiver: PspReceiver,
    private readonly clock: Clock,
    private readonly platform: PlatformConfig,
  ) {}

  @Get('jwks')
  jwks() {
    return { keys: [this.keys().jwk] };
  }

  @Get('cobv/:token')
  async cobvPayload(
    @Param('token') token: string,
    @Query('codMun') codMun: string | undefined,
    @Query('DPP') dpp: string | undefined,
    @Res() reply: FastifyReply,
  ) {
    const violacoes: { razao: string; propriedade: string }[] = [];
    if (codMun !== undefined && !/^\d{7}$/.test(codMun)) violacoes.push({ razao: 'codMun não respeita o schema.', propriedade: 'codMun' });
    if (dpp !== undefined && (!/^\d{4}-\d{2}-\d{2}$/.test(dpp) || Number.isNaN(Date.parse(dpp))))
      violacoes.push({ razao: 'DPP não respeita o schema.', propriedade: 'DPP' });
    else if (dpp !== undefined && dpp < this.clock.today())
      violacoes.push({ razao: 'DPP anterior ao momento presente.', propriedade: 'DPP' });
    const answer = await this.payload('cobv', token, violacoes, dpp);
    return this.send(reply, answer);
  }

  @Get(':token')
  async cobPayload(@Param('token') token: string, @Res() reply: FastifyReply) {
    return this.send(reply, await this.payload('cob', token, []));
  }

  private async payload(
    kind: 'cob' | 'cobv',
    token: string,
    violacoes: { razao: string; propriedade: string }[],
    dpp?: string,
  ): Promise<PspAnswer> {
    const loc = /^[a-f0-9]{20,32}$/.test(token) ? await this.store.locationByToken(token) : null;
    const charge = loc?.tipoCob === kind && loc.txid ? await this.store.charge(loc.txid) : null;
    if (!charge)
      return pspProblem(
        404,
        'CobPayloadNaoEncontrado',
        'Cobrança não encontrada.',
        'A cobrança em questão não foi encontrada para a location requisitada.',
      );
    if (
      dpp &&
      charge.dueDate &&
      Date.parse(`${dpp}T00:00:00-03:00`) > Date.parse(`${charge.dueDate}T00:00:00-03:00`) + (charge.validadeAposVencimento ?? 30) * DAY
    ) {
      violacoes.push({ razao: 'DPP superior à validade da cobrança.', propriedade: 'DPP' });
    }
    if (violacoes.length)
      return pspProblem(
        400,
        'CobPayloadOperacaoInvalida',
        'Operação inválida.',
        'A cobrança existe, mas a requisição é inválida.',
        violacoes,
      );
    return { status: 200, headers: { 'content-type': 'application/jose' }, body: this.jws(payloadView(charge, this.clock.now())) };
  }

  private send(reply: FastifyReply, a: PspAnswer) {
    reply.status(a.status).header('cache-control', 'no-store');
    if (a.status === 200) return reply.header('content-type', 'application/jose').send(a.body as string);
    return reply.header('content-type', 'application/problem+json').send(JSON.stringify(a.body));
  }

  /** Compact JWS (RFC 7515), ES256 over the payload's JSON. */
  private jws(payload: unknown): string {
    const k = this.keys();
    const b64 = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
    const head = b64({ alg: 'ES256', typ: 'JOSE', kid: k.kid, jku: `${this.receiver.base()}/sandbox/qr/jwks`, x5c: [k.x5c] });
    const body = b64(payload);
    const sig = sign('sha256', Buffer.from(`${head}.${body}`), { key: k.key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    return `${head}.${body}.${sig}`;
  }

  private keys() {
    if (!this.signer) {
      const pki = ensureDevCertificates(join(this.platform.dataDir, 'psp-certs'));
      const cert = new X509Certificate(pki.serverCert);
      const kid = createHash('sha256').update(cert.raw).digest('base64url');
      const jwk = {
        ...createPublicKey(pki.serverCert).export({ format: 'jwk' }),
        kid,
        use: 'sig',
        alg: 'ES256',
        x5c: [cert.raw.toString('base64')],
      };
      this.signer = { key: createPrivateKey(pki.serverKey), x5c: cert.raw.toString('base64'), kid, jwk };
    }
    return this.signer;
  }
}
