import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import type { ErrorCode } from '../errors/app-error';

export class ErrorDetailDto {
  @ApiProperty({ example: 'payerTaxId' })
  field: string;
  @ApiProperty({ example: 'must be 11 (CPF) or 14 (CNPJ) digits with valid check digits' })
  message: string;
  @ApiPropertyOptional({ example: 'isTaxId' })
  code?: string;
}

/** The body of every error answer. */
export class ErrorEnvelopeDto {
  @ApiProperty({ example: 400 })
  statusCode: number;
  @ApiProperty({ description: 'Stable snake_case error code', example: 'validation_error' })
  error: string;
  @ApiProperty({ example: 'The request has invalid fields' })
  message: string;
  @ApiProperty({ example: '3f9a1c1e-6f7e-4b8e-9d0a-2a2f4f1f7c11' })
  requestId: string;
  @ApiPropertyOptional({ type: [ErrorDetailDto] })
  details?: ErrorDetailDto[];
  @ApiPropertyOptional({ description: 'The caller IP seen (403 ip_not_allowed)', example: '198.51.100.7' })
  ip?: string;
}

const DESCRIPTIONS: Record<number, [ErrorCode, string]> = {
  400: ['validation_error', 'Invalid parameters or malformed JSON'],
  401: ['invalid_token', 'Missing, invalid or expired credentials'],
  403: ['ip_not_allowed', 'The caller IP is not on the allow-list'],
  404: ['not_found', 'The resource does not exist for this tenant'],
  409: ['conflict', 'The resource is not in a state that allows this'],
  413: ['payload_too_large', 'Body larger than 1 MiB'],
  415: ['unsupported_media_type', 'Send application/json'],
  422: ['idempotency_key_reused', 'The Idempotency-Key was used with another body'],
  429: ['rate_limited', 'Too many requests; see Retry-After'],
  500: ['internal_error', 'Internal or provider error; retry at 1 s, 3 s, 9 s'],
  503: ['database_unavailable', 'A dependency is unavailable; retry shortly'],
};

/** One documented error answer: status, a code of a module's table, and what it means. */
export type ApiError = [number, ErrorCode, string?];

/** Documents error answers with the envelope schema; a tuple names a code (of a module's table, checked by type) and its description. */
export function ApiErrors(...statuses: (number | ApiError)[]) {
  return applyDecorators(
    ...statuses.map((s) => {
      const [status, code, description] = Array.isArray(s) ? s : [s, DESCRIPTIONS[s]?.[0] ?? 'error', undefined];
      return ApiResponse({
        status,
        description: description ?? DESCRIPTIONS[status]?.[1] ?? code,
        type: ErrorEnvelopeDto,
        example: {
          statusCode: status,
          error: code,
          message: description ?? DESCRIPTIONS[status]?.[1] ?? code,
          requestId: '3f9a1c1e-6f7e-4b8e-9d0a-2a2f4f1f7c11',
        },
      });
    }),
  );
}
