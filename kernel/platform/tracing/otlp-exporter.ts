import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import { FastProtobufTraceSerializer } from './otlp-protobuf';

/**
 * The OTLP/HTTP protobuf span exporter: the SDK's own (`@opentelemetry/exporter-trace-otlp-proto`
 * is these lines with the SDK serializer), with the body written by {@link FastProtobufTraceSerializer}.
 * Sending, retries, timeouts and headers are the SDK's export delegate's.
 */
export function protobufSpanExporter(options: { url: string; headers: Record<string, string>; timeoutMillis: number }): SpanExporter {
  const http = convertLegacyHttpOptions(options, 'TRACES', 'v1/traces', { 'Content-Type': 'application/x-protobuf' });
  return new OTLPExporterBase(
    createOtlpHttpExportDelegate(http, FastProtobufTraceSerializer, 'otlp_http_span_exporter', TraceExporterMetricsHelper, undefined),
  );
}
