import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { trace } from '@opentelemetry/api';
import { activeTracer } from '../../kernel/platform/tracing/tracing';
import { Tracing } from '../../kernel/platform/tracing/tracing.service';
import { api, CardsApp, startCardsApp } from '../cards/support';
import { day } from '../pix-automatic/support';
import { ExportedSpan, OtlpReceiver } from '../support/otlp-receiver';
import { http, startTestApp } from '../support/test-app';
import { initialize } from '../three-ds/support';
import { endpoints, pixEvent, publish, Receiver, waitFor } from '../webhooks/support';

const RECURRENCES = '/v1/banking/pix/automatic/recurrences';
const TAX_ID = '52998224725';
const CARD_NUMBER = '4000000000002701';
const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;

function traceparent() {
  const traceId = randomBytes(16).toString('hex');
  const parentId = randomBytes(8).toString('hex');
  return { traceId, parentId, header: `00-${traceId}-${parentId}-01` };
}

function recurrence(c: CardsApp) {
  return {
    amount: 49.9,
    currency: 'BRL',
    periodicity: 'MONTHLY',
    firstDueDate: day(c.t, 10),
    expirationDate: day(c.t, 120),
    dayAdjustment: 'KEEP_DUE_DATE',
    payerName: 'Maria Souza',
    payerTaxId: TAX_ID,
    description: 'Plano mensal',
  };
}

/** An outbound HTTP call's span (database statements are client spans too). */
const isHttpClient = (s: ExportedSpan) => s.kind === CLIENT && s.attributes['db.system'] === undefined;

/** The request log lines (pino JSON) of one route. */
function requestLines(logs: string, route: string): any[] {
  return logs
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
    .filter((l) => l.msg === 'request completed' && l.req?.route === route);
}

