import { Body, Controller, Post } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentTenant } from '../../gateway/tenant-context';
import type { TenantContext } from '../../../kernel/platform/http/tenant-context';
import { CardDataRoute } from '../../gateway/card-data-route';
import { ApiErrors } from '../../../kernel/platform/openapi/error-envelope.dto';
import { CardBody, TokenizationResultDto, TokenizeCardDto } from '../dto/tokenize.dto';
import { RequestId } from '../../../kernel/platform/http/request-id.param';
import { TokenizationResult, TokenizeCard } from './tokenize-card';

@ApiTags('card tokenization')
@CardDataRoute()
@Controller('v1/acquiring/tokenize-card')
export class TokenizeCardController {
  constructor(private readonly tokenizer: TokenizeCard) {}

  @Post()
  @ApiOperation({
    operationId: 'tokenizeCard',
    summary: 'Server-to-server tokenization: store a card in the vault and get the tokenization result',
    description:
      'Only for callers allowed to handle card data (PCI DSS scope). The same card gives the same slugStoredCard for a tenant. `Idempotency-Key` is not applied here (its stored request hash would be derived from the card data); a repeat is harmless.',
  })
  @ApiCreatedResponse({ type: TokenizationResultDto })
  @ApiErrors([
    400,
    'validation_error',
    'Invalid card data; `details[]` names the field and rule (card_number_check_digit, card_expired, security_code…)',
  ])
  @ApiBody({ type: TokenizeCardDto })
  tokenize(@CurrentTenant() t: TenantContext, @Body() body: CardBody, @RequestId() requestId: string): Promise<TokenizationResult> {
    return this.tokenizer.tokenize(t.tenantId, body, requestId);
  }
}
