import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { DatabaseState } from '../database/database.state';
import { ShutdownState } from '../lifecycle/shutdown.state';
import { HealthRegistry } from './health-registry';
import * as sql from '../database/sql';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly ds: DataSource,
    private readonly db: DatabaseState,
    private readonly shutdown: ShutdownState,
    private readonly registry: HealthRegistry,
  ) {}

  /** Liveness: the process is up and its event loop answers. */
  @Get('live')
  @ApiOperation({ operationId: 'healthLive', summary: 'Liveness probe', security: [] })
  @ApiOkResponse({ description: 'The process is up', schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** Readiness: the database answers, migrations are applied, no draining, every dependency check. */
  @Get('ready')
  @HealthCheck()
  @ApiOperation({ operationId: 'healthReady', summary: 'Readiness probe', security: [] })
  @ApiOkResponse({
    description: 'Ready to serve',
    schema: { example: { status: 'ok', info: { database: { status: 'up' } }, error: {}, details: { database: { status: 'up' } } } },
  })
  @ApiServiceUnavailableResponse({ description: 'Not ready: draining, database down or migrations pending' })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthCheckResult> {
    try {
      return await this.checkAll();
    } catch (e) {
      // Probes and operators want the per-check detail, not the generic error envelope.
      if (!(e instanceof ServiceUnavailableException)) throw e;
      reply.status(503);
      return e.getResponse() as HealthCheckResult;
    }
  }

  private checkAll(): Promise<HealthCheckResult> {
    return this.health.check([
      async () => this.lifecycle(),
      async () => this.database(),
      ...this.registry.all().map((c) => async () => this.contributed(c.name, () => c.check())),
    ]);
  }

  private lifecycle(): HealthIndicatorResult {
    const i = this.indicator.check('lifecycle');
    return this.shutdown.isDraining() ? i.down({ draining: true }) : i.up();
  }

  private async database(): Promise<HealthIndicatorResult> {
    const i = this.indicator.check('database');
    if (!this.db.isReady()) return i.down({ migrations: 'pending', error: this.db.lastError ?? 'connecting' });
    try {
      await Promise.race([
        sql.rows(this.ds, 'SELECT 1'), // on the SQL pool, which carries every statement and transaction
        new Promise((_, rej) => setTimeout(() => rej(new Error('timeout after 1000 ms')), 1000).unref()),
      ]);
      return i.up({ migrations: 'applied' });
    } catch (e: any) {
      return i.down({ error: e?.message ?? 'unreachable' });
    }
  }

  private async contributed(
    name: string,
    run: () => ReturnType<import('./health-registry').ReadinessCheck['check']>,
  ): Promise<HealthIndicatorResult> {
    const i = this.indicator.check(name);
    try {
      const { status, ...details } = await run();
      return status === 'down' ? i.down(details) : i.up({ ...details, ...(status === 'degraded' ? { degraded: true } : {}) });
    } catch (e: any) {
      return i.down({ error: e?.message ?? 'check failed' });
    }
  }
}
