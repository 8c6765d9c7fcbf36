import { Controller, Get, Headers, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { ADMIN_KEY_HEADER, AdminKey } from '../config/admin-key';
import { DatabaseState } from '../database/database.state';
import { ShutdownState } from '../lifecycle/shutdown.state';
import { CheckResult, CheckStatus, HealthRegistry, worst } from './health-registry';
import {
  READY_DETAILED_EXAMPLE,
  READY_DETAILED_DOWN_EXAMPLE,
  READY_DOWN_EXAMPLE,
  READY_SCHEMA,
  READY_SUMMARY_EXAMPLE,
  ReadySummary,
  summarize,
} from './health-summary';
import * as sql from '../database/sql';

/** One check's outcome: its indicator (the details) and its status per class of dependency (the summary). */
interface Ran {
  indicator: HealthIndicatorResult;
  classes: Record<string, CheckStatus>;
}

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
    private readonly adminKey: AdminKey,
  ) {}

  /** Liveness: the process is up and its event loop answers. */
  @Get('live')
  @ApiOperation({ operationId: 'healthLive', summary: 'Liveness probe', security: [] })
  @ApiOkResponse({ description: 'The process is up', schema: { example: { status: 'ok' } } })
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: the database answers, migrations are applied, no draining, every dependency check.
   * Unauthenticated (probes call it), so it says only up or down per class of dependency; the
   * operator key (the one `/admin` takes) shows every check's details, which name webhook hosts.
   */
  @Get('ready')
  @HealthCheck({ noCache: true, swaggerDocumentation: false })
  @ApiOperation({
    operationId: 'healthReady',
    summary: 'Readiness probe',
    description:
      'Without `X-Admin-Key`, or with a wrong one, one status per class of dependency (`process`, `database`, `redis`, `bank`, `acquirer`, `webhooks`, `email`; a class appears once something reports on it) and no detail. With the operator key (`ADMIN_API_KEY`), every check with its details: breakers by operation and webhook host, outbox lag, failing jobs. The status code is the same either way: 503 when a required dependency is down or the process is draining; a degraded one keeps 200.',
    security: [{}, { adminKey: [] }],
  })
  @ApiHeader({ name: 'X-Admin-Key', required: false, description: 'The operator key: every check’s details instead of the summary' })
  @ApiOkResponse({
    description: 'Ready to serve (the summary; with the operator key, the details)',
    content: {
      'application/json': {
        schema: READY_SCHEMA,
        examples: {
          summary: { summary: 'Without X-Admin-Key', value: READY_SUMMARY_EXAMPLE },
          details: { summary: 'With the operator key', value: READY_DETAILED_EXAMPLE },
        },
      },
    },
  })
  @ApiServiceUnavailableResponse({
    description: 'Not ready: draining, database down or migrations pending',
    content: {
      'application/json': {
        schema: READY_SCHEMA,
        examples: {
          summary: { summary: 'Without X-Admin-Key', value: READY_DOWN_EXAMPLE },
          details: { summary: 'With the operator key', value: READY_DETAILED_DOWN_EXAMPLE },
        },
      },
    },
  })
  async ready(
    @Headers(ADMIN_KEY_HEADER) key: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<HealthCheckResult | ReadySummary> {
    const ran = await this.runAll();
    if (!this.adminKey.matches(key)) {
      const classes: Record<string, CheckStatus> = {};
      for (const r of ran) for (const [c, s] of Object.entries(r.classes)) classes[c] = worst(classes[c], s);
      const summary = summarize(classes);
      if (summary.status !== 'ok') reply.status(503);
      return summary;
    }
    try {
      return await this.health.check(ran.map((r) => async () => r.indicator));
    } catch (e) {
      // Probes and operators want the per-check detail, not the generic error envelope.
      if (!(e instanceof ServiceUnavailableException)) throw e;
      reply.status(503);
      return e.getResponse() as HealthCheckResult;
    }
  }

  private runAll(): Promise<Ran[]> {
    return Promise.all([
      this.lifecycle(),
      this.database(),
      ...this.registry.all().map(async (c) => {
        const result = await this.contributed(c.check);
        const i = this.indicator.check(c.name);
        const { status, ...details } = result;
        return {
          indicator: status === 'down' ? i.down(details) : i.up({ ...details, ...(status === 'degraded' ? { degraded: true } : {}) }),
          classes: c.byDependency ? c.byDependency(result) : { [c.dependency]: status },
        };
      }),
    ]);
  }

  private async lifecycle(): Promise<Ran> {
    const i = this.indicator.check('lifecycle');
    const draining = this.shutdown.isDraining();
    return { indicator: draining ? i.down({ draining: true }) : i.up(), classes: { process: draining ? 'down' : 'up' } };
  }

  private async database(): Promise<Ran> {
    const i = this.indicator.check('database');
    if (!this.db.isReady())
      return { indicator: i.down({ migrations: 'pending', error: this.db.lastError ?? 'connecting' }), classes: { database: 'down' } };
    try {
      await Promise.race([
        sql.rows(this.ds, 'SELECT 1'), // on the SQL pool, which carries every statement and transaction
        new Promise((_, rej) => setTimeout(() => rej(new Error('timeout after 1000 ms')), 1000).unref()),
      ]);
      return { indicator: i.up({ migrations: 'applied' }), classes: { database: 'up' } };
    } catch (e: any) {
      return { indicator: i.down({ error: e?.message ?? 'unreachable' }), classes: { database: 'down' } };
    }
  }

  private async contributed(run: () => Promise<CheckResult>): Promise<CheckResult> {
    try {
      return await run();
    } catch (e: any) {
      return { status: 'down', error: e?.message ?? 'check failed' };
    }
  }
}
