import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock, SystemClock } from './clock';
import { PeriodicJobs } from '../jobs/periodic-jobs';
import * as sql from '../database/sql';

/** Keeps the test-clock offset the same on every replica: the database holds it. */
@Injectable()
export class ClockSync {
  constructor(
    private readonly clock: Clock,
    private readonly ds: DataSource,
    jobs: PeriodicJobs,
  ) {
    jobs.schedule({ name: 'clock-sync', everyMs: 2000, immediately: true, run: () => this.refresh() });
  }

  async refresh(): Promise<void> {
    try {
      const rows = await sql.rows(this.ds, 'SELECT offset_ms FROM platform_clock WHERE id = 1');
      if (rows[0]) (this.clock as SystemClock).setOffset(Number(rows[0].offset_ms));
    } catch {
      /* the database check reports outages; the last offset stays in force */
    }
  }

  /**
   * Sets the offset to `ms` for every replica (the test clock only; the caller checks): absolute,
   * so a day the sandbox app sends twice moves the service's time once.
   */
  async set(ms: number): Promise<number> {
    await sql.rows(
      this.ds,
      `INSERT INTO platform_clock (id, offset_ms) VALUES (1, $1)
       ON CONFLICT (id) DO UPDATE SET offset_ms = EXCLUDED.offset_ms`,
      [ms],
    );
    (this.clock as SystemClock).setOffset(ms);
    return ms;
  }

  /** Moves the clock forward by `ms` for every replica (the test clock only; the caller checks). */
  async advance(ms: number): Promise<number> {
    const rows = await sql.rows(
      this.ds,
      `INSERT INTO platform_clock (id, offset_ms) VALUES (1, $1)
       ON CONFLICT (id) DO UPDATE SET offset_ms = platform_clock.offset_ms + EXCLUDED.offset_ms
       RETURNING offset_ms`,
      [ms],
    );
    const offset = Number(rows[0].offset_ms);
    (this.clock as SystemClock).setOffset(offset);
    return offset;
  }
}
