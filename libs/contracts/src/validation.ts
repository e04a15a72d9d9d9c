import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { Messages, Refusal, validation } from '@pixauto/errors';

type Constructor<T> = new () => T;

export type Validated<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/**
 * Validates a request body against its DTO: unknown fields first (they change what the request means),
 * then every field rule, all problems in one ValidationError, in the order the DTO declares its fields.
 */
export function validateBody<T extends object>(dto: Constructor<T>, body: unknown, fieldNames: readonly string[]): Validated<T> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, refusal: validation(Messages.request.notAnObject) };
  }
  const unknown = Object.keys(body).filter((key) => !fieldNames.includes(key));
  if (unknown.length > 0) return { ok: false, refusal: validation(Messages.unknownFields(unknown)) };
  return validateInstance(plainToInstance(dto, body));
}

/** Validates query parameters (always strings or absent) against their DTO; unknown parameters are ignored. */
export function validateQuery<T extends object>(dto: Constructor<T>, query: unknown): Validated<T> {
  return validateInstance(plainToInstance(dto, typeof query === 'object' && query !== null ? query : {}));
}

function validateInstance<T extends object>(instance: T): Validated<T> {
  const errors = validateSync(instance, { stopAtFirstError: true, forbidUnknownValues: true });
  if (errors.length === 0) return { ok: true, value: instance };
  return { ok: false, refusal: validation(...errors.flatMap(messagesOf)) };
}

function messagesOf(error: ValidationError): string[] {
  const own = Object.values(error.constraints ?? {}).slice(0, 1);
  return [...own, ...(error.children ?? []).flatMap(messagesOf)];
}
