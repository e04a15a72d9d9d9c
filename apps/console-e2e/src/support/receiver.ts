import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A merchant's endpoint on loopback: 500 while `failing`, 204 once fixed; what it received, in order. */
export class Receiver {
  readonly received: { path: string; headers: IncomingHttpHeaders; body: string }[] = [];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      this.received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(this.failing ? 500 : 204).end(this.failing ? 'down for maintenance' : undefined);
    });
  });

  constructor(public failing = true) {}

  async start(): Promise<void> {
    await new Promise<void>((listening) => this.server.listen(0, '127.0.0.1', listening));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((closed) => this.server.close(closed));
  }
}
