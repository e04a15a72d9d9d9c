import type { components } from '../generated/sandbox';
import { dataOf, type Pixauto } from '../pixauto';

// `pixauto logs tail`: the account's request log as it happens. It asks for the newest lines once a second while it
// runs (the log is written within about a second of each answer) and prints those it has not printed yet, oldest
// first; its own reads of the log are left out.

export type RequestLine = components['schemas']['RequestLogLine'];

const OWN_PATH = '/v2/requests';
/** How many printed request ids it remembers: far more than a page, so a line is never printed twice. */
const REMEMBERED = 1000;

export const formatLine = (line: RequestLine): string =>
  `${line.at}  ${line.method.padEnd(6)} ${String(line.status).padEnd(3)} ${String(line.duration_ms).padStart(5)} ms  ${line.path}  ${line.request_id}`;

export interface TailOptions {
  failed?: boolean;
  path?: string;
  intervalMs?: number;
  sleep: (ms: number) => Promise<void>;
  print: (line: RequestLine) => void;
  /** Ends the tail when it returns true (Ctrl-C in the command; a count in the tests). */
  done: () => boolean;
}

export async function tailRequests(client: Pixauto, options: TailOptions): Promise<void> {
  const printed = new Set<string>();
  // The lines already there when the tail starts are history, not news.
  let first = true;
  while (!options.done()) {
    const page = dataOf(
      await client.api.GET('/v2/requests', {
        params: { query: { limit: 100, ...(options.failed && { failed: 'true' }), ...(options.path && { path: options.path }) } },
      }),
    );
    const fresh = page.requests.filter((line) => !printed.has(line.request_id) && !line.path.startsWith(OWN_PATH)).reverse();
    for (const line of fresh) {
      printed.add(line.request_id);
      if (!first) options.print(line);
    }
    for (const id of printed) if (printed.size > REMEMBERED) printed.delete(id);
    first = false;
    await options.sleep(options.intervalMs ?? 1000);
  }
}
