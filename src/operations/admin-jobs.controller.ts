import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../kernel/platform/openapi/error-envelope.dto';
import { JobQueue } from '../../kernel/platform/queue/job-queue';
import { AdminKeyGuard } from '../tenants/admin-key.guard';
import { DeadJobsQueryDto, JobDto, JobIdParamDto, JobListDto } from './jobs.dto';
import { OperationsErrors } from './operations.errors';

/** The operator's view of the job queue: what is dead, and a replay once its cause is fixed. */
@ApiTags('admin')
@ApiSecurity('adminKey')
@ApiErrors([401, 'admin_unauthorized', 'Missing or wrong X-Admin-Key'])
@UseGuards(AdminKeyGuard)
@Controller('admin/jobs')
export class AdminJobsController {
  constructor(private readonly queue: JobQueue) {}

  @Get('dead')
  @ApiOperation({
    operationId: 'adminListDeadJobs',
    summary: 'Dead jobs, newest first (operator)',
    description:
      'Jobs that failed as many times as their kind allows (an inbound report that could not be applied, a retry that never went through), with their last error. At most 100.',
  })
  @ApiOkResponse({ type: JobListDto })
  @ApiErrors(400)
  async dead(@Query() q: DeadJobsQueryDto): Promise<JobListDto> {
    return { items: await this.queue.dead(q.kind) };
  }

  @Post(':jobId/replay')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'adminReplayJob',
    summary: 'Replay a dead job (operator)',
    description: 'Makes a dead job due again with its attempts from zero; it runs within a second. Anything but a dead job answers 404.',
  })
  @ApiOkResponse({ type: JobDto })
  @ApiErrors(400, [404, 'job_not_found', 'No dead job has this id'])
  async replay(@Param() p: JobIdParamDto): Promise<JobDto> {
    const j = await this.queue.replay(p.jobId);
    if (!j) throw OperationsErrors.error('job_not_found', `No dead job has id ${p.jobId}`);
    return j;
  }
}
