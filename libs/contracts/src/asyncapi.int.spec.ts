import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { AccountEventTypes } from './accounts';
import { ChargeEventTypes } from './charges';
import { Topics } from './events';
import { LimitEventTypes } from './limits';
import { DueDateChargeEventTypes, PixChargeEventTypes } from './payments';
import { PayoutEventTypes } from './payouts';
import { RecurrenceEventTypes } from './recurrences';
import { SandboxClockEventTypes } from './sandbox';
import { SolicitationEventTypes } from './solicitations';

// asyncapi.yaml (repository root) against the code: a valid AsyncAPI document, one channel per topic the
// services create, and on each the messages of exactly the event types the code publishes there, whose examples
// its payload schemas accept.

const SOURCE = readFileSync(join(__dirname, '../../../asyncapi.yaml'), 'utf8');

/** Every event type the code has, and the topic its service publishes it on (the stores' `topic` of each stream). */
const PUBLISHED: Array<[Record<string, string>, (type: string) => string]> = [
  [AccountEventTypes, () => Topics.accounts.name],
  [LimitEventTypes, () => Topics.limits.name],
  [RecurrenceEventTypes, () => Topics.recurrences.name],
  [ChargeEventTypes, () => Topics.recurrences.name],
  [SolicitationEventTypes, () => Topics.solicitations.name],
  [PixChargeEventTypes, () => Topics.payments.name],
  [DueDateChargeEventTypes, () => Topics.payments.name],
  [PayoutEventTypes, () => Topics.payouts.name],
  [SandboxClockEventTypes, () => Topics.sandboxClock.name],
];
const topicByType = new Map(PUBLISHED.flatMap(([types, topicOf]) => Object.values(types).map((type) => [type, topicOf(type)] as const)));
/** Topics nothing publishes to any more, with the event types of their messages still to be read (version 1 charges). */
const FORMERLY_PUBLISHED: Array<[string, Record<string, string>]> = [[Topics.charges.name, ChargeEventTypes]];

describe('asyncapi.yaml', () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the parsed document's model
  let document: any;
  beforeAll(async () => {
    const { document: parsed, diagnostics } = await new Parser().parse(SOURCE);
    const errors = diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
    expect(errors).toEqual([]);
    document = parsed;
  }, 60_000);

  it('is a valid AsyncAPI 3 document (the parser refuses a broken one)', async () => {
    expect(document?.version()).toMatch(/^3\./);
    const broken = SOURCE.replace('asyncapi: 3.0.0', 'asyncapi: 3.0.0\nchannels: 12');
    const { document: none, diagnostics } = await new Parser().parse(broken);
    expect(none).toBeUndefined();
    expect(diagnostics.some((d) => d.severity === 0)).toBe(true);
  }, 60_000);

  it('has one channel for each topic the services create, and no other', () => {
    const addresses = document
      .channels()
      .all()
      .map((channel: { address(): string }) => channel.address());
    expect([...addresses].sort()).toEqual(
      Object.values(Topics)
        .map((topic) => topic.name)
        .sort(),
    );
  });

  it('puts on each topic the messages of exactly the event types the code publishes there (or did, on a topic left to age out)', () => {
    const documented = new Map<string, string[]>();
    for (const channel of document.channels().all()) {
      documented.set(
        channel.address(),
        channel
          .messages()
          .all()
          .map((message: { name(): string }) => message.name())
          .sort(),
      );
    }
    const published = new Map<string, string[]>();
    for (const [type, topic] of topicByType) published.set(topic, [...(published.get(topic) ?? []), type].sort());
    for (const [topic, types] of FORMERLY_PUBLISHED) published.set(topic, Object.values(types).sort());
    expect(Object.fromEntries([...documented].sort())).toEqual(Object.fromEntries([...published].sort()));
  });

  it("has payload examples that the message's schema accepts, with the message's own event type", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    let checked = 0;
    for (const message of document.allMessages().all()) {
      const validate = ajv.compile(message.payload().json());
      for (const example of message.examples().all()) {
        const payload = example.payload();
        if (payload === undefined) continue;
        checked++;
        const where = `${message.name()} ${example.name() ?? ''}`;
        expect({ where, type: payload.type, errors: validate(payload) ? null : validate.errors }).toEqual({ where, type: message.name(), errors: null });
      }
    }
    expect(checked).toBeGreaterThan(10);
  });
});
