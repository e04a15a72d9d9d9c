import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Which console user made a change through the console (whose every call uses the console's one key per account):
 * the console server names the user in this header of each change it passes to the merchant API, and the request log
 * keeps it. The name is signed with the operator token, which only the console server and the gateway hold, over the
 * request's id, so no integration can write a name into its account's log and no header can be used twice.
 */
export const CONSOLE_USER_HEADER = 'x-console-user';

const signature = (adminToken: string, requestId: string, user: string): string =>
  createHmac('sha256', adminToken).update(`console-user\n${requestId}\n${user}`).digest('base64url');

/** The header's value naming `user` (the user's email) on the request whose X-Request-Id is `requestId`. */
export function consoleUserHeader(adminToken: string, requestId: string, user: string): string {
  return `${encodeURIComponent(user)};${signature(adminToken, requestId, user)}`;
}

/** The user a request's header names, when it is signed for this request with this token; undefined otherwise. */
export function consoleUserOf(adminToken: string | undefined, requestId: string, header: unknown): string | undefined {
  if (!adminToken || typeof header !== 'string' || header.length > 1024) return undefined;
  const [encoded, signed, ...rest] = header.split(';');
  if (rest.length > 0 || !encoded || !signed) return undefined;
  let user: string;
  try {
    user = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  const expected = Buffer.from(signature(adminToken, requestId, user));
  const presented = Buffer.from(signed);
  return expected.length === presented.length && timingSafeEqual(expected, presented) ? user : undefined;
}
