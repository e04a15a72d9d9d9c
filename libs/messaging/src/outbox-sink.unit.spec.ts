import { KafkaJSProtocolError, Producer } from 'kafkajs';
import { KafkaOutboxSink } from './kafka';

// The sink's answer to a broker that lost its producer state (killed with kill -9 and restarted): the old producer id is
// refused for ever, so the sink moves to a new producer. The broker itself is exercised by the fault suite.

/** A producer that records its calls and fails its sends with `failWith` while it is set. */
function recordingProducer(name: string, calls: string[], failWith?: () => Error): Producer {
  return {
    connect: async () => void calls.push(`${name}.connect`),
    disconnect: async () => void calls.push(`${name}.disconnect`),
    sendBatch: async () => {
      calls.push(`${name}.sendBatch`);
      if (failWith) throw failWith();
      return [];
    },
  } as unknown as Producer;
}

const message = { id: '1', topic: 't', key: 'k', value: '{}', headers: {} };
const protocolError = (type: string) => Object.assign(new KafkaJSProtocolError('refused'), { type });

it('moves to a new producer after an out-of-order sequence, and publishes with it', async () => {
  const calls: string[] = [];
  const sink = new KafkaOutboxSink(
    recordingProducer('old', calls, () => protocolError('OUT_OF_ORDER_SEQUENCE_NUMBER')),
    'pixauto',
    () => recordingProducer('new', calls),
  );
  await expect(sink.send([message])).rejects.toThrow('refused');
  await sink.send([message]);
  await sink.disconnect();
  expect(calls).toEqual(['old.sendBatch', 'old.disconnect', 'new.connect', 'new.sendBatch', 'new.disconnect']);
});

it('keeps its producer through other failures (a broker away), which kafkajs reconnects', async () => {
  const calls: string[] = [];
  const sink = new KafkaOutboxSink(
    recordingProducer('old', calls, () => new Error('connect ECONNREFUSED')),
    'pixauto',
    () => recordingProducer('new', calls),
  );
  await expect(sink.send([message])).rejects.toThrow('ECONNREFUSED');
  await expect(sink.send([message])).rejects.toThrow('ECONNREFUSED');
  expect(calls).toEqual(['old.sendBatch', 'old.sendBatch']);
});
