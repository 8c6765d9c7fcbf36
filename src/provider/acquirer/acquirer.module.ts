import { Module } from '@nestjs/common';
import { AcquirerPort } from '../acquirer.port';
import { CardCharges } from './card-charges';
import { AcquirerEvents } from './acquirer-events';
import { AcquirerEventsController, RawBodyCapture } from './acquirer-events.controller';
import { HttpAcquirer } from './http-acquirer';
import { SelfOrigin } from '../../platform/http/self-origin';

/**
 * The acquirer client: import this module to inject `AcquirerPort` (links and cards do), and
 * `AcquirerEvents` to receive the acquirer's status notifications (`POST /provider/acquirer-events`).
 */
@Module({
  controllers: [AcquirerEventsController],
  providers: [SelfOrigin, HttpAcquirer, { provide: AcquirerPort, useExisting: HttpAcquirer }, AcquirerEvents, RawBodyCapture, CardCharges],
  exports: [AcquirerPort, SelfOrigin, AcquirerEvents, CardCharges],
})
export class AcquirerModule {}
