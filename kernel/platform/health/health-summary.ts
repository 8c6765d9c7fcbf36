import { CheckStatus } from './health-registry';

/** What /health/ready says without the operator key: one status per class of dependency, nothing else. */
export interface ReadySummary {
  status: 'ok' | 'error';
  /** Classes that are up (a degraded one says `degraded: true`). */
  info: Record<string, { status: 'up'; degraded?: true }>;
  /** Classes that are down. */
  error: Record<string, { status: 'down' }>;
  /** Every class. */
  details: Record<string, { status: 'up' | 'down'; degraded?: true }>;
}

/** The summary of the worst status per class: the shape of the detailed answer, keyed by class. */
export function summarize(classes: Record<string, CheckStatus>): ReadySummary {
  const out: ReadySummary = { status: 'ok', info: {}, error: {}, details: {} };
  for (const name of Object.keys(classes).sort()) {
    const s = classes[name];
    if (s === 'down') {
      out.status = 'error';
      out.error[name] = out.details[name] = { status: 'down' };
    } else out.info[name] = out.details[name] = s === 'degraded' ? { status: 'up', degraded: true } : { status: 'up' };
  }
  return out;
}

const up = { status: 'up' } as const;

export const READY_SUMMARY_EXAMPLE: ReadySummary = summarize({
  acquirer: 'up',
  bank: 'up',
  database: 'up',
  email: 'up',
  process: 'up',
  redis: 'up',
  webhooks: 'degraded',
});

export const READY_DOWN_EXAMPLE: ReadySummary = summarize({ database: 'down', process: 'up', webhooks: 'up' });

const checks = {
  lifecycle: up,
  database: { status: 'up', migrations: 'applied' },
  backgroundJobs: { status: 'up', failing: [] },
  circuitBreakers: { status: 'up', degraded: true, 'bank.createRecurrence': 'closed', 'webhook:hooks.example.com': 'open' },
  rateLimitStore: { status: 'up', store: 'redis' },
  webhookOutbox: { status: 'up', lagMs: 0 },
};

export const READY_DETAILED_EXAMPLE = { status: 'ok', info: checks, error: {}, details: checks };

const down = { database: { status: 'down', error: 'timeout after 1000 ms' } };
const stillUp = { lifecycle: up, webhookOutbox: { status: 'up', lagMs: 0 } };
export const READY_DETAILED_DOWN_EXAMPLE = { status: 'error', info: stillUp, error: down, details: { ...stillUp, ...down } };

const byName = (description: string) => ({
  type: 'object',
  description,
  additionalProperties: {
    type: 'object',
    required: ['status'],
    properties: { status: { type: 'string', enum: ['up', 'down'] }, degraded: { type: 'boolean', enum: [true] } },
    additionalProperties: true,
  },
});

/** Both answers share terminus' shape: keyed by class of dependency (summary) or by check (details). */
export const READY_SCHEMA = {
  type: 'object',
  required: ['status', 'details'],
  properties: {
    status: { type: 'string', enum: ['ok', 'error', 'shutting_down'] },
    info: byName('What is up (by class without the operator key; by check, with their details, with it)'),
    error: byName('What is down'),
    details: byName('Everything'),
  },
};
