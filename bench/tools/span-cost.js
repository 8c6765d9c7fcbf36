// What one traced request's server span costs tracing's own code, in one process with nothing
// else running, each figure beside the SDK's own code for the same work in the same run:
//   make and end: the limits route's span made by the service's `RequestSpan` (tracing.ts
//     `startRequestRoot`, through the real batch processor), beside the SDK tracer's `startSpan`;
//   encode: a batch of 512 such spans written as an OTLP/HTTP protobuf body by the service's
//     encoder (otlp-protobuf.ts), beside the SDK's `ProtobufTraceSerializer` (the same bytes).
// The exporter is replaced by one that keeps the batch and sends nothing: the HTTP send, the
// kernel's write and the garbage a loaded replica collects are outside these figures (the bench's
// `tracing` variants and `cpu-per-request.js auth-limits-tracing` carry them). Figures are CPU
// nanoseconds per span, the median of 7 rounds, and `ofSdk` = ours ÷ the SDK's.
// `node bench/tools/span-cost.js` after `npx nest build`; SPAN_COST_SPANS=200000 per round.
const { join } = require('node:path');

const DIST = join(__dirname, '../../dist/kernel/platform/tracing');
const SPANS = Number(process.env.SPAN_COST_SPANS || 200000);
const ROUNDS = 7;

const { OTLPExporterBase } = require('@opentelemetry/otlp-exporter-base');
let batch = null;
// the service's exporter is an OTLPExporterBase: keep the first full batch, send nothing
OTLPExporterBase.prototype.export = function (spans, done) {
  if (!batch && spans.length === 512) batch = spans.slice();
  done({ code: 0 });
};
const { ProtobufTraceSerializer } = require('@opentelemetry/otlp-transformer');
const { context, trace, SpanKind } = require('@opentelemetry/api');
const { startTracing, startRequestRoot, endSpan, stopTracing } = require(join(DIST, 'tracing'));
const { FastProtobufTraceSerializer } = require(join(DIST, 'otlp-protobuf'));

/** CPU nanoseconds per item of `work(n)` over n items, median of the rounds (after one warm-up round). */
async function perItem(n, work) {
  await work(n);
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const c0 = process.cpuUsage();
    await work(n);
    const c = process.cpuUsage(c0);
    rounds.push(((c.user + c.system) * 1000) / n);
  }
  rounds.sort((a, b) => a - b);
  return Math.round(rounds[ROUNDS >> 1]);
}

/** n spans of the route made and ended, a turn of the event loop every 100 (the batch processor's timer runs). */
function spans(make) {
  return async (n) => {
    for (let i = 0; i < n; i += 100) {
      for (let j = 0; j < 100; j++) make();
      await new Promise((r) => setImmediate(r));
    }
  };
}

(async () => {
  startTracing({
    enabled: true,
    url: 'http://127.0.0.1:9/v1/traces',
    protocol: 'http/protobuf',
    headers: {},
    timeoutMs: 10000,
    serviceName: 'span-cost',
    resourceAttributes: {},
    sampler: 'parentbased_always_on',
    samplerRatio: 1,
    batch: { scheduledDelayMillis: 5000, maxQueueSize: 2048, maxExportBatchSize: 512, exportTimeoutMillis: 30000 },
  });
  // the limits route's span, as the request hook names and tags it (http-tracing.ts)
  const [method, route, status] = ['GET', '/v1/banking/accounts/:accountId/limits', 200];
  const attributes = () => ({ 'http.request.method': method, 'http.route': route, 'url.scheme': 'http' });
  const tracer = trace.getTracer('payments-platform');
  const ours = await perItem(SPANS, spans(() => endSpan(startRequestRoot(`${method} ${route}`, attributes()), status)));
  const sdk = await perItem(
    SPANS,
    spans(() => endSpan(tracer.startSpan(`${method} ${route}`, { kind: SpanKind.SERVER, attributes: attributes() }, context.active()), status)),
  );
  if (!batch) throw new Error('no batch of 512 spans was exported');
  const bodies = Math.max(1, Math.round(SPANS / batch.length / 4));
  const encode = (serializer) => async (n) => { for (let i = 0; i < n / batch.length; i++) serializer.serializeRequest(batch); };
  const encodeOurs = await perItem(bodies * batch.length, encode(FastProtobufTraceSerializer));
  const encodeSdk = await perItem(bodies * batch.length, encode(ProtobufTraceSerializer));
  const bytes = FastProtobufTraceSerializer.serializeRequest(batch).length;
  console.log(JSON.stringify({
    name: 'tracing span cost',
    node: process.version,
    bytesPerSpan: Math.round(bytes / batch.length),
    makeAndEnd: { nsPerSpan: ours, sdkNsPerSpan: sdk, ofSdk: Number((ours / sdk).toFixed(3)) },
    encode: { nsPerSpan: encodeOurs, sdkNsPerSpan: encodeSdk, ofSdk: Number((encodeOurs / encodeSdk).toFixed(3)) },
    total: { nsPerSpan: ours + encodeOurs, sdkNsPerSpan: sdk + encodeSdk, ofSdk: Number(((ours + encodeOurs) / (sdk + encodeSdk)).toFixed(3)) },
  }));
  await stopTracing();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
