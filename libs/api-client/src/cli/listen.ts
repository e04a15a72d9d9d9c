import { Webhook } from 'standardwebhooks';
import { machineNow } from './clock';

// `pixauto listen --forward-to URL`: the sandbox's events, streamed from GET /v2/sandbox/events over a connection the
// command opens (no inbound port, no public URL), each POSTed to the developer's local receiver as a webhook would
// be, signed with the listen secret (Standard Webhooks headers, so the receiver's own verification code runs).

/** One `data:` of the stream: the webhook's id, its event type, and the exact JSON body a webhook of it POSTs. */
interface ListenedEvent {
  id: string;
  type: string;
  body: string;
}

export interface ListenOptions {
  baseUrl: string;
  apiKey: string;
  forwardTo: string;
  secret: string;
  /** Stops the stream (Ctrl-C). */
  signal: AbortSignal;
  print: (line: string) => void;
  sleep: (ms: number) => Promise<void>;
  fetch?: typeof globalThis.fetch;
}

/** A new listen secret: whsec_ and 32 random bytes in base64, as a webhook signing secret is. */
export const newListenSecret = (): string => `whsec_${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;

/** The `data:` payloads of a server-sent event stream's complete events, and what is left over for the next chunk. */
export function splitEvents(buffer: string): { events: string[]; rest: string } {
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks.flatMap((block) => {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart());
    return data.length > 0 ? [data.join('\n')] : [];
  });
  return { events, rest };
}

async function forward(event: ListenedEvent, options: ListenOptions): Promise<void> {
  const fetch = options.fetch ?? globalThis.fetch;
  const at = machineNow();
  const signature = new Webhook(options.secret).sign(event.id, at, event.body);
  const headers = {
    'content-type': 'application/json',
    'webhook-id': event.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
  const answer = await fetch(options.forwardTo, { method: 'POST', headers, body: event.body, signal: options.signal }).then(
    (response) => `${response.status}`,
    (error: Error) => `failed: ${error.message}`,
  );
  options.print(`${event.type}  ${event.id}  -> ${options.forwardTo} [${answer}]`);
}

/** Streams and forwards until the signal; a dropped stream is opened again after a pause. */
export async function listen(options: ListenOptions): Promise<void> {
  const fetch = options.fetch ?? globalThis.fetch;
  let pause = 500;
  while (!options.signal.aborted) {
    try {
      const response = await fetch(`${options.baseUrl}/v2/sandbox/events`, { headers: { authorization: options.apiKey }, signal: options.signal });
      if (!response.ok || !response.body) {
        const retryAfter = Number(response.headers.get('retry-after') ?? '');
        throw new Error(`the sandbox answered ${response.status}: ${await response.text()}${retryAfter ? ` (retrying in ${retryAfter} s)` : ''}`);
      }
      options.print(`ready: forwarding your sandbox's events to ${options.forwardTo}`);
      pause = 500;
      let buffer = '';
      const decoder = new TextDecoder();
      for await (const chunk of response.body) {
        const { events, rest } = splitEvents(buffer + decoder.decode(chunk as Uint8Array, { stream: true }));
        buffer = rest;
        for (const data of events) await forward(JSON.parse(data) as ListenedEvent, options);
      }
      options.print('the stream ended: connecting again');
    } catch (error) {
      if (options.signal.aborted) return;
      options.print(`${(error as Error).message}; connecting again`);
    }
    await options.sleep(pause);
    pause = Math.min(pause * 2, 10_000);
  }
}
