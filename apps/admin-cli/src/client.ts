import { AdminRequest } from './commands';

/** What the process prints and how it exits. */
export interface Outcome {
  exitCode: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

export type Fetch = (url: string, init: RequestInit) => Promise<Response>;

export const REQUEST_TIMEOUT_MS = 30_000;

export function buildUrl(baseUrl: string, request: AdminRequest): string {
  return `${baseUrl.replace(/\/+$/, '')}${request.path}`;
}

export function buildInit(request: AdminRequest, token: string): RequestInit {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
  if (request.body === undefined) return { method: request.method, headers };
  return { method: request.method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(request.body) };
}

/** A JSON body pretty-printed, anything else as it came; always ends with a newline unless empty. */
export function formatBody(text: string): string {
  if (text.trim() === '') return '';
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return text.endsWith('\n') ? text : `${text}\n`;
  }
}

/** Maps a response to what the CLI prints: 2xx → body on stdout, exit 0; otherwise status and body on stderr, exit 1. */
export function describeResponse(request: AdminRequest, status: number, statusText: string, text: string): Outcome {
  const body = formatBody(text);
  if (status >= 200 && status < 300) {
    return { exitCode: 0, stdout: body, stderr: request.notice ? `${request.notice}\n` : '' };
  }
  const hint = status === 401 || status === 403 ? 'Check ADMIN_TOKEN (or .data/admin-token): it must be the token the gateway was started with.\n' : '';
  return { exitCode: 1, stdout: '', stderr: `HTTP ${status}${statusText ? ` ${statusText}` : ''}\n${body}${hint}` };
}

export async function send(request: AdminRequest, options: { baseUrl: string; token: string; fetch: Fetch; timeoutMs?: number }): Promise<Outcome> {
  const url = buildUrl(options.baseUrl, request);
  let response: Response;
  let text: string;
  try {
    response = await options.fetch(url, { ...buildInit(request, options.token), signal: AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS) });
    text = await response.text();
  } catch (error) {
    return {
      exitCode: 1,
      stdout: '',
      stderr: `${request.method} ${url} failed: ${reason(error)}\nIs the gateway running with ADMIN_TOKEN set? (ADMIN_URL=${options.baseUrl})\n`,
    };
  }
  return describeResponse(request, response.status, response.statusText, text);
}

function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the socket error (ECONNREFUSED, ...) in `cause`.
  const cause = error.cause instanceof Error ? `: ${(error.cause as NodeJS.ErrnoException).code ?? error.cause.message}` : '';
  return `${error.message}${cause}`;
}
