import { RequestLogLine } from '@pixauto/contracts';
import { maskDocuments, redactSecrets } from '@pixauto/telemetry';

// The account's API requests as the console's request log shows them (docs/decisions/request-log.md): one line per
// request the gateway answered for an API key, kept for the retention the operator sets. What a line may hold is
// decided here, once: never a key or a secret, document numbers masked as in the logs, and the bodies of failed
// requests only.

/** A body kept for a failed request is cut here: enough to see the field at fault, not a store of payloads. */
export const BODY_LIMIT = 4096;

/** What the gateway knows of a request once it has answered it. */
export interface AnsweredRequest {
  account_id: string;
  environment: 'production' | 'sandbox';
  key_id: string;
  received_at: Date;
  request_id: string;
  method: string;
  url: string;
  status: number;
  duration_ms: number;
  idempotency_key: string | undefined;
  /** The console user who made the change through the console (its signed header, console-user.ts). */
  console_user?: string;
  /** The parsed JSON body, or the raw text the parser refused. */
  body: unknown;
  /** The answer's body as sent. */
  answer: string | undefined;
}

const cut = (text: string): string => (text.length > BODY_LIMIT ? `${text.slice(0, BODY_LIMIT)}…` : text);

/** The body as the log keeps it: secret fields replaced, documents masked, cut at BODY_LIMIT. */
function keptBody(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null;
  if (typeof body === 'string') return cut(maskDocuments(body));
  return cut(JSON.stringify(redactSecrets(body)));
}

/** The answer as kept: documents masked, and a JSON answer's secret fields replaced as the request's are. */
function keptAnswer(answer: string | undefined): string | null {
  if (!answer) return null;
  try {
    return keptBody(JSON.parse(answer) as unknown);
  } catch {
    return cut(maskDocuments(answer));
  }
}

export function requestLogLine(request: AnsweredRequest): RequestLogLine {
  const failed = request.status >= 400;
  return {
    account_id: request.account_id,
    environment: request.environment,
    at: request.received_at.toISOString(),
    request_id: request.request_id,
    method: request.method,
    path: maskDocuments(request.url),
    status: request.status,
    duration_ms: Math.round(request.duration_ms * 10) / 10,
    idempotency_key: request.idempotency_key ?? null,
    key_id: request.key_id,
    request_body: failed ? keptBody(request.body) : null,
    response_body: failed ? keptAnswer(request.answer) : null,
    console_user: request.console_user ?? null,
  };
}
