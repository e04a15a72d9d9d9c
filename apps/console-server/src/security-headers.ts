import type { FastifyInstance } from 'fastify';

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
