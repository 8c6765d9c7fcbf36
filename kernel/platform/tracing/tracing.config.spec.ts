import { EnvReader } from '../config/env';
import { tracingConfig } from './tracing.config';

function read(env: Record<string, string>) {
  const reader = new EnvReader(env, 'test', null);
  return { config: tracingConfig.read(reader), problems: reader.problems };
}

describe('tracing config (the standard OTEL_* variables)', () => {
  it('is off without an endpoint, whatever else is set', () => {
    expect(read({ OTEL_SERVICE_NAME: 'x', OTEL_TRACES_SAMPLER: 'always_on' }).config.enabled).toBe(false);
  });

  it('takes the traces endpoint as is, or appends /v1/traces to the base endpoint', () => {
    expect(read({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/custom' }).config).toMatchObject({
      enabled: true,
      url: 'http://c:4318/custom',
    });
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' }).config.url).toBe('http://c:4318/v1/traces');
    expect(
      read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://own:4318/v1/traces' }).config.url,
    ).toBe('http://own:4318/v1/traces');
  });

  it('is off when disabled or when the exporter is none, even with an endpoint', () => {
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).config.enabled).toBe(false);
    expect(read({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).config.enabled).toBe(false);
  });

  it('reads protocol, headers, sampler, resource and batch settings, the traces-specific ones first', () => {
    const { config, problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D%3D,tenant=t1',
      OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment.name=prod',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      protocol: 'http/json',
      headers: { 'x-api-key': 'abc==', tenant: 't1' },
      timeoutMs: 2000,
      sampler: 'parentbased_traceidratio',
      samplerRatio: 0.25,
      serviceName: 'payments-platform',
      resourceAttributes: { 'deployment.environment.name': 'prod' },
      batch: { scheduledDelayMillis: 100, maxQueueSize: 2048 },
    });
    expect(
      read({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      }).config.protocol,
    ).toBe('http/protobuf');
  });

  it('refuses what it cannot honour, one problem per variable', () => {
    const { problems } = read({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_TRACES_SAMPLER: 'sometimes',
      OTEL_TRACES_SAMPLER_ARG: '2',
      OTEL_TRACES_EXPORTER: 'zipkin',
      OTEL_EXPORTER_OTLP_HEADERS: 'novalue',
    });
    expect(problems).toHaveLength(6);
  });
});
