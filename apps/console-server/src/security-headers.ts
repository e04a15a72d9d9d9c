import type { FastifyInstance } from 'fastify';
import { Messages } from '@pixauto/errors';

/**
 * The console's pages run only the console's own scripts and styles, load nothing from elsewhere, and cannot be framed:
 * no inline script, no eval, no third party. QR codes are data: images.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every answer of the console server; API answers are never cached. */
export function securityHeaders(fastify: FastifyInstance, secure: boolean): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    void reply.headers({
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
      ...(secure && { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }),
      ...((request.url.startsWith('/console/v1/') || request.url === '/' || request.url.startsWith('/index.html')) && { 'cache-control': 'no-store' }),
    });
    return payload;
  });
}

/**
 * Only a path on the request line (origin-form): a browser never sends anything else to the console, and an
 * absolute-form line (`GET http://elsewhere/... HTTP/1.1`) names a host of its own, which nothing here should read.
 */
export function originFormOnly(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.raw.url?.startsWith('/')) return done();
    void reply
      .code(400)
      .header('content-type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ message: Messages.console.originFormOnly }));
  });
}
