import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PageOf } from '../../../kernel/platform/pagination/pagination';

/** A Pix devolução the platform did not ask for: the payer's side started it by MED (Mecanismo Especial de Devolução). */
export class MedCaseDto {
  @ApiProperty({ example: '3a1f0c2e-9b8d-4e7f-a6c5-1d2e3f4a5b6c' })
  medCaseId: string;
  @ApiProperty({
    description: 'The payment the Pix paid (a link payment, a boleto, a billing)',
    example: '6f1c2a0e-5c1f-4f63-8e0a-1b2c3d4e5f60',
  })
  paymentId: string;
  @ApiProperty({ enum: ['link_payment', 'billing'], example: 'link_payment' })
  paymentKind: string;
  @ApiProperty({ description: 'The Pix it returns', example: 'E9999999920261126120000abcdefghij' })
  endToEndId: string;
  @ApiProperty({ description: "The PSP's id of the devolução", example: 'MEDK3J9Q0ZP2X8V7C6B5N4M3L2K1J0H9' })
  devolucaoId: string;
  @ApiPropertyOptional({ description: "The pacs.004's ReturnIdentification", example: 'D9999999920261126120000abcdefghij' })
  rtrId?: string;
  @ApiProperty({
    enum: ['MED_OPERACIONAL', 'MED_FRAUDE', 'MED_PIX_AUTOMATICO'],
    description:
      'MED_OPERACIONAL: an operational failure; MED_FRAUDE: a well-founded suspicion of fraud; MED_PIX_AUTOMATICO: a Pix Automático payment refunded to the payer',
    example: 'MED_FRAUDE',
  })
  natureza: string;
  @ApiProperty({ description: 'What it returns to the payer, BRL', example: 10.0 })
  amount: number;
  @ApiProperty({ enum: ['BRL'] })
  currency: 'BRL';
  @ApiProperty({
    enum: ['EM_PROCESSAMENTO', 'DEVOLVIDO', 'NAO_REALIZADO'],
    description: 'As the PSP reports it; EM_PROCESSAMENTO and DEVOLVIDO take the amount from what can be refunded',
    example: 'DEVOLVIDO',
  })
  status: string;
  @ApiPropertyOptional({ description: 'The text sent to the payer with it', example: 'Devolução MED' })
  descricao?: string;
  @ApiPropertyOptional({ description: "The PSP's words on its status", example: 'Conta do pagador encerrada' })
  motivo?: string;
  @ApiPropertyOptional({ example: '2026-11-26T12:00:05Z' })
  returnedAt?: string;
  @ApiProperty({ example: '2026-11-26T12:00:05Z' })
  createdAt: string;
  @ApiProperty({ example: '2026-11-26T12:00:05Z' })
  updatedAt: string;
}

export class MedCasePageDto extends PageOf(MedCaseDto) {}