/** The real app exporting to a real OTLP/HTTP receiver: spans are read as a collector gets them. */
describe('OpenTelemetry traces', () => {
  const receiver = new OtlpReceiver();
  let c: CardsApp;

  beforeAll(async () => {
    await receiver.start();
    c = await startCardsApp({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'payments-under-test',
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });
  afterAll(async () => {
    await c?.close();
    await receiver.stop();
  });

  it('continues the caller trace through the request, its outbound call and the sandbox; logs the trace id; records no secret', async () => {
    const tp = traceparent();
    const created = await api(c, 'POST', RECURRENCES, recurrence(c), { traceparent: tp.header });
    expect(created.status).toBe(200);
    const id: string = created.body.recurrenceId;

    const server = await receiver.waitFor(
      'the request',
      (s) => s.kind === SERVER && s.traceId === tp.traceId && s.name === `POST ${RECURRENCES}`,
    );
    expect(server.parentSpanId).toBe(tp.parentId);
    expect(server.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': RECURRENCES, 'http.response.status_code': 200 });
    expect(server.resource['service.name']).toBe('payments-under-test');

    // the bank call made during the request: a client span, child of the request span
    const client = await receiver.waitFor('the bank call', (s) => isHttpClient(s) && s.traceId === tp.traceId);
    expect(client.parentSpanId).toBe(server.spanId);
    expect(client.attributes).toMatchObject({ 'server.address': '127.0.0.1', 'http.request.method': 'POST' });
    // the sandbox bank received that span as its traceparent: its own request span is the client span's child
    const sandbox = await receiver.waitFor('the sandbox request', (s) => s.kind === SERVER && s.parentSpanId === client.spanId);
    expect(sandbox.traceId).toBe(tp.traceId);
    expect(sandbox.name).toMatch(/^POST \/sandbox\//);

    // the statements the request ran: client spans of PostgreSQL, named by statement, children of the request span
    const insert = await receiver.waitFor('the insert', (s) => s.traceId === tp.traceId && s.name === 'pix_recurrences.insert');
    expect(insert).toMatchObject({ kind: CLIENT, parentSpanId: server.spanId });
    expect(insert.attributes).toEqual({
      'db.system': 'postgresql',
      'db.system.name': 'postgresql',
      'db.query.summary': 'pix_recurrences.insert',
    });
    const statements = receiver.spans().filter((s) => s.traceId === tp.traceId && s.attributes['db.system'] === 'postgresql');
    // the sandbox bank's insert, made while serving the bank call: under the sandbox's request span
    expect(statements.find((s) => s.name === 'sandbox_bank_recurrences.insert')?.parentSpanId).toBe(sandbox.spanId);
    for (const s of statements) {
      expect(s.name).toMatch(/^([a-z_]+\.[a-z_]+|(SELECT|INSERT|UPDATE|DELETE) [a-z_.]+|SELECT|BEGIN|COMMIT|ROLLBACK)$/);
      // never a parameter: the create's values are in no statement span
      for (const v of [TAX_ID, 'Maria Souza', 'Plano mensal', id, c.tenant.tenantId]) expect(JSON.stringify(s)).not.toContain(v);
    }

    const lines = requestLines(c.t.logs(), RECURRENCES);
    expect(lines.find((l) => l.req.method === 'POST')?.traceId).toBe(tp.traceId);
    expect(requestLines(c.t.logs(), sandbox.attributes['http.route'] as string).some((l) => l.traceId === tp.traceId)).toBe(true);

    // a route with an id is named by its template; the id is in no attribute
    const tp2 = traceparent();
    expect((await api(c, 'POST', `${RECURRENCES}/${id}/refresh`, undefined, { traceparent: tp2.header })).status).toBeLessThan(500);
    const byId = await receiver.waitFor('the refresh', (s) => s.kind === SERVER && s.parentSpanId === tp2.parentId);
    expect(byId.name).toBe(`POST ${RECURRENCES}/:recurrenceId/refresh`);

    // a card number through the 3DS server (outbound over HTTP as well)
    const tp3 = traceparent();
    const token = await initialize(c);
    const setup = await api(c, 'POST', '/v1/acquiring/payments/3ds/setup', { token, cardNumber: CARD_NUMBER }, { traceparent: tp3.header });
    expect(setup.status).toBeLessThan(500);
    const threeDs = await receiver.waitFor('the 3DS setup', (s) => s.kind === SERVER && s.parentSpanId === tp3.parentId);
    expect(threeDs.name).toBe('POST /v1/acquiring/payments/3ds/setup');
    await receiver.waitFor('the 3DS server call', (s) => isHttpClient(s) && s.parentSpanId === threeDs.spanId);

    const everything = JSON.stringify(receiver.bodies);
    for (const secret of [c.tenant.token, c.tenant.clientSecret, TAX_ID, CARD_NUMBER, token, id, c.t.adminKey]) {
      expect(everything.includes(secret)).toBe(false);
    }
    // no query strings and no bodies either
    for (const s of receiver.spans()) for (const v of Object.values(s.attributes)) expect(String(v)).not.toMatch(/[?{]/);
  });

  it('a body that arrives after its headers: the handler still runs in the request span (its bank call and insert are children)', async () => {
    const tp = traceparent();
    const { port } = new URL(c.t.url);
    const body = JSON.stringify(recurrence(c));
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString()));
    socket.write(
      `POST ${RECURRENCES} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Authorization: ${c.tenant.auth.Authorization}\r\ntraceparent: ${tp.header}\r\nConnection: close\r\n\r\n`,
    );
    // the body in a later packet: it is read on the socket's own async context, outside the request's
    await new Promise((r) => setTimeout(r, 100));
    socket.write(body); // not end(): a half-closed request is aborted by the server
    await new Promise((r) => socket.once('close', r)); // Connection: close
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const server = await receiver.waitFor(
      'the request',
      (s) => s.kind === SERVER && s.traceId === tp.traceId && s.name === `POST ${RECURRENCES}`,
    );
    const client = await receiver.waitFor('the bank call', (s) => isHttpClient(s) && s.traceId === tp.traceId);
    expect(client.parentSpanId).toBe(server.spanId);
    const insert = await receiver.waitFor('the insert', (s) => s.traceId === tp.traceId && s.name === 'pix_recurrences.insert');
    expect(insert.parentSpanId).toBe(server.spanId);
  });

  it('a request with no caller trace starts its own: a root server span, whose bank call, statements and log line share its trace', async () => {
    const created = await api(c, 'POST', RECURRENCES, { ...recurrence(c), description: 'Plano sem traceparent' });
    expect(created.status).toBe(200);
    const requestId = created.headers.get('x-request-id');
    const logged = () => requestLines(c.t.logs(), RECURRENCES).find((l) => l.requestId === requestId);
    for (let i = 0; i < 50 && !logged(); i++) await new Promise((r) => setTimeout(r, 20)); // written after the answer
    const line = logged();
    expect(line?.traceId).toMatch(/^[0-9a-f]{32}$/);
    const server = await receiver.waitFor(
      'the request',
      (s) => s.kind === SERVER && s.traceId === line.traceId && s.name === `POST ${RECURRENCES}`,
    );
    expect(server.parentSpanId).toBeUndefined();
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'http.route': RECURRENCES,
      'url.scheme': 'http',
      'http.response.status_code': 200,
    });
    expect(server.resource['service.name']).toBe('payments-under-test');
    const client = await receiver.waitFor('the bank call', (s) => isHttpClient(s) && s.traceId === line.traceId);
    expect(client.parentSpanId).toBe(server.spanId);
    const insert = await receiver.waitFor('the insert', (s) => s.traceId === line.traceId && s.name === 'pix_recurrences.insert');
    expect(insert.parentSpanId).toBe(server.spanId);
    const sandbox = await receiver.waitFor('the sandbox request', (s) => s.kind === SERVER && s.parentSpanId === client.spanId);
    expect(sandbox.traceId).toBe(line.traceId);
  });

  it('a request whose client goes away before the answer ends its span failed (aborted), once', async () => {
    const tp = traceparent();
    const { port } = new URL(c.t.url);
    // the body is promised and never sent: the request is still being read when the socket closes
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write(
      `POST ${RECURRENCES} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n` +
        `Authorization: ${c.tenant.auth.Authorization}\r\ntraceparent: ${tp.header}\r\n\r\n{"amount":`,
    );
    await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
    const span = await receiver.waitFor('the aborted request', (s) => s.kind === SERVER && s.traceId === tp.traceId);
    expect(span.name).toBe(`POST ${RECURRENCES}`);
    expect(span.status?.code).toBe(2); // ERROR
    expect(span.attributes['error.type']).toBe('aborted');
    await new Promise((r) => setTimeout(r, 500)); // a second export would have come by now
    expect(receiver.spans().filter((s) => s.traceId === tp.traceId && s.kind === SERVER)).toHaveLength(1);
  });

  it('a webhook delivery attempt is a client span, and the receiver gets its traceparent', async () => {
    const rx = await new Receiver().start();
    try {
      const { encryptionKey } = await endpoints(c.t).registerPixAutomatic(c.tenant.tenantId, { url: rx.url });
      await publish(c.t, [pixEvent(c.tenant.tenantId, 1)]);
      await waitFor('the delivery', () => rx.received.length > 0);
      const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(rx.received[0].headers.traceparent)) ?? [];
      expect(traceId).toBeDefined();
      const delivery = await receiver.waitFor('the delivery span', (s) => s.spanId === spanId);
      expect(delivery).toMatchObject({ kind: CLIENT, traceId, name: 'POST webhook' });
      expect(delivery.attributes).toMatchObject({
        'server.address': '127.0.0.1',
        'server.port': rx.port,
        'http.response.status_code': 200,
      });
      // the delivery worker is a loop of its own, not a request: each attempt starts its own trace
      expect(delivery.parentSpanId ?? '').toBe('');
      const everything = JSON.stringify(receiver.bodies);
      expect(everything.includes(encryptionKey)).toBe(false);
      expect(everything.includes('/hooks')).toBe(false);
    } finally {
      await rx.stop();
    }
  });

  it('makes each periodic job pass a span, the root of its own trace', async () => {
    const job = await receiver.waitFor('a job pass', (s) => s.kind === INTERNAL && s.name.startsWith('job '));
    expect(job.parentSpanId ?? '').toBe('');
    expect(typeof job.attributes['job.name']).toBe('string');
    // a pass's statements are its children; a statement outside any span (the delivery worker's claims) starts no trace
    const jobs = () =>
      new Set(
        receiver
          .spans()
          .filter((s) => s.name.startsWith('job '))
          .map((s) => s.spanId),
      );
    await receiver.waitFor(
      'a statement of a job pass',
      (s) => s.attributes['db.system'] === 'postgresql' && jobs().has(s.parentSpanId ?? ''),
    );
    expect(receiver.spans().filter((s) => s.attributes['db.system'] !== undefined && !s.parentSpanId)).toEqual([]);
  });

  it('exports over OTLP/HTTP as JSON', () => {
    expect(receiver.bodies[0].contentType).toBe('application/json');
  });
});

