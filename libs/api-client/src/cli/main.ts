#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { pixauto, type Pixauto } from '../pixauto';
import { configPath, DEFAULT_BASE_URL, loadConfig, type LoadedConfig, saveConfig } from './config';
import { newListenSecret, listen } from './listen';
import { formatLine, tailRequests } from './logs';
import { trigger, triggerable } from './trigger';

// The `pixauto` command: a merchant developer's sandbox from the terminal (the SDK's README, "The command line").

const USAGE = `pixauto <command>

  login --api-key pix_test_... [--base-url ${DEFAULT_BASE_URL}]
      checks the sandbox key and keeps it in ${configPath()} (mode 600)
  trigger <event_type>
      makes the event happen in your sandbox through the API; event types: ${triggerable().join(', ')}
  logs tail [--failed] [--path /v2/pix] [--json]
      prints your account's API requests as they happen
  listen --forward-to http://127.0.0.1:PORT/path
      forwards your sandbox's events to a local receiver as webhooks, signed with the listen secret it prints
`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function loggedIn(): LoadedConfig {
  const config = loadConfig();
  if (!config) throw new Error('not logged in: run `pixauto login --api-key pix_test_...` first (or set PIXAUTO_API_KEY)');
  return config;
}

function client(): Pixauto {
  const config = loggedIn();
  return pixauto({ apiKey: config.api_key, baseUrl: config.base_url });
}

/** Runs until Ctrl-C (or SIGTERM): `done()` turns true, and the loop ends after its current step. */
function untilStopped(): () => boolean {
  let stopped = false;
  const stop = () => (stopped = true);
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return () => stopped;
}

async function main(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'api-key': { type: 'string' },
      'base-url': { type: 'string' },
      failed: { type: 'boolean' },
      path: { type: 'string' },
      json: { type: 'boolean' },
      'forward-to': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || !command) return void process.stdout.write(USAGE);
  switch (command) {
    case 'login': {
      const apiKey = values['api-key'] ?? process.env.PIXAUTO_API_KEY;
      if (!apiKey?.startsWith('pix_test_')) throw new Error('pixauto login takes a sandbox key (pix_test_...): --api-key pix_test_...');
      const baseUrl = values['base-url'] ?? DEFAULT_BASE_URL;
      const clock = await pixauto({ apiKey, baseUrl }).api.GET('/v2/sandbox/clock');
      if (!clock.data) throw new Error(`the sandbox at ${baseUrl} refused the key (${clock.response.status}): ${JSON.stringify(clock.error)}`);
      // A listen secret made earlier stays: the receiver the developer set up with it keeps verifying.
      saveConfig({ api_key: apiKey, base_url: baseUrl, listen_secret: loadConfig({ ...process.env, PIXAUTO_API_KEY: undefined })?.listen_secret });
      return void process.stdout.write(`logged in to the sandbox at ${baseUrl}; the key is kept in ${configPath()}\n`);
    }
    case 'trigger': {
      const [eventType] = rest;
      if (!eventType) throw new Error(`pixauto trigger <event_type>: one of ${triggerable().join(', ')}`);
      const made = await trigger(client(), eventType, globalThis.crypto.randomUUID().slice(0, 8), sleep);
      return void process.stdout.write(`${JSON.stringify({ triggered: eventType, made }, null, 2)}\n`);
    }
    case 'logs': {
      if (rest[0] !== 'tail') throw new Error('pixauto logs tail [--failed] [--path /v2/pix] [--json]');
      const api = client();
      process.stderr.write('tailing your sandbox requests (Ctrl-C to stop)\n');
      return tailRequests(api, {
        failed: values.failed,
        path: values.path,
        sleep,
        done: untilStopped(),
        print: (line) => process.stdout.write(`${values.json ? JSON.stringify(line) : formatLine(line)}\n`),
      });
    }
    case 'listen': {
      const forwardTo = values['forward-to'];
      if (!forwardTo) throw new Error('pixauto listen --forward-to http://127.0.0.1:PORT/path');
      const config = loggedIn();
      const secret = config.listen_secret ?? newListenSecret();
      if (!config.listen_secret && !config.fromEnvironment) saveConfig({ api_key: config.api_key, base_url: config.base_url, listen_secret: secret });
      process.stdout.write(`your listen signing secret is ${secret} (verify the forwarded events with it)\n`);
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      return listen({
        baseUrl: config.base_url,
        apiKey: config.api_key,
        forwardTo,
        secret,
        signal: stop.signal,
        sleep,
        print: (line) => process.stdout.write(`${line}\n`),
      });
    }
    default:
      throw new Error(`unknown command ${command}\n\n${USAGE}`);
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`pixauto: ${error.message}\n`);
  process.exitCode = 1;
});
