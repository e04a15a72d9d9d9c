/**
 * What never reaches a log line (issue #12 §5, #13 §2): credentials, API keys, tokens, secrets, and documents (CPF,
 * CNPJ). Fields are removed by name wherever a line's object holds them, up to three levels deep; document numbers
 * inside free text (an error message) are masked.
 */
const SECRET_KEYS = [
  'authorization',
  'Authorization',
  'x-api-key',
  'api_key',
  'apiKey',
  'key',
  'secret',
  'secrets',
  'webhook_secret',
  'client_secret',
  'clientSecret',
  'password',
  'token',
  'access_token',
  'refresh_token',
  'admin_token',
  'credentials',
  'certificate',
  'private_key',
  'document',
  'document_number',
  'cpf',
  'cnpj',
  'cpf_cnpj',
  'tax_id',
];

const property = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `["${key}"]`);

/** pino's redact paths: each key at the top of a line's object and under one or two levels of nesting. */
export const REDACT_PATHS: string[] = SECRET_KEYS.flatMap((key) => {
  const tail = property(key);
  return [tail.startsWith('.') ? tail.slice(1) : tail, `*${tail}`, `*.*${tail}`];
});

export const REDACTED = '[redacted]';

/** A CPF or CNPJ, bare (11 or 14 digits) or formatted (000.000.000-00, 00.000.000/0000-00). */
const DOCUMENT = /(?<!\d)(?:\d{3}\.\d{3}\.\d{3}-\d{2}|\d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}|\d{14}|\d{11})(?!\d)/g;

/** Free text with every document number masked but for its last two digits. */
export const maskDocuments = (text: string): string =>
  text.replace(DOCUMENT, (document) => document.replace(/\d(?=(?:\D*\d){2})/g, '*'));
