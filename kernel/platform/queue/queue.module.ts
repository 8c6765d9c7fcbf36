import { Global, Module } from '@nestjs/common';
import { JobQueue } from './job-queue';

/** The job queue, for an app whose migrations make its `jobs` table (the service's). */
@Global()
@Module({ providers: [JobQueue], exports: [JobQueue] })
export class QueueModule {}
