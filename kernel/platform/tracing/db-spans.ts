import { Attributes, context, SpanKind, trace } from '@opentelemetry/api';
import { activeTracer, failed } from './tracing';

/**
 * Database spans: one client span per statement sent to PostgreSQL, named by what the statement
 * is, never by what it carries. The name is the prepared statement's name when it has one
 * (`pix_recurrences.insert`), else its first keyword and its table (`SELECT links`,
 * `INSERT webhook_events`, `BEGIN`), read from the statement's text, which holds only `$n`
 * placeholders (values travel apart from it). The parameters are never read.
 *
 * A statement gets a span only inside a span that is recording (a sampled request, a job pass): a
 * pool's own chatter outside any request (the delivery worker's claims) starts no trace of its
 * own, and a request the sampler dropped costs its statements one context lookup. Tracing off:
 * one variable read.
 */
export function inDbSpan<T>(statement: string | { readonly name: string }, run: () => Promise<T>): Promise<T> {
  const tracer = activeTracer();
  if (!tracer) return run();
  const parent = context.active();
  if (!trace.getSpan(parent)?.isRecording()) return run();
  const name = typeof statement === 'string' ? summaryOf(statement) : statement.name;
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes: dbAttributes(name) }, parent);
  let pending: Promise<T>;
  try {
    pending = run();
  } catch (e) {
    failed(span, e);
    span.end();
    throw e;
  }
  return pending.then(
    (v) => {
      span.end();
      return v;
    },
    (e: unknown) => {
      failed(span, e); // error.type: the SQLSTATE (pg's `code`), never the message
      span.end();
      throw e;
    },
  );
}

const attributesByName = new Map<string, Attributes>();
const summaries = new Map<string, string>();
/** Fixed texts are few; a text built on the fly is summarised again rather than kept forever. */
const KEPT = 1000;

function dbAttributes(name: string): Attributes {
  let a = attributesByName.get(name);
  if (!a) {
    a = Object.freeze({ 'db.system': 'postgresql', 'db.system.name': 'postgresql', 'db.query.summary': name });
    if (attributesByName.size < KEPT) attributesByName.set(name, a);
  }
  return a;
}

const IDENT = String.raw`"?([A-Za-z_][\w$]*(?:\.[A-Za-z_][\w$]*)?)"?`;
const FIRST_WORD = /^\s*(?:--[^\n]*\n\s*)*([A-Za-z]+)/;
const WRITE = new RegExp(String.raw`\b(INSERT\s+INTO|UPDATE(?:\s+ONLY)?|DELETE\s+FROM)\s+${IDENT}`, 'i');
const FROM = new RegExp(String.raw`\bFROM\s+(?:ONLY\s+)?${IDENT}`, 'i');

/**
 * `SELECT links`, `INSERT pix_recurrences`, `UPDATE card_payments`, `DELETE webhook_deliveries`,
 * `BEGIN`: the operation and its first table, from keywords and identifiers only. A `WITH` names
 * the first table it writes (or reads, when it writes none).
 */
export function summaryOf(text: string): string {
  const known = summaries.get(text);
  if (known !== undefined) return known;
  const op = (FIRST_WORD.exec(text)?.[1] ?? 'SQL').toUpperCase();
  let out = op;
  if (op === 'INSERT' || op === 'UPDATE' || op === 'DELETE' || op === 'WITH') {
    const w = WRITE.exec(text);
    if (w) out = `${w[1].split(/\s/)[0].toUpperCase()} ${w[2]}`;
    else if (op === 'WITH') out = withTable('SELECT', FROM.exec(text)?.[1]);
  } else if (op === 'SELECT') {
    out = withTable(op, FROM.exec(text)?.[1]);
  }
  if (summaries.size < KEPT) summaries.set(text, out);
  return out;
}

function withTable(op: string, table: string | undefined): string {
  return table ? `${op} ${table}` : op;
}
