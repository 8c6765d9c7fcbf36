import { Controller, Get, Header } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { SDK_JS } from './sdk.client';

/** The embeddable checkout SDK, loaded by the caller's pages with a script tag. */
@ApiTags('checkout (public)')
@Controller('sdk')
export class SdkController {
  @Get('checkout.js')
  @ApiOperation({
    operationId: 'checkoutSdk',
    summary: 'Checkout SDK: ServiceCheckout.open({ slug, onSuccess, onClose }) opens the checkout in an overlay iframe',
  })
  @ApiProduces('text/javascript')
  @ApiOkResponse({ description: 'JavaScript', schema: { type: 'string' } })
  @Header('content-type', 'text/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  @Header('cross-origin-resource-policy', 'cross-origin')
  @Header('x-content-type-options', 'nosniff')
  sdk(): string {
    return SDK_JS;
  }
}
