// The two receipt providers' own authentication, as the simulator plays them (the sandbox banks take
// any {client_id, client_secret} and refuse a secret of "invalid"), each with its own error shape and words.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The secret every sandbox bank refuses. */
export const REFUSED_SECRET = 'invalid';

// ---- PROVIDER_A: OAuth2 client credentials (RFC 6749 §4.4), bearer tokens, the receipt as PDF bytes ----

/** RFC 6749 §5.2 error body. */
export interface OAuthError {
  error: string;
  error_description: string;
}

export type TokenResult =
  { ok: true; token: { access_token: string; token_type: 'Bearer'; expires_in: number } } | { ok: false; status: number; error: OAuthError };

export const PROVIDER_A_TOKEN_SECONDS = 300;

/** The tokens PROVIDER_A issued and when each expires (real time; a restart forgets them, as a client must expect). */
export class ProviderATokens {
  private readonly tokens = new Map<string, number>();

  /** `POST /oauth/token` with grant_type=client_credentials and the client's id and secret (HTTP Basic, or the form's fields). */
  issue(form: Record<string, unknown>, authorization: string | undefined, nowMs: number): TokenResult {
    if (form.grant_type !== 'client_credentials')
      return { ok: false, status: 400, error: { error: 'unsupported_grant_type', error_description: 'Only the client_credentials grant is supported.' } };
    const basic = /^Basic\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const [id, secret] = basic ? Buffer.from(basic, 'base64').toString('utf8').split(':', 2) : [form.client_id, form.client_secret];
    if (typeof id !== 'string' || id === '' || typeof secret !== 'string' || secret === '')
      return {
        ok: false,
        status: 401,
        error: { error: 'invalid_client', error_description: 'Client authentication failed: client_id and client_secret are required.' },
      };
    if (secret === REFUSED_SECRET)
      return { ok: false, status: 401, error: { error: 'invalid_client', error_description: 'Client authentication failed: the client secret is invalid.' } };
    if (this.tokens.size >= 10_000) this.forgetExpired(nowMs);
    const token = randomBytes(24).toString('base64url');
    this.tokens.set(token, nowMs + PROVIDER_A_TOKEN_SECONDS * 1000);
    return { ok: true, token: { access_token: token, token_type: 'Bearer', expires_in: PROVIDER_A_TOKEN_SECONDS } };
  }

  /** The error of a request's bearer token, or undefined when it is a live one. */
  check(authorization: string | undefined, nowMs: number): OAuthError | undefined {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    const expires = token === undefined ? undefined : this.tokens.get(token);
    if (expires === undefined || expires <= nowMs) return { error: 'invalid_token', error_description: 'The access token is missing, unknown or expired.' };
    return undefined;
  }

  private forgetExpired(nowMs: number): void {
    for (const [token, expires] of this.tokens) if (expires <= nowMs) this.tokens.delete(token);
  }
}

// ---- PROVIDER_B: API key and an HMAC-SHA256 signature per request, the receipt as JSON with the PDF in base64 ----

export interface ProviderBError {
  code: string;
  message: string;
}

/** How far a request's X-Timestamp may be from the provider's clock. */
export const PROVIDER_B_WINDOW_SECONDS = 300;

/** The string PROVIDER_B signs: timestamp, method and path, one per line. */
export const providerBSigningString = (timestamp: string, method: string, path: string): string => `${timestamp}\n${method.toUpperCase()}\n${path}`;

export const providerBSignature = (secret: string, timestamp: string, method: string, path: string): string =>
  createHmac('sha256', secret)
    .update(providerBSigningString(timestamp, method, path))
    .digest('hex');

/**
 * The error of a signed request, or undefined when it passes. The simulator cannot know a client's secret, so it
 * takes any well-formed, fresh signature except one made with the secret every sandbox bank refuses.
 */
export function checkProviderBRequest(headers: Record<string, unknown>, method: string, path: string, nowMs: number): ProviderBError | undefined {
  const [apiKey, timestamp, signature] = [headers['x-api-key'], headers['x-timestamp'], headers['x-signature']];
  if (typeof apiKey !== 'string' || apiKey === '' || typeof timestamp !== 'string' || typeof signature !== 'string')
    return { code: 'AUTH_MISSING', message: 'X-Api-Key, X-Timestamp and X-Signature are required.' };
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > PROVIDER_B_WINDOW_SECONDS)
    return { code: 'TIMESTAMP_OUT_OF_WINDOW', message: `X-Timestamp must be within ${PROVIDER_B_WINDOW_SECONDS} seconds of the server time.` };
  const refused = Buffer.from(providerBSignature(REFUSED_SECRET, timestamp, method, path), 'hex');
  if (!/^[0-9a-f]{64}$/.test(signature) || timingSafeEqual(Buffer.from(signature, 'hex'), refused))
    return { code: 'INVALID_SIGNATURE', message: 'The request signature does not match the API key secret.' };
  return undefined;
}
