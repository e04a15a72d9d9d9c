import { eventHeaders, startTracing, traceHeaders, tracingEnabled } from './tracing';
import { withRequest } from './request-context';

// Without OTEL_EXPORTER_OTLP_ENDPOINT tracing is off: no SDK, no trace headers, only the request id travels.
describe('tracing off', () => {
  it('starts nothing without OTEL_EXPORTER_OTLP_ENDPOINT', () => {
    expect(startTracing('test-service', {})).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    expect(traceHeaders()).toEqual({});
  });

  it('carries only the request id with an appended event', () => {
    expect(withRequest({ requestId: 'req-7' }, () => eventHeaders())).toEqual({ 'request-id': 'req-7' });
    expect(eventHeaders()).toEqual({});
  });
});
