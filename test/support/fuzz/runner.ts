import { request } from 'node:http';
import { FuzzCase } from './cases';

export interface FuzzAnswer {
  case: FuzzCase;
  status: number;
  body: any;
  text: string;
  contentType: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  byOperation: Record<string, Record<string, number>>;
  /** Each a rule of `judge` broken by one answer. */
  violations: { rule: string; op: string; name: string; status: number; body: string }[];
}

/** Raw HTTP (node:http, not fetch): any bytes as the body, any content type, no client-side fixes. */
export function send(base: string, c: FuzzCase): Promise<FuzzAnswer> {
  return new Promise((resolve) => {
    const u = new URL(base);
    const body = c.body === undefined ? undefined : Buffer.from(c.body, 'utf8');
    const headers: Record<string, string | number> = { ...c.headers };
    if (body) headers['content-length'] = body.length;
    const req = request({ host: u.hostname, port: u.port, method: c.method, path: c.url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (x: Buffer) => chunks.push(x));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: any = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = undefined;
        }
        resolve({ case: c, status: res.statusCode ?? 0, body: parsed, text, contentType: String(res.headers['content-type'] ?? '') });
      });
    });
    req.on('error', (e) => resolve({ case: c, status: 0, body: undefined, text: `client error: ${e.message}`, contentType: '' }));
    if (body) req.write(body);
    req.end();
  });
}

/**
 * The 500s the service interface itself documents (a provider's or the acquirer's failure, an
 * ad hoc billing on a recurrence not yet authorized): answers, not crashes. Every other 5xx is one.
 */
export const SPEC_500_CODES = new Set(['provider_error', 'provider_unavailable', 'recurrence_not_authorized', 'acquirer_unavailable']);

/**
 * The fuzz's rules for one answer: no 5xx but the document's own 500s, no 4xx outside the
 * envelope, no 2xx for input the document forbids.
 */
export function judge(a: FuzzAnswer): string[] {
  const out: string[] = [];
  if (a.status === 0) out.push('no answer');
  if (a.status >= 500 && !(a.status === 500 && SPEC_500_CODES.has(a.body?.error))) out.push('5xx');
  const htmlPage = a.contentType.startsWith('text/html') && a.case.htmlStatuses.includes(a.status);
  if (a.status >= 400 && !htmlPage) {
    const b = a.body;
    const inEnvelope =
      b &&
      typeof b === 'object' &&
      typeof b.error === 'string' &&
      /^[a-z][a-z0-9_]*$/.test(b.error) &&
      typeof b.message === 'string' &&
      typeof b.requestId === 'string' &&
      b.statusCode === a.status;
    if (!inEnvelope && a.status < 500) out.push('4xx outside the envelope');
  }
  if (a.status >= 200 && a.status < 300 && a.case.forbidden) out.push('2xx for forbidden input');
  return out;
}

/** Runs the cases a few at a time, in order, and tallies the answers. */
export async function runCases(
  base: string,
  cases: FuzzCase[],
  seed: number,
  concurrency = 4,
  before?: (c: FuzzCase) => Promise<void>,
): Promise<FuzzReport> {
  const report: FuzzReport = { seed, requests: 0, byStatus: {}, byOperation: {}, violations: [] };
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const c = cases[next++];
      if (before) await before(c);
      const a = await send(base, c);
      report.requests++;
      const s = String(a.status);
      report.byStatus[s] = (report.byStatus[s] ?? 0) + 1;
      (report.byOperation[c.op] ??= {})[s] = (report.byOperation[c.op][s] ?? 0) + 1;
      for (const rule of judge(a)) report.violations.push({ rule, op: c.op, name: c.name, status: a.status, body: a.text.slice(0, 300) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return report;
}

/** The report as a few lines of text: counts per status, then each violation. */
export function formatReport(r: FuzzReport): string {
  const statuses = Object.keys(r.byStatus).sort();
  const lines = [
    `fuzz: seed ${r.seed}, ${r.requests} requests over ${Object.keys(r.byOperation).length} operations`,
    `answers by status: ${statuses.map((s) => `${s}: ${r.byStatus[s]}`).join(', ')}`,
    `5xx: ${statuses.filter((s) => s >= '500').reduce((n, s) => n + r.byStatus[s], 0)} (undocumented: ${r.violations.filter((v) => v.rule === '5xx').length}); 4xx outside the envelope: ${r.violations.filter((v) => v.rule.startsWith('4xx')).length}; 2xx for forbidden input: ${r.violations.filter((v) => v.rule.startsWith('2xx')).length}`,
  ];
  for (const v of r.violations.slice(0, 200))
    lines.push(`  ${v.rule}: ${v.op} [${v.name}] → ${v.status} ${v.body.replace(/\s+/g, ' ').slice(0, 200)}`);
  if (r.violations.length > 200) lines.push(`  … and ${r.violations.length - 200} more`);
  return lines.join('\n');
}
