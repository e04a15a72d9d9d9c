import { Controller, Get, Req, Res } from '@nestjs/common';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { MAX_SANDBOX_LISTENERS } from '@pixauto/contracts';
import { Messages, rateLimited, refuse } from '@pixauto/errors';
import { drainSignal } from '@pixauto/runtime';
import { SandboxListeners } from '../sandbox-listeners';
import { MerchantRoutes, Route } from '../openapi/route-doc';
import { AuthenticatedRequest, tenantOf } from './api-key.guard';

/** A comment line every so often, so that proxies and the client see a live connection. */
const KEEP_ALIVE_MS = 15_000;
/** A listener that stops reading is cut before its backlog grows past this: the events are not held for it. */
const MAX_BACKLOG_BYTES = 1024 * 1024;

/** The sandbox's webhook events as a stream, what `pixauto listen` forwards. Registered on the sandbox listener only. */
@MerchantRoutes('Sandbox')
@Controller('v2/sandbox/events')
export class SandboxEventsRoutes {
  constructor(private readonly listeners: SandboxListeners) {}

  @Route({
    summary: "Your sandbox's events, as they happen",
    description:
      'Sandbox only: a stream of server-sent events, one per webhook event of your sandbox account from the moment you connect, whether or not the resource has a webhook URL: each `data:` line is JSON `{id, type, body}`, `body` being the exact JSON a webhook of it POSTs (its `webhook-id` is `id`). ' +
      `Comment lines (\`: keep-alive\`) come every ${KEEP_ALIVE_MS / 1000} seconds. What happens while you are not connected is not replayed: the delivery log has it. An account holds at most ${MAX_SANDBOX_LISTENERS} streams at once (429 with Retry-After beyond); a stream whose reader stops reading is closed. ` +
      'The `pixauto listen` command reads it and forwards each event to a local URL, signed.',
    ok: [200, 'SandboxEventStream', 'text/event-stream'],
    errors: [[429, { message: Messages.webhooks.tooManyListeners(MAX_SANDBOX_LISTENERS) }]],
  })
  @Get()
  async stream(@Req() request: AuthenticatedRequest, @Res() reply: FastifyReply): Promise<void> {
    const stream = new PassThrough();
    const close = await this.listeners.open(tenantOf(request).accountId, (message) => {
      if (stream.writableLength > MAX_BACKLOG_BYTES) return void stream.destroy();
      stream.write(`data: ${message}\n\n`);
    });
    if (!close) return refuse(rateLimited(Messages.webhooks.tooManyListeners(MAX_SANDBOX_LISTENERS), 5));
    const keepAlive = setInterval(() => stream.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(keepAlive);
      close();
      stream.end();
    };
    // Ends with the client, or when this replica begins to shut down: the client connects again, to another.
    request.raw.once('close', end);
    stream.once('close', end);
    drainSignal(request).addEventListener('abort', end, { once: true });
    stream.write(': listening\n\n');
    await reply.header('content-type', 'text/event-stream').header('cache-control', 'no-cache').header('x-accel-buffering', 'no').send(stream);
  }
}
