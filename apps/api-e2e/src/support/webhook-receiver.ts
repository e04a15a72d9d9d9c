import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { eventually } from '@pixauto/testing';

// A merchant's webhook endpoint on loopback. The path says how it behaves: /ok/... answers 204, /fail/... 500,
// /fail-once/... 500 the first time each webhook-id arrives then 204, /gone/... 410, /hang/... never answers.

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  json: { type: string; environment: string; timestamp: string; data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- asserted field by field
  at: number;
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  private server?: Server;
  private readonly failedOnce = new Set<string>();
  private readonly hanging = new Set<ServerResponse>();

  async start(): Promise<void> {
    this.server = createServer((request, response) => void this.take(request, response));
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  /** A URL of this receiver; `behaviour` is ok, fail, fail-once, gone or hang. */
  url(behaviour: 'ok' | 'fail' | 'fail-once' | 'gone' | 'hang', name: string): string {
    return `http://127.0.0.1:${this.port}/${behaviour}/${name}`;
  }

  on(path: string): Received[] {
    return this.received.filter((r) => new URL(r.path, 'http://x').pathname.endsWith(path));
  }

  /** Waits until `count` requests reached URLs ending in `path`; fails after the timeout, naming the types that came. */
  async waitFor(path: string, count = 1, timeoutMs = 20_000): Promise<Received[]> {
    await eventually(
      () => this.on(path).map((r) => r.json.type),
      (types) => types.length >= count,
      { timeoutMs, what: `${count} webhooks on ${path}` },
    );
    return this.on(path);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async take(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, String(v)]));
    this.received.push({ path: request.url ?? '', headers, body, json: JSON.parse(body), at: performance.now() });
    const behaviour = (request.url ?? '').split('/')[1];
    if (behaviour === 'hang') {
      this.hanging.add(response);
      return;
    }
    const id = headers['webhook-id'];
    if (behaviour === 'fail-once' && !this.failedOnce.has(id)) {
      this.failedOnce.add(id);
      response.writeHead(500).end('not now');
      return;
    }
    const status = behaviour === 'ok' || behaviour === 'fail-once' ? 204 : behaviour === 'gone' ? 410 : 500;
    response.writeHead(status).end(status === 204 ? undefined : 'no');
  }
}
