import { defineConfig } from '../config/config';
import { EnvReader } from '../config/env';

export type TracesSampler =
  'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio';

/**
 * OpenTelemetry traces, from the standard `OTEL_*` variables. Tracing is on only when an OTLP
 * endpoint is set (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `OTEL_EXPORTER_OTLP_ENDPOINT`) and
 * neither `OTEL_SDK_DISABLED=true` nor `OTEL_TRACES_EXPORTER=none` says otherwise; off, no SDK
 * is started at all.
 */
export class TracingConfig {
  enabled: boolean;
  /** Where spans are POSTed: the traces endpoint as given, or `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  /** Sent with every export (a collector's API key): never logged. */
  headers: Record<string, string>;
  timeoutMs: number;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: TracesSampler;
  /** The ratio of the `traceidratio` samplers. */
  samplerRatio: number;
  batch: { scheduledDelayMillis: number; maxQueueSize: number; maxExportBatchSize: number; exportTimeoutMillis: number };
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/** `k1=v1,k2=v2`, values percent-decoded (the OTEL format of headers and resource attributes). */
function keyValues(env: EnvReader, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = env.raw(name);
  if (!raw) return out;
  for (const part of raw.split(',')) {
    const i = part.indexOf('=');
    if (i <= 0) {
      env.problems.push(`${name} must be a list of key=value pairs separated by commas`);
      return {};
    }
    try {
      out[decodeURIComponent(part.slice(0, i).trim())] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      env.problems.push(`${name} holds invalid percent-encoding`);
      return {};
    }
  }
  return out;
}

function tracesUrl(env: EnvReader): string | undefined {
  const own = env.url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (own) return own;
  const base = env.url('OTEL_EXPORTER_OTLP_ENDPOINT');
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export const tracingConfig = defineConfig(TracingConfig, (env) => {
  const url = tracesUrl(env);
  const exporter = env.str('OTEL_TRACES_EXPORTER', 'otlp');
  if (exporter !== 'otlp' && exporter !== 'none') env.problems.push(`OTEL_TRACES_EXPORTER must be otlp or none, got "${exporter}"`);
  const protocol = env.oneOf(
    'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL',
    ['http/protobuf', 'http/json'] as const,
    env.oneOf('OTEL_EXPORTER_OTLP_PROTOCOL', ['http/protobuf', 'http/json'] as const, 'http/protobuf'),
  );
  const ratio = env.str('OTEL_TRACES_SAMPLER_ARG', '1');
  const samplerRatio = Number(ratio);
  if (!(samplerRatio >= 0 && samplerRatio <= 1))
    env.problems.push(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1, got "${ratio}"`);
  const headers = keyValues(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS');
  return {
    enabled: !!url && !env.bool('OTEL_SDK_DISABLED', false) && exporter === 'otlp',
    url: url ?? '',
    protocol,
    headers: Object.keys(headers).length ? headers : keyValues(env, 'OTEL_EXPORTER_OTLP_HEADERS'),
    timeoutMs: env.int('OTEL_EXPORTER_OTLP_TRACES_TIMEOUT', env.int('OTEL_EXPORTER_OTLP_TIMEOUT', 10000, 1, 600000), 1, 600000),
    serviceName: env.str('OTEL_SERVICE_NAME', 'payments-platform'),
    resourceAttributes: keyValues(env, 'OTEL_RESOURCE_ATTRIBUTES'),
    sampler: env.oneOf('OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on'),
    samplerRatio: samplerRatio >= 0 && samplerRatio <= 1 ? samplerRatio : 1,
    batch: {
      scheduledDelayMillis: env.int('OTEL_BSP_SCHEDULE_DELAY', 5000, 1, 600000),
      maxQueueSize: env.int('OTEL_BSP_MAX_QUEUE_SIZE', 2048, 1, 1_000_000),
      maxExportBatchSize: env.int('OTEL_BSP_MAX_EXPORT_BATCH_SIZE', 512, 1, 1_000_000),
      exportTimeoutMillis: env.int('OTEL_BSP_EXPORT_TIMEOUT', 30000, 1, 600000),
    },
  };
});
