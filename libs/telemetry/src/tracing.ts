import { Context, context, propagation, ROOT_CONTEXT, Span, SpanKind, SpanStatusCode, TextMapGetter, trace, Tracer } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { currentRequest, REQUEST_ID_EVENT_HEADER } from './request-context';

/**
 * Traces (docs/operations.md#traces): gateway → service → outbox → Kafka → consumer, W3C trace context carried in the RPC envelope
 * and in Kafka headers. Off unless OTEL_EXPORTER_OTLP_ENDPOINT is set: then no SDK is even loaded, @opentelemetry/api
 * stays its no-op, and every helper here returns at its first line.
 */
let enabled = false;

export const tracingEnabled = (): boolean => enabled;

export const tracer = (): Tracer => trace.getTracer('pixauto');

export interface Tracing {
  /** Exports what is still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Registers the SDK's tracer provider (W3C trace context propagation, AsyncLocalStorage context), exporting to
 * `exporter`: in batches in production, each span at its end in tests (`batch: false`).
 */
export function registerTracing(serviceName: string, exporter: SpanExporter, options: { batch?: boolean } = {}): Tracing {
  // Loaded here, never at import: a process without tracing never pays for the SDK.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const processor = options.batch === false ? new sdk.SimpleSpanProcessor(exporter) : new sdk.BatchSpanProcessor(exporter);
  const provider = new sdk.NodeTracerProvider({ resource: resourceFromAttributes({ 'service.name': serviceName }), spanProcessors: [processor] });
  provider.register();
  enabled = true;
  return provider;
}

/** The process's tracing from OTEL_EXPORTER_OTLP_ENDPOINT (and OTEL_SERVICE_NAME, else the app's name); none without it. */
export function startTracing(service: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  // The exporter reads OTEL_EXPORTER_OTLP_ENDPOINT (and _HEADERS, _TIMEOUT) itself.
  return registerTracing(env.OTEL_SERVICE_NAME || service, new OTLPTraceExporter());
}

/** Header values as Kafka gives them (Buffers) or as JSON carries them (strings). */
const getter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return value === undefined || value === null ? undefined : Array.isArray(value) ? String(value[0]) : String(value);
  },
};

/** The W3C headers (traceparent, tracestate) of `within`'s span, to send with a message; none when tracing is off. */
export function traceHeaders(within: Context = context.active()): Record<string, string> {
  if (!enabled) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(within, carrier);
  return carrier;
}

/**
 * What an event appended now carries to Kafka beside its own headers: the request's id and the active span's trace
 * context (stored in the outbox row, so they survive the asynchronous publish).
 */
export function eventHeaders(): Record<string, string> {
  const request = currentRequest();
  const headers = traceHeaders();
  if (request) headers[REQUEST_ID_EVENT_HEADER] = request.requestId;
  return headers;
}

/** The context a message's trace headers name: the parent of the span that handles it. */
export function contextOf(carrier: Record<string, unknown> | undefined): Context {
  if (!enabled || !carrier) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier, getter);
}

/** Starts a span (undefined when tracing is off): for work whose end comes in a callback, not a promise. */
export function startSpan(name: string, kind: SpanKind, parent: Context, attributes: Record<string, string | number> = {}): Span | undefined {
  return enabled ? tracer().startSpan(name, { kind, attributes }, parent) : undefined;
}

/** Ends a span with the outcome of its work. */
export function endSpan(span: Span | undefined, error?: unknown): void {
  if (!span) return;
  if (error !== undefined) {
    span.recordException(error instanceof Error ? error : String(error));
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** Runs `work` in a span of its own, active while it runs (so what it sends carries it), child of `parent`. */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  parent: Context,
  attributes: Record<string, string | number>,
  work: () => Promise<T>,
): Promise<T> {
  const span = startSpan(name, kind, parent, attributes);
  if (!span) return work();
  try {
    const result = await context.with(trace.setSpan(parent, span), work);
    endSpan(span);
    return result;
  } catch (error) {
    endSpan(span, error);
    throw error;
  }
}

export { SpanKind };
