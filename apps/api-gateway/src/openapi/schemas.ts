import { getMetadataStorage, MAX, MIN, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import '@pixauto/contracts'; // registers the DTOs' class-validator metadata
import { RESPONSE_SCHEMAS } from './response-schemas.generated';
import { ERROR_SCHEMA } from './route-doc';

type Schema = Record<string, unknown>;

// class-transformer's @Type() metadata (the nested DTOs), which class-validator-jsonschema follows; its typings sit apart.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

/** The refusal shape of service-api.md 7.1 and platform.md (libs/errors toHttp): every field but message depends on the kind. */
const ERROR: Schema = {
  type: 'object',
  description: 'ValidationError, LimitExceededError and ProviderError carry `type`; authentication refusals carry `code`.',
  properties: {
    type: { type: 'string', enum: ['ValidationError', 'LimitExceededError', 'ProviderError'] },
    code: { type: 'integer', description: '1: the key is invalid; 2: the key is read-only; 3: the key may not make transactions' },
    message: { type: 'string' },
    provider_code: { type: 'string' },
    violations: { type: 'array', items: { type: 'object', properties: { property: { type: 'string' }, reason: { type: 'string' } }, required: ['property', 'reason'] } },
    detail: { type: 'string' },
  },
  required: ['message'],
  additionalProperties: false,
};

/** The field rules of our own (libs/contracts rule()), by name, as JSON Schema; the messages are the spec's. */
const CUSTOM_RULES: Record<string, Schema> = {
  isCpf: { type: 'string', pattern: '^[0-9]{11}$', description: 'A CPF: 11 digits with valid check digits' },
  isCpfOrCnpj: { type: 'string', pattern: '^([0-9]{11}|[0-9]{14})$', description: 'A CPF (11 digits) or CNPJ (14 digits) with valid check digits' },
  isPositiveReais: { type: 'number', exclusiveMinimum: 0, description: 'Reais, positive, at most 2 decimal places' },
  hasAtMostTwoDecimals: { type: 'number' },
  isWebhookUrl: { type: ['string', 'null'], format: 'uri', maxLength: 255, description: 'An http(s) URL of at most 255 characters; absent or null: no notifications' },
  hasDateFormat: { type: 'string', format: 'date' },
  isExistingDate: { type: 'string', format: 'date' },
  isAfterToday: { type: 'string', format: 'date', description: 'After today (Brasília time)' },
  isDateTimeWithZone: { type: 'string', description: 'A date (YYYY-MM-DD) or a date-time with its zone (ISO 8601)' },
  isPixKey: { type: 'string', description: 'A Pix key: CPF, CNPJ, e-mail, +55 phone or random key (EVP)' },
};

/** A rule of ours by its name; one that says nothing about the value's shape (e.g. which fields go together) adds nothing. */
function customRule(meta: ValidationMetadata): Schema {
  const name = getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls)[0]?.name;
  return (name && CUSTOM_RULES[name]) || {};
}

/**
 * Every schema the documents name: request bodies from the class-validator DTOs (class-validator-jsonschema, at run
 * time from the classes the code validates with), responses and hand-checked bodies from the TypeScript interfaces
 * (ts-json-schema-generator, response-schemas.generated.ts, made by npm run api:generate), and the error shape.
 */
export function componentSchemas(responses: Record<string, unknown> = RESPONSE_SCHEMAS): Record<string, Schema> {
  const requests = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classValidatorMetadataStorage: getMetadataStorage(),
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: {
      [ValidationTypes.CUSTOM_VALIDATION]: customRule,
      // bounds only: the field's type is its own decorator's (IsInt's integer must not become a number)
      [MIN]: (meta: ValidationMetadata) => ({ minimum: meta.constraints[0] }),
      [MAX]: (meta: ValidationMetadata) => ({ maximum: meta.constraints[0] }),
    },
  }) as Record<string, Schema>;
  const schemas: Record<string, Schema> = { ...(responses as Record<string, Schema>), ...requests, [ERROR_SCHEMA]: ERROR };
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}
