import { getMetadataStorage, MAX, MIN, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { WEBHOOK_EVENT_TYPES } from '@pixauto/contracts'; // and registers the DTOs' class-validator metadata
import { RESPONSE_SCHEMAS } from './response-schemas.generated';
import { ERROR_SCHEMA } from './route-doc';

type Schema = Record<string, unknown>;

// class-transformer's @Type() metadata (the nested DTOs), which class-validator-jsonschema follows; its typings sit apart.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { defaultMetadataStorage } = require('class-transformer/cjs/storage') as typeof import('class-transformer/types/storage');

// The refusal shape (docs/api/README.md#errors, libs/errors toHttp): every field but message depends on the kind.
const ERROR: Schema = {
  type: 'object',
  description:
    'Every refusal (4xx) and failure (5xx) has this shape: always a `message`; `type` for ValidationError, LimitExceededError and ProviderError; `code` for API key refusals; the other fields where the kind has them.',
  properties: {
    type: {
      type: 'string',
      enum: ['ValidationError', 'LimitExceededError', 'ProviderError'],
      description:
        'The kind of refusal. ValidationError: the request breaks a field rule (fix it before repeating). LimitExceededError: a customer limit refuses the transaction; nothing was created. ProviderError: the bank or the settlement system refused; the HTTP status is the one it gave. Absent on other refusals.',
    },
    code: {
      type: 'integer',
      description:
        'API key (and admin token) refusals only. 1: the key is missing, unknown, revoked or of the other environment (401). 2: the key is read-only and the request writes (403).',
    },
    message: {
      type: 'string',
      description: 'What went wrong, in words; a ValidationError names every field at fault, several problems separated by a period.',
    },
    provider_code: {
      type: 'string',
      description: 'ProviderError only, when the settlement system gave one: its own code for the refusal (e.g. `RecOperacaoInvalida`).',
    },
    violations: {
      type: 'array',
      description:
        "ProviderError only, when the settlement system listed them: each rule the request broke, in the settlement system's own field names (which may differ from this API's). For troubleshooting.",
      items: {
        type: 'object',
        properties: {
          property: { type: 'string', description: "The field at fault, in the settlement system's names (e.g. `calendario.dataInicial`)." },
          reason: { type: 'string', description: 'Why the settlement system refused it.' },
        },
        required: ['property', 'reason'],
      },
    },
    detail: {
      type: 'string',
      description: "Receipts only: more about the refusal, e.g. the `refund_id`s to choose from (comma-separated) or the bank's own words.",
    },
  },
  required: ['message'],
  additionalProperties: false,
};

/** The field rules of our own (libs/contracts rule()), by name, as JSON Schema; the messages are the spec's. */
const CUSTOM_RULES: Record<string, Schema> = {
  isCpfOrCnpj: {
    type: 'string',
    pattern: '^([0-9]{11}|[0-9A-Z]{12}[0-9]{2})$',
    description:
      'A CPF (11 digits) or a CNPJ (14 characters: the numeric form, or the alphanumeric form issued since July 2026 with 12 capital letters or digits and two check digits), without punctuation, check digits validated. Example: `12ABC34501DE35`.',
  },
  isPositiveReais: { type: 'number', exclusiveMinimum: 0, description: 'Reais, positive, at most 2 decimal places' },
  hasAtMostTwoDecimals: { type: 'number' },
  isWebhookUrl: {
    type: ['string', 'null'],
    format: 'uri',
    maxLength: 255,
    description: 'An http(s) URL of at most 255 characters; absent or null: no notifications',
  },
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
  const generated = responses as Record<string, Schema>;
  // ts-json-schema-generator names the catalogue's keys by their expressions (`[PayoutEventTypes.created]`): the values are the catalogue's.
  const eventType = { ...generated.WebhookEventType, enum: [...WEBHOOK_EVENT_TYPES] };
  const schemas: Record<string, Schema> = { ...generated, WebhookEventType: eventType, ...requests, [ERROR_SCHEMA]: ERROR };
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
}
