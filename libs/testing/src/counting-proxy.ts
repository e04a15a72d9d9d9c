import { createServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A loopback HTTP proxy that forwards every request to `target` and counts them by method and path: how many calls
 * one client made to a real server (one proxy per replica of a service: how many each made).
 */
export class CountingProxy {
  private readonly counts = new Map<string, number>();
  private readonly server: Server;
  url = '';

  constructor(target: string) {
    this.server = createServer((incoming, outgoing) => {
      const key = `${incoming.method} ${(incoming.url ?? '').split('?')[0]}`;
      this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      const forwarded = httpRequest(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      });
      forwarded.on('error', () => outgoing.destroy());
      incoming.pipe(forwarded);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** How many `method path` requests went through (the path without its query). */
  count(method: string, path: string): number {
    return this.counts.get(`${method} ${path}`) ?? 0;
  }
}
