import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { NestedObject } from '../../../kernel/common/dto/nested';
import { decimalStringToCents } from '../../../kernel/common/formats/money';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { SandboxEnabledGuard } from '../sandbox-enabled.guard';
import { SandboxErrors } from '../sandbox.errors';
import { PspDevolucaoSettlement } from './psp-devolucao.settlement';
import { devolucaoView, MED_NATUREZAS, MedNatureza } from './psp-devolucao.view';
import { PayoutAccount, PayoutView, PspPayouts } from './psp-payouts';

const VALOR = /^\d{1,10}\.\d{2}$/;

function cents(valor: string): number {
  const c = decimalStringToCents(valor);
  if (!c) throw SandboxErrors.error('invalid_request', 'valor must be above zero');
  return c;
}

export class InjectMedDto {
  @ApiProperty({ example: '10.00', pattern: VALOR.source, description: 'What the MED gives back to the payer (API Pix decimal string)' })
  @IsString()
  @Matches(VALOR)
  valor: string;
  @ApiProperty({
    enum: MED_NATUREZAS,
    description: 'A Pix of a cob/cobv: MED_OPERACIONAL or MED_FRAUDE; a Pix Automático payment: MED_FRAUDE or MED_PIX_AUTOMATICO',
  })
  @IsIn(MED_NATUREZAS)
  natureza: MedNatureza;
  @ApiPropertyOptional({ maxLength: 140, example: 'Devolução MED: fraude' })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  descricao?: string;
}

class DevolucaoHorarioDto {
  @ApiProperty({ example: '2026-12-01T15:00:00.000Z' })
  solicitacao: string;
  @ApiPropertyOptional({ example: '2026-12-01T15:00:00.000Z' })
  liquidacao?: string;
}

/** API Pix's Devolucao, as GET /pix/{e2eid} then lists it. */
export class SandboxDevolucaoDto {
  @ApiProperty({ example: 'MED4K2J9X0QW7E5R1T3Y6U8I0O2P4A6S8D' })
  id: string;
  @ApiProperty({ example: 'D9999999920261201150012345abcdefg' })
  rtrId: string;
  @ApiProperty({ example: '10.00' })
  valor: string;
  @ApiProperty({ enum: ['ORIGINAL', 'RETIRADA', ...MED_NATUREZAS] })
  natureza: string;
  @ApiPropertyOptional()
  descricao?: string;
  @ApiProperty({ type: DevolucaoHorarioDto })
  horario: DevolucaoHorarioDto;
  @ApiProperty({ enum: ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'] })
  status: string;
  @ApiPropertyOptional()
  motivo?: string;
}

export class PayoutAccountDto implements PayoutAccount {
  @ApiProperty({ example: '99999999' }) @IsString() @Matches(/^\d{8}$/) ispb: string;
  @ApiProperty({ example: '0001' }) @IsString() @Matches(/^\d{1,4}$/) agencia: string;
  @ApiProperty({ example: '123456' }) @IsString() @Matches(/^\d{1,20}$/) conta: string;
  @ApiProperty({ enum: ['CACC', 'SVGS', 'TRAN'] }) @IsIn(['CACC', 'SVGS', 'TRAN']) tipoConta: 'CACC' | 'SVGS' | 'TRAN';
  @ApiPropertyOptional({ maxLength: 140 }) @IsOptional() @IsString() @MaxLength(140) nome?: string;
  @ApiPropertyOptional({ example: '52998224725' }) @IsOptional() @IsString() @Matches(/^\d{11}$/) cpf?: string;
  @ApiPropertyOptional({ example: '11222333000181' }) @IsOptional() @IsString() @Matches(/^\d{14}$/) cnpj?: string;
}

export class SendPayoutDto {
  @ApiProperty({ example: '80.00', pattern: VALOR.source }) @IsString() @Matches(VALOR) valor: string;
  @ApiPropertyOptional({ description: "The payee's Pix key (or give account)", maxLength: 77, example: 'payer1@example.com' })
  @IsOptional()
  @IsString()
  @MaxLength(77)
  chave?: string;
  @ApiPropertyOptional({ type: PayoutAccountDto, description: "The payee's account (or give chave)" })
  @IsOptional()
  @NestedObject(() => PayoutAccountDto)
  account?: PayoutAccountDto;
  @ApiPropertyOptional({ maxLength: 140 }) @IsOptional() @IsString() @MaxLength(140) descricao?: string;
}

export class SandboxPayoutDto {
  @ApiProperty({ example: 'E9999999920261201150012345abcdefg', description: 'E + ISPB + yyyyMMddHHmm + 11 letters and digits' })
  endToEndId: string;
  @ApiProperty({ example: '80.00' }) valor: string;
  @ApiPropertyOptional() chave?: string;
  @ApiPropertyOptional({ type: PayoutAccountDto }) account?: PayoutAccountDto;
  @ApiPropertyOptional() descricao?: string;
  @ApiProperty({ enum: ['REALIZADO'] }) status: 'REALIZADO';
  @ApiProperty({ example: '2026-12-01T15:00:00.000Z' }) horario: string;
}

/**
 * The sandbox PSP's control routes on the main server: a MED devolução the receiver did not ask
 * for, and payouts (a Pix the merchant sends; API Pix has no standard operation for it).
 */
@ApiTags('sandbox')
@UseGuards(SandboxEnabledGuard)
@ApiErrors([404, 'sandbox_disabled', 'The sandbox is disabled'])
@Controller('sandbox/psp')
export class SandboxPspControlController {
  constructor(
    private readonly devolucoes: PspDevolucaoSettlement,
    private readonly payouts: PspPayouts,
  ) {}

  @Post('pix/:e2eid/med')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'sandboxInjectMed',
    summary: "Give a received Pix back by MED (the payer's side started it): a devolução DEVOLVIDO at once, and the PSP's Pix callback",
  })
  @ApiCreatedResponse({ type: SandboxDevolucaoDto })
  @ApiErrors(
    400,
    [404, 'sandbox_pix_not_found', 'The sandbox PSP received no such Pix'],
    [409, 'devolucao_over_pix', 'With the devoluções already made it would return more than the Pix'],
    [422, 'med_natureza_not_allowed', 'This natureza does not apply to this kind of Pix'],
  )
  async med(@Param('e2eid') e2eid: string, @Body() dto: InjectMedDto): Promise<SandboxDevolucaoDto> {
    const made = await this.devolucoes.injectMed(e2eid, {
      cents: cents(dto.valor),
      natureza: dto.natureza,
      descricao: dto.descricao ?? null,
    });
    return devolucaoView(made);
  }

  @Post('payouts')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'sandboxSendPayout',
    summary: 'Send a Pix from the merchant to a key or an account (sandbox only: API Pix has no operation that sends a Pix)',
  })
  @ApiCreatedResponse({ type: SandboxPayoutDto })
  @ApiErrors(400, [400, 'payout_invalid', 'Neither or both of chave and account'])
  send(@Body() dto: SendPayoutDto): Promise<PayoutView> {
    return this.payouts.send({ cents: cents(dto.valor), chave: dto.chave, account: dto.account, descricao: dto.descricao });
  }

  @Get('payouts/:e2eid')
  @ApiOperation({ operationId: 'sandboxGetPayout', summary: 'A payout the sandbox PSP sent, by its endToEndId' })
  @ApiOkResponse({ type: SandboxPayoutDto })
  @ApiErrors([404, 'payout_not_found', 'No payout with this endToEndId'])
  get(@Param('e2eid') e2eid: string): Promise<PayoutView> {
    return this.payouts.find(e2eid);
  }
}
