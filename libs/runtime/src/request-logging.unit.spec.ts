import Fastify from 'fastify';
import { httpRequests } from '@pixauto/metrics';
import { currentRequest } from '@pixauto/telemetry';
import { genReqId } from './http';
import { instrumentHttp } from './request-logging';

// instrumentHttp's hooks, each installed unless a bench leaves it out (the gateway's GATEWAY_HOOKS_OFF).

/** A listener instrumented as `listener` with `off`, answering the request id its handler runs under. */
async function answer(listener: string, off?: ReadonlySet<string>) {
  const app = Fastify({ genReqId });
  instrumentHttp(app, listener, off);
  app.get('/id', async () => ({ bound: currentRequest()?.requestId ?? null }));
  try {
    const response = await app.inject({ method: 'GET', url: '/id', headers: { 'x-request-id': 'caller-1' } });
    const counted = (await httpRequests.get()).values.filter((value) => value.labels.listener === listener && value.metricName?.endsWith('_count'));
    return { header: response.headers['x-request-id'], bound: response.json<{ bound: string | null }>().bound, counted: counted.map((value) => value.value) };
  } finally {
    await app.close();
  }
}

describe('instrumentHttp', () => {
  it('with every hook on: the request id returned and bound to the handling, the request counted', async () => {
    expect(await answer('unit-all-on')).toEqual({ header: 'caller-1', bound: 'caller-1', counted: [1] });
  });

  it('without request-id and metrics: no header, nothing bound, nothing counted', async () => {
    expect(await answer('unit-some-off', new Set(['request-id', 'metrics']))).toEqual({ header: undefined, bound: null, counted: [] });
  });

  it('with every hook off, the request is still answered', async () => {
    expect(await answer('unit-all-off', new Set(['request-id', 'tracing', 'metrics', 'logging']))).toEqual({ header: undefined, bound: null, counted: [] });
  });
});
