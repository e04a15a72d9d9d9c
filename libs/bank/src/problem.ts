import { providerError, Refusal, unavailable } from '@pixauto/errors';
import { PROBLEM_TYPE_PREFIX, Problema, Violacao } from './wire';

export const BankMessages = {
  unavailable: (reason: string) => `the bank is unavailable: ${reason}`,
  failed: (status: number) => `the bank failed to answer (HTTP ${status})`,
  refused: (status: number) => `the bank refused the request (HTTP ${status})`,
} as const;

/** A Problema (RFC 7807) as the BCB API answers it: type, title and status at least. */
export function isProblem(body: unknown): body is Problema {
  if (typeof body !== 'object' || body === null) return false;
  const { title, status } = body as Record<string, unknown>;
  return typeof title === 'string' && typeof status === 'number';
}

/** "https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida" → "RecOperacaoInvalida": the error's name in the spec. */
export function providerCodeOf(type: unknown): string | undefined {
  if (typeof type !== 'string' || type.length === 0 || type === 'about:blank') return undefined;
  const name = type.startsWith(PROBLEM_TYPE_PREFIX) ? type.slice(PROBLEM_TYPE_PREFIX.length) : type.slice(type.lastIndexOf('/') + 1);
  return name.length > 0 ? name : undefined;
}

/**
 * A non-2xx answer of the bank as a refusal (docs/api/README.md#errors: a ProviderError keeps the settlement system's
 * HTTP status, its reason, and its violations under the settlement system's own property names).
 * Without a problem body: a 5xx is the bank being unavailable, a 4xx a refusal we can say nothing more about.
 */
export function refusalOfBankAnswer(httpStatus: number, body: unknown): Refusal {
  if (isProblem(body)) {
    const violations = Array.isArray(body.violacoes)
      ? body.violacoes.filter((v): v is Violacao => typeof v === 'object' && v !== null).map((v) => ({ property: v.propriedade ?? '', reason: v.razao ?? '' }))
      : undefined;
    const message = typeof body.detail === 'string' && body.detail.length > 0 ? body.detail : body.title;
    return providerError(httpStatus, message, violations?.length ? violations : undefined, providerCodeOf(body.type));
  }
  return httpStatus >= 500 ? unavailable(BankMessages.failed(httpStatus)) : providerError(httpStatus, BankMessages.refused(httpStatus));
}
