import { Body, CanActivate, Controller, Get, Headers, Injectable, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { i18nFor } from '../../../kernel/common/i18n';
import { PlatformErrors } from '../../../kernel/platform/errors/app-error';
import { SandboxThreeDsConfig } from './sandbox-three-ds.config';
import { ACS_SCRIPT, ACS_STYLE, challengeDonePage, challengePage, DDC_SCRIPT, ddcPage, Page } from './sandbox-three-ds.pages';
import { SandboxAnswer, SandboxThreeDsService } from './sandbox-three-ds.service';

/** Outside sandbox mode the sandbox 3DS server does not exist. */
@Injectable()
export class SandboxThreeDsEnabledGuard implements CanActivate {
  constructor(private readonly config: SandboxThreeDsConfig) {}

  canActivate(): boolean {
    if (!this.config.enabled) throw PlatformErrors.error('route_not_found', 'No route matches this method and path');
    return true;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function referenceOfJwt(jwt: unknown): string | null {
  if (typeof jwt !== 'string') return null;
  try {
    const payload = JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload?.referenceId === 'string' && UUID.test(payload.referenceId) ? payload.referenceId : null;
  } catch {
    return null;
  }
}

/**
 * The sandbox 3DS server (JSON API used by the service over HTTP) and its browser pages: device
 * data collection and the ACS challenge. Not part of the public API (excluded from OpenAPI);
 * documented in docs/guide/cards.md.
 */
@ApiExcludeController()
@UseGuards(SandboxThreeDsEnabledGuard)
@Controller('sandbox/three-ds')
export class SandboxThreeDsController {
  constructor(
    private readonly sandbox: SandboxThreeDsService,
    private readonly config: SandboxThreeDsConfig,
  ) {}

  @Post('setup')
  async setup(@Body() body: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    answer(reply, await this.sandbox.setup(body ?? {}));
  }

  @Post('authenticate')
  async authenticate(@Body() body: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    answer(reply, await this.sandbox.authenticate(body ?? {}));
  }

  @Get('transactions/:referenceId')
  async result(@Param('referenceId') referenceId: string, @Res() reply: FastifyReply): Promise<void> {
    answer(
      reply,
      UUID.test(referenceId) ? await this.sandbox.resultOf(referenceId) : new SandboxAnswer(404, { error: 'reference_not_found' }),
    );
  }

  @Get('ddc')
  ddc(
    @Query('referenceId') referenceId: string | undefined,
    @Headers('accept-language') lang: string | undefined,
    @Res() reply: FastifyReply,
  ): void {
    page(reply, ddcPage(i18nFor(lang), typeof referenceId === 'string' && UUID.test(referenceId) ? referenceId : null));
  }

  /** Cardinal-style: the merchant page posts a form with JWT=accessToken into the hidden iframe. */
  @Post('ddc')
  ddcForm(@Body() body: Record<string, unknown>, @Headers('accept-language') lang: string | undefined, @Res() reply: FastifyReply): void {
    page(reply, ddcPage(i18nFor(lang), referenceOfJwt(body?.JWT)));
  }

  @Post('ddc/:referenceId')
  async collect(
    @Param('referenceId') referenceId: string,
    @Body() body: Record<string, unknown>,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const ok = UUID.test(referenceId) && (await this.sandbox.collectDeviceData(referenceId, body ?? {}));
    reply.status(ok ? 204 : 404).send();
  }

  @Get('challenge/:acsTransactionId')
  async challenge(
    @Param('acsTransactionId') id: string,
    @Headers('accept-language') lang: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const t = i18nFor(lang);
    const tx = UUID.test(id) ? await this.sandbox.challenge(id) : null;
    if (tx && tx.status !== 'CHALLENGE_PENDING') return page(reply, challengeDonePage(t, tx, this.sandbox.cres(tx)));
    page(reply, challengePage(t, tx, this.config.otp));
  }

  @Post('challenge/:acsTransactionId')
  async submit(
    @Param('acsTransactionId') id: string,
    @Body() body: Record<string, unknown>,
    @Headers('accept-language') lang: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const t = i18nFor(lang);
    const r = UUID.test(id) ? await this.sandbox.submitChallenge(id, body ?? {}) : { kind: 'unknown' as const };
    if (r.kind === 'unknown') return page(reply, challengePage(t, null, this.config.otp));
    if (r.kind === 'retry') return page(reply, challengePage(t, r.tx, this.config.otp, r.attemptsLeft));
    page(reply, challengeDonePage(t, r.tx, this.sandbox.cres(r.tx)));
  }

  @Get('assets/ddc.js')
  ddcScript(@Res() reply: FastifyReply): void {
    asset(reply, 'application/javascript', DDC_SCRIPT);
  }

  @Get('assets/acs.js')
  acsScript(@Res() reply: FastifyReply): void {
    asset(reply, 'application/javascript', ACS_SCRIPT);
  }

  @Get('assets/acs.css')
  acsStyle(@Res() reply: FastifyReply): void {
    asset(reply, 'text/css', ACS_STYLE);
  }
}

function answer(reply: FastifyReply, a: SandboxAnswer): void {
  reply.status(a.status).header('cache-control', 'no-store').send(a.body);
}

function page(reply: FastifyReply, p: Page): void {
  reply.status(p.status).headers(p.headers).send(p.html);
}

function asset(reply: FastifyReply, type: string, body: string): void {
  reply
    .headers({ 'content-type': `${type}; charset=utf-8`, 'cache-control': 'public, max-age=300', 'x-content-type-options': 'nosniff' })
    .send(body);
}
