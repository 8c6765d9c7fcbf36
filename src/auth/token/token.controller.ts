import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOkResponse, ApiOperation, ApiResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { OAuthErrorDto, TokenDto, TokenRequestDto } from '../dto/token.dto';
import { TokenService } from './token.service';

const oauthErr = (status: number, code: string, description: string) =>
  ApiResponse({
    status,
    description,
    type: OAuthErrorDto,
    example: {
      statusCode: status,
      error: code,
      error_description: description,
      message: description,
      requestId: '3f9a1c1e-6f7e-4b8e-9d0a-2a2f4f1f7c11',
    },
  });

/** The hourly token call (RFC 6749 client credentials). JSON or form-encoded. */
@ApiTags('credentials')
@ApiExtraModels(TokenRequestDto)
@Controller('v1')
export class TokenController {
  constructor(private readonly tokens: TokenService) {}

  @Post(['oauth/token', 'auth/token'])
  @HttpCode(200)
  @ApiOperation({
    operationId: 'issueToken',
    summary: 'Exchange client_id and client_secret for a 1-hour bearer token (one operation, at /v1/oauth/token and /v1/auth/token)',
    description:
      'Limited per client id (TOKEN_RATE_LIMIT_PER_MINUTE, default 20) and per caller IP (TOKEN_IP_RATE_LIMIT_PER_MINUTE, default 100). No refresh token: call again to renew.',
    security: [],
  })
  @ApiConsumes('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ schema: { $ref: getSchemaPath(TokenRequestDto) } })
  @ApiOkResponse({ type: TokenDto })
  @oauthErr(
    400,
    'unsupported_grant_type',
    'grant_type is not client_credentials (`unsupported_grant_type`), or a field is missing (`invalid_request`)',
  )
  @oauthErr(401, 'invalid_client', 'Wrong, swapped or revoked client_id / client_secret')
  @ApiErrors(
    [403, 'ip_not_allowed', "The caller IP is not on the allow-list of the client's tenant (body carries `ip`)"],
    [429, 'rate_limited', 'Too many token calls for this client id or IP; see Retry-After'],
  )
  token(@Body() body: unknown, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<TokenDto> {
    return this.tokens.token(body, req, reply);
  }
}
