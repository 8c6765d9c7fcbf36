import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { AdminJobsController } from './admin-jobs.controller';

/** The operator's routes over the platform's own machinery (the job queue's dead jobs and their replay). */
@Module({ imports: [TenantsModule], controllers: [AdminJobsController] })
export class OperationsModule {}
