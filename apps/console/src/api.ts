import createClient, { type Client } from 'openapi-fetch';
import type { SandboxPaths } from '@pixauto/api-client';

export type Environment = 'production' | 'sandbox';
export type Role = 'owner' | 'developer' | 'viewer';

/** Who is signed in (the console server's GET /console/v1/session). */
export interface Session {
  email: string;
  role: Role;
  account_id: string;
  /** The account's name ('' when the platform could not tell it at sign-in). */
  account_name: string;
  csrf_token: string;
}

/** A refusal of the console server or of the merchant API: always a message, a ValidationError's type. */
export interface ApiError {
  message: string;
  type?: string;
}

const SESSION_URL = '/console/v1/session';

export async function currentSession(): Promise<Session | undefined> {
  const response = await fetch(SESSION_URL, { credentials: 'same-origin' });
  return response.ok ? ((await response.json()) as Session) : undefined;
}

export async function signIn(email: string, password: string): Promise<Session | ApiError> {
  const response = await fetch(SESSION_URL, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return (await response.json()) as Session | ApiError;
}

/** Uses a one-time sign-in link: sets the user's password and signs them in. A refusal carries its HTTP status (404: the link is dead). */
export async function signInWithLink(token: string, password: string): Promise<Session | (ApiError & { status: number })> {
  const response = await fetch(`${SESSION_URL}/link`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password }),
  });
  const json = (await response.json()) as Session | ApiError;
  return response.ok ? (json as Session) : { ...(json as ApiError), status: response.status };
}

/** Whether a sign-in link can still be used, without using it: undefined when it can, else the refusal (404: the link is dead). */
export async function signInLinkRefusal(token: string): Promise<(ApiError & { status: number }) | undefined> {
  const response = await fetch(`${SESSION_URL}/link/check`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  return response.status === 204 ? undefined : { ...((await response.json()) as ApiError), status: response.status };
}

export async function signOut(session: Session): Promise<void> {
  await fetch(SESSION_URL, { method: 'DELETE', credentials: 'same-origin', headers: { 'x-csrf-token': session.csrf_token } });
}

/**
 * The merchant API, typed by its own OpenAPI document (the client merchants use), reached through the console server,
 * which adds the account's key there: the browser never holds one.
 */
export type MerchantApi = Client<SandboxPaths>;

export const merchantApi = (environment: Environment, session: Session): MerchantApi =>
  createClient<SandboxPaths>({ baseUrl: `/console/v1/${environment}/api`, credentials: 'same-origin', headers: { 'x-csrf-token': session.csrf_token } });

/** What the role may do here, as the console server enforces it: the buttons a user could not use are not shown. */
export const mayAct = (role: Role, environment: Environment): boolean => role === 'owner' || (role === 'developer' && environment === 'sandbox');

/**
 * A ValidationError's message names each problem's field (`body.schedule.start_date must be ...`, problems joined by
 * '. '): each problem goes beside its field, the rest above the form.
 */
export function problemsByField(error: ApiError | undefined): Record<string, string[]> {
  if (!error) return {};
  const byField: Record<string, string[]> = {};
  for (const problem of error.message.split(/\.\s+(?=body\.|[A-Za-z_`])/)) {
    const field = /^body\.([a-z_.]+)/.exec(problem)?.[1] ?? '';
    (byField[field] ??= []).push(problem.replace(/\.$/, ''));
  }
  return byField;
}

/** A refusal's problems that none of the form's fields shows (`fields`: those it shows), for above the form: none is lost. */
export function problemsAbove(byField: Record<string, string[]>, fields: readonly string[]): string | undefined {
  const above = Object.entries(byField).flatMap(([field, problems]) => (fields.includes(field) ? [] : problems));
  return above.length > 0 ? above.join('. ') : undefined;
}

/** Money as the merchant reads it: R$ 19,90. */
export const money = (amount: number | undefined): string =>
  amount === undefined ? '' : amount.toLocaleString('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * One of the console server's own routes (not the merchant API): its answer, or its refusal's message. Every call
 * carries the session's CSRF token, which the server requires of every change.
 */
export async function consoleCall<T>(session: Session, method: string, url: string, body?: unknown): Promise<{ data?: T; error?: ApiError }> {
  const response = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: { 'x-csrf-token': session.csrf_token, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status === 204) return {};
  const json = (await response.json()) as T | ApiError;
  return response.ok ? { data: json as T } : { error: json as ApiError };
}