describe('OpenTelemetry traces, default protocol', () => {
  it('exports OTLP/HTTP protobuf to <OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces', async () => {
    const receiver = await new OtlpReceiver().start();
    const t = await startTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: 'payments-protobuf', OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
    try {
      const caller = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
      expect((await http(t.url, 'GET', RECURRENCES, undefined, { traceparent: caller })).status).toBe(401);
      // the body is read field by field from OTLP's trace.proto, apart from the service's own writer
      const server = await receiver.waitFor('the request', (s) => s.name === `GET ${RECURRENCES}`);
      expect(receiver.bodies[0].contentType).toBe('application/x-protobuf');
      expect(server).toMatchObject({
        traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
        parentSpanId: '00f067aa0ba902b7',
        kind: 2,
        attributes: { 'http.request.method': 'GET', 'http.route': RECURRENCES, 'http.response.status_code': 401 },
        resource: { 'service.name': 'payments-protobuf' },
      });
      expect(server.spanId).toMatch(/^[0-9a-f]{16}$/);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});

describe('OpenTelemetry traces, off', () => {
  it('with no OTEL endpoint: no provider registered, no trace id in the log, nothing exported', async () => {
    const receiver = await new OtlpReceiver().start();
    const t = await startTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '', OTEL_SERVICE_NAME: 'x' },
    });
    const off = await startTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: 'true', OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
    try {
      for (const app of [t, off]) {
        expect(app.app.get(Tracing).enabled).toBe(false);
        const tp = traceparent();
        expect((await http(app.url, 'GET', '/health/live', undefined, { traceparent: tp.header })).status).toBe(200);
        const r = await http(app.url, 'GET', RECURRENCES, undefined, { traceparent: tp.header });
        expect(r.status).toBe(401);
        expect(requestLines(app.logs(), RECURRENCES)[0]).not.toHaveProperty('traceId');
      }
      expect(activeTracer()).toBeNull();
      // the API's global provider is still its no-op: spans are not recording, ids are zero
      const span = trace.getTracer('probe').startSpan('probe');
      expect(span.isRecording()).toBe(false);
      expect(span.spanContext().traceId).toBe('0'.repeat(32));
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.bodies).toEqual([]);
    } finally {
      await t.close();
      await off.close();
      await receiver.stop();
    }
  });
});

