import { stopKafkajsIdleLoop } from './kafkajs-idle-loop';

// kafkajs's own request queue, with the replacement in place: no timer while nothing waits, and what waits is sent.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue');

const silent = { debug: () => undefined, warn: () => undefined, info: () => undefined, error: () => undefined };
let correlationId = 0;

function queue(maxInFlightRequests: number) {
  const sent: number[] = [];
  const requests = new RequestQueue({
    maxInFlightRequests,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 'test',
    broker: 'b:9092',
    logger: silent,
  });
  const push = () => {
    const id = ++correlationId;
    requests.push({
      entry: { correlationId: id, apiKey: 1, apiName: 'Fetch', apiVersion: 11, resolve: () => undefined, reject: () => undefined },
      expectResponse: true,
      sendRequest: () => sent.push(id),
    });
    return id;
  };
  const answer = (id: number) => requests.fulfillRequest({ correlationId: id, payload: Buffer.alloc(0), size: 0 });
  return { requests, sent, push, answer };
}

beforeAll(() => stopKafkajsIdleLoop());

it('arms no timer while nothing waits, before or after requests come and go', () => {
  const { requests, sent, push, answer } = queue(2);
  requests.scheduleCheckPendingRequests();
  expect(requests.throttleCheckTimeoutId).toBeNull();
  const id = push();
  answer(id);
  expect(sent).toEqual([id]);
  expect(requests.throttleCheckTimeoutId).toBeNull();
  requests.destroy();
});

it('sends a request held by the in-flight limit once one is answered, and then rests', async () => {
  const { requests, sent, push, answer } = queue(1);
  const first = push();
  const second = push();
  expect(sent).toEqual([first]);
  answer(first);
  expect(sent).toEqual([first, second]);
  answer(second);
  await new Promise((resolve) => setTimeout(resolve, 30)); // the check armed when the second was held runs once
  expect(requests.throttleCheckTimeoutId).toBeNull();
  requests.destroy();
});

it('sends a request held by the broker throttling the client when the throttle ends, and then rests', async () => {
  const { requests, sent, push } = queue(5);
  requests.throttledUntil = Date.now() + 50;
  const id = push();
  expect(sent).toEqual([]);
  expect(requests.throttleCheckTimeoutId).not.toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 120));
  expect(sent).toEqual([id]);
  expect(requests.throttleCheckTimeoutId).toBeNull();
  requests.destroy();
});