describe('OpenTelemetry traces, head sampling at a ratio', () => {
  it('decides once per request without a caller trace (half at 0.5, not a quarter); a caller’s sampled trace is always continued; only traced requests log a trace id', async () => {
    const receiver = await new OtlpReceiver().start();
    const t = await startTestApp({
      env: {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.5',
        OTEL_BSP_SCHEDULE_DELAY: '50',
        REFUSED_TOKENS_PER_MINUTE_PER_IP: '100000',
      },
    });
    try {
      const N = 300;
      for (let i = 0; i < N; i++) expect((await http(t.url, 'GET', RECURRENCES)).status).toBe(401);
      const callers = Array.from({ length: 20 }, traceparent);
      for (const tp of callers) expect((await http(t.url, 'GET', RECURRENCES, undefined, { traceparent: tp.header })).status).toBe(401);
      const server = () => receiver.spans().filter((s) => s.kind === SERVER && s.name === `GET ${RECURRENCES}`);
      // the exporter batches every 50 ms; on a loaded machine (a CI run on Node 20) 10 s was once not
      // enough for the last batch, so this waits longer and says which callers' spans are missing
      const missing = () => callers.filter((tp) => !server().some((s) => s.traceId === tp.traceId)).map((tp) => tp.traceId);
      await receiver
        .waitFor('every caller trace', () => missing().length === 0, 30_000)
        .catch(() => {
          throw new Error(
            `${missing().length} of ${callers.length} caller traces have no exported span (${server().length} server spans in all)`,
          );
        });
      await new Promise((r) => setTimeout(r, 300));
      const own = server().filter((s) => !callers.some((tp) => tp.traceId === s.traceId));
      // binomial(300, 0.5): 150 ± 8.7; deciding twice would keep 75 (0.25)
      expect(own.length).toBeGreaterThan(110);
      expect(own.length).toBeLessThan(190);
      const withId = requestLines(t.logs(), RECURRENCES).filter((l) => l.traceId !== undefined);
      expect(withId).toHaveLength(own.length + callers.length);
    } finally {
      await t.close();
      await receiver.stop();
    }
  });
});
