import { parseArgs } from 'node:util';
import {
  CASHIN_PROVIDERS,
  CashinProvider,
  CONSOLE_ROLES,
  ENVIRONMENTS,
  Environment,
  MAX_RATE_LIMIT,
  RECEIPT_PROVIDERS,
  ReceiptProvider,
} from '@pixauto/contracts';

/** A mistake on the command line: reported with the usage text, exit 2, before any request. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface AdminRequest {
  method: HttpMethod;
  /** Path on ADMIN_URL, ids already URL-encoded. */
  path: string;
  body?: Record<string, unknown>;
  /** Said on stderr after a success (stdout carries only the response JSON). */
  notice?: string;
}

export type Command = { kind: 'help' } | { kind: 'request'; request: AdminRequest };

export interface ProviderCredentials {
  code: ReceiptProvider;
  credentials: Record<string, unknown>;
}

type OptionSpec = { type: 'string' | 'boolean' };
type Values = Record<string, string | boolean | undefined>;

interface Subcommand {
  /** Names of the positional arguments, in order, as the usage text spells them. */
  positionals: string[];
  options: Record<string, OptionSpec>;
  build(positionals: string[], values: Values): AdminRequest;
}

const MAX_NAME_LENGTH = 140;
const RATE_LIMIT_OPTIONS: Record<string, OptionSpec> = { 'rate-limit-production': { type: 'string' }, 'rate-limit-sandbox': { type: 'string' } };

export const COMMANDS: Record<string, Record<string, Subcommand>> = {
  accounts: {
    create: {
      positionals: [],
      options: {
        name: { type: 'string' },
        'no-wallet': { type: 'boolean' },
        'cashin-provider': { type: 'string' },
        'providers-json': { type: 'string' },
        ...RATE_LIMIT_OPTIONS,
      },
      build(_positionals, values) {
        if (values.name === undefined) throw new UsageError('accounts create: --name is required');
        const body: Record<string, unknown> = { name: parseName(values.name as string) };
        if (values['no-wallet']) body.wallet = false;
        Object.assign(body, accountOptions(values));
        return { method: 'POST', path: '/admin/accounts', body };
      },
    },
    show: {
      positionals: ['ACCOUNT_ID'],
      options: {},
      build([accountId]) {
        return { method: 'GET', path: `/admin/accounts/${encodeURIComponent(accountId)}` };
      },
    },
    update: {
      positionals: ['ACCOUNT_ID'],
      options: { wallet: { type: 'string' }, 'cashin-provider': { type: 'string' }, 'providers-json': { type: 'string' }, ...RATE_LIMIT_OPTIONS },
      build([accountId], values) {
        const body: Record<string, unknown> = {};
        if (values.wallet !== undefined) body.wallet = parseBoolean('--wallet', values.wallet as string);
        Object.assign(body, accountOptions(values));
        if (Object.keys(body).length === 0) {
          throw new UsageError(
            'accounts update: nothing to change; give at least one of --wallet, --cashin-provider, --providers-json, --rate-limit-production, --rate-limit-sandbox',
          );
        }
        return { method: 'PATCH', path: `/admin/accounts/${encodeURIComponent(accountId)}`, body };
      },
    },
    requests: {
      positionals: ['ACCOUNT_ID'],
      options: {
        environment: { type: 'string' },
        'request-id': { type: 'string' },
        failed: { type: 'boolean' },
        method: { type: 'string' },
        path: { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
      },
      build([accountId], values) {
        const query = new URLSearchParams({ environment: requiredEnvironment('accounts requests', values) });
        if (values['request-id'] !== undefined) query.set('request_id', values['request-id'] as string);
        if (values.failed) query.set('failed', 'true');
        for (const name of ['method', 'path', 'limit', 'cursor']) if (values[name] !== undefined) query.set(name, values[name] as string);
        return { method: 'GET', path: `/admin/accounts/${encodeURIComponent(accountId)}/requests?${query}` };
      },
    },
    'audit-log': {
      positionals: ['ACCOUNT_ID'],
      options: { limit: { type: 'string' }, cursor: { type: 'string' } },
      build([accountId], values) {
        const query = new URLSearchParams();
        for (const name of ['limit', 'cursor']) if (values[name] !== undefined) query.set(name, values[name] as string);
        return { method: 'GET', path: `/admin/accounts/${encodeURIComponent(accountId)}/audit-log${query.size > 0 ? `?${query}` : ''}` };
      },
    },
  },
  keys: {
    create: {
      positionals: ['ACCOUNT_ID'],
      options: { environment: { type: 'string' }, 'read-only': { type: 'boolean' }, 'no-transactions': { type: 'boolean' }, name: { type: 'string' } },
      build([accountId], values) {
        if (values.environment === undefined) throw new UsageError(`keys create: --environment is required (${ENVIRONMENTS.join(' or ')})`);
        const body: Record<string, unknown> = { environment: parseEnvironment(values.environment as string) };
        if (values['read-only']) body.read_only = true;
        if (values['no-transactions']) body.transactions = false;
        if (values.name !== undefined) body.name = values.name;
        return {
          method: 'POST',
          path: `/admin/accounts/${encodeURIComponent(accountId)}/api-keys`,
          body,
          notice: 'The api_key is shown only once (the platform keeps only its hash): store it now.',
        };
      },
    },
    list: {
      positionals: ['ACCOUNT_ID'],
      options: {},
      build([accountId]) {
        return { method: 'GET', path: `/admin/accounts/${encodeURIComponent(accountId)}/api-keys` };
      },
    },
    revoke: {
      positionals: ['KEY_ID'],
      options: {},
      build([keyId]) {
        return { method: 'DELETE', path: `/admin/api-keys/${encodeURIComponent(keyId)}`, notice: `API key ${keyId} revoked.` };
      },
    },
  },
  users: {
    create: {
      positionals: ['ACCOUNT_ID'],
      options: { email: { type: 'string' }, role: { type: 'string' } },
      build([accountId], values) {
        return {
          method: 'POST',
          path: `/admin/accounts/${encodeURIComponent(accountId)}/console-users`,
          body: { email: requiredEmail('users create', values), role: requiredRole('users create', values) },
          notice: LINK_NOTICE,
        };
      },
    },
    list: {
      positionals: ['ACCOUNT_ID'],
      options: {},
      build([accountId]) {
        return { method: 'GET', path: `/admin/accounts/${encodeURIComponent(accountId)}/console-users` };
      },
    },
    'set-role': {
      positionals: ['ACCOUNT_ID'],
      options: { email: { type: 'string' }, role: { type: 'string' } },
      build([accountId], values) {
        const email = requiredEmail('users set-role', values);
        const role = requiredRole('users set-role', values);
        return { method: 'PATCH', path: consoleUserPath(accountId, email), body: { role }, notice: `${email} is now ${role}.` };
      },
    },
    remove: {
      positionals: ['ACCOUNT_ID'],
      options: { email: { type: 'string' } },
      build([accountId], values) {
        const email = requiredEmail('users remove', values);
        return {
          method: 'DELETE',
          path: consoleUserPath(accountId, email),
          notice: `${email} removed: they can no longer sign in, and a console session they have open ends within a minute.`,
        };
      },
    },
    link: {
      positionals: ['ACCOUNT_ID'],
      options: { email: { type: 'string' } },
      build([accountId], values) {
        return { method: 'POST', path: `${consoleUserPath(accountId, requiredEmail('users link', values))}/sign-in-link`, notice: LINK_NOTICE };
      },
    },
  },
  webhooks: {
    'rotate-secret': {
      positionals: ['ACCOUNT_ID'],
      options: { environment: { type: 'string' } },
      build([accountId], values) {
        const environment = requiredEnvironment('webhooks rotate-secret', values);
        return {
          method: 'POST',
          path: `/admin/accounts/${encodeURIComponent(accountId)}/webhook-secret?environment=${environment}`,
          notice: `Both ${environment} secrets sign its webhooks until previous_secret_valid_until: move the merchant's ${environment} receiver to the new one before then. The other environment's secret is unchanged; the merchant keeps the two apart.`,
        };
      },
    },
    deliveries: {
      positionals: ['ACCOUNT_ID'],
      options: { environment: { type: 'string' }, status: { type: 'string' }, 'resource-id': { type: 'string' }, page: { type: 'string' } },
      build([accountId], values) {
        const query = new URLSearchParams({ environment: requiredEnvironment('webhooks deliveries', values) });
        if (values.status !== undefined) query.set('status', values.status as string);
        if (values['resource-id'] !== undefined) query.set('resource_id', values['resource-id'] as string);
        if (values.page !== undefined) query.set('page', values.page as string);
        return { method: 'GET', path: `/admin/accounts/${encodeURIComponent(accountId)}/webhook-deliveries?${query}` };
      },
    },
    retry: {
      positionals: ['ACCOUNT_ID', 'DELIVERY_ID'],
      options: { environment: { type: 'string' } },
      build([accountId, deliveryId], values) {
        const environment = requiredEnvironment('webhooks retry', values);
        return {
          method: 'POST',
          path: `/admin/accounts/${encodeURIComponent(accountId)}/webhook-deliveries/${encodeURIComponent(deliveryId)}/retry?environment=${environment}`,
          notice: `Delivery ${deliveryId}: one attempt now, under the same webhook-id.`,
        };
      },
    },
  },
};

const LINK_NOTICE =
  'Give sign_in_url to the user now: with it they choose their password and sign in. It works once, until expires_at, and is shown only here (the platform keeps only its hash).';

/** A console user of the account, named by their email address (the admin API takes it in place of the user_id). */
const consoleUserPath = (accountId: string, email: string): string =>
  `/admin/accounts/${encodeURIComponent(accountId)}/console-users/${encodeURIComponent(email)}`;

function requiredEmail(where: string, values: Values): string {
  if (values.email === undefined) throw new UsageError(`${where}: --email is required`);
  return values.email as string;
}

function requiredRole(where: string, values: Values): string {
  if (values.role === undefined || !(CONSOLE_ROLES as readonly string[]).includes(values.role as string)) {
    throw new UsageError(`${where}: --role must be one of ${CONSOLE_ROLES.join(', ')}`);
  }
  return values.role as string;
}

function requiredEnvironment(where: string, values: Values): Environment {
  if (values.environment === undefined) throw new UsageError(`${where}: --environment is required (${ENVIRONMENTS.join(' or ')})`);
  return parseEnvironment(values.environment as string);
}

const HELP_WORDS = new Set(['help', '--help', '-h']);

/** Turns the arguments after `npm run admin --` into the request to send, or `help`; throws UsageError. */
export function parseCommand(argv: readonly string[]): Command {
  const beforeSeparator = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  if (beforeSeparator.some((arg) => arg === '--help' || arg === '-h') || (argv.length > 0 && HELP_WORDS.has(argv[0]))) {
    return { kind: 'help' };
  }
  if (argv.length === 0) throw new UsageError('no command given');

  const [group, action, ...rest] = argv;
  const subcommands = COMMANDS[group];
  if (subcommands === undefined) {
    throw new UsageError(`unknown command '${group}' (commands: ${Object.keys(COMMANDS).join(', ')}, help)`);
  }
  const names = Object.keys(subcommands).join(', ');
  if (action === undefined) throw new UsageError(`'${group}' needs a subcommand: ${names}`);
  const subcommand = Object.hasOwn(subcommands, action) ? subcommands[action] : undefined;
  if (subcommand === undefined) throw new UsageError(`unknown subcommand '${group} ${action}' (${group}: ${names})`);

  const where = `${group} ${action}`;
  const { positionals, values } = parseOptions(where, subcommand, rest);
  return { kind: 'request', request: subcommand.build(positionals, values) };
}

function parseOptions(where: string, subcommand: Subcommand, args: string[]): { positionals: string[]; values: Values } {
  const parsed = (() => {
    try {
      return parseArgs({ args, options: subcommand.options, strict: true, allowPositionals: true, tokens: true });
    } catch (error) {
      const { code, message } = error as NodeJS.ErrnoException;
      if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
        const option = /'([^']*)'/.exec(message)?.[1] ?? message;
        const known = Object.keys(subcommand.options).map((name) => `--${name}`);
        throw new UsageError(`${where}: unknown option '${option}' (${known.length > 0 ? `options: ${known.join(', ')}` : 'it takes no options'})`);
      }
      // Node's other messages are multi-line at times; the first line names the problem.
      throw new UsageError(`${where}: ${message.split('\n')[0]}`);
    }
  })();

  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(`${where}: --${token.name} given more than once`);
    seen.add(token.name);
  }

  const expected = subcommand.positionals;
  if (parsed.positionals.length < expected.length) {
    throw new UsageError(`${where}: missing ${expected.slice(parsed.positionals.length).join(' ')}`);
  }
  if (parsed.positionals.length > expected.length) {
    throw new UsageError(`${where}: unexpected argument '${parsed.positionals[expected.length]}'`);
  }
  parsed.positionals.forEach((value, index) => {
    if (value.trim() === '') throw new UsageError(`${where}: ${expected[index]} must not be empty`);
  });
  return { positionals: parsed.positionals, values: parsed.values as Values };
}

/** The options `accounts create` and `accounts update` share. */
function accountOptions(values: Values): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (values['cashin-provider'] !== undefined) body.cashin_provider = parseCashinProvider(values['cashin-provider'] as string);
  if (values['providers-json'] !== undefined) body.providers = parseProviders(values['providers-json'] as string);
  const rateLimit: Record<string, number> = {};
  for (const environment of ENVIRONMENTS) {
    const value = values[`rate-limit-${environment}`];
    if (value !== undefined) rateLimit[environment] = parseRateLimit(`--rate-limit-${environment}`, value as string);
  }
  if (Object.keys(rateLimit).length > 0) body.rate_limit = rateLimit;
  return body;
}

/** Requests per second of an account in one environment: a whole number the gateway accepts. */
export function parseRateLimit(option: string, value: string): number {
  if (/^[1-9][0-9]*$/.test(value) && Number(value) <= MAX_RATE_LIMIT) return Number(value);
  throw new UsageError(`${option} must be a whole number of requests per second from 1 to ${MAX_RATE_LIMIT} (got '${value}')`);
}

export function parseName(value: string): string {
  if (value.trim() === '') throw new UsageError('--name must not be empty');
  if (value.length > MAX_NAME_LENGTH) throw new UsageError(`--name must be at most ${MAX_NAME_LENGTH} characters (got ${value.length})`);
  return value;
}

export function parseBoolean(option: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`${option} must be true or false (got '${value}')`);
}

export function parseCashinProvider(value: string): CashinProvider {
  if ((CASHIN_PROVIDERS as readonly string[]).includes(value)) return value as CashinProvider;
  throw new UsageError(`--cashin-provider must be one of ${CASHIN_PROVIDERS.join(', ')} (got '${value}')`);
}

export function parseEnvironment(value: string): Environment {
  if ((ENVIRONMENTS as readonly string[]).includes(value)) return value as Environment;
  throw new UsageError(`--environment must be ${ENVIRONMENTS.join(' or ')} (got '${value}')`);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `--providers-json`: the banks enabled for refund receipts, each with the account's credentials. */
export function parseProviders(text: string): ProviderCredentials[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--providers-json is not valid JSON: ${(error as Error).message}`);
  }
  const shape = `a JSON array of {"code", "credentials"} objects`;
  if (!Array.isArray(value)) throw new UsageError(`--providers-json must be ${shape}`);
  if (value.length > RECEIPT_PROVIDERS.length) {
    throw new UsageError(`--providers-json has ${value.length} entries; at most ${RECEIPT_PROVIDERS.length} (${RECEIPT_PROVIDERS.join(', ')})`);
  }
  const codes = new Set<string>();
  return value.map((entry: unknown, index) => {
    const at = `--providers-json[${index}]`;
    if (!isPlainObject(entry)) throw new UsageError(`${at} must be an object {"code", "credentials"}`);
    const unknown = Object.keys(entry).filter((key) => key !== 'code' && key !== 'credentials');
    if (unknown.length > 0) throw new UsageError(`${at} has unknown field ${unknown.map((key) => `'${key}'`).join(', ')}`);
    const { code, credentials } = entry;
    if (typeof code !== 'string' || !(RECEIPT_PROVIDERS as readonly string[]).includes(code)) {
      throw new UsageError(`${at}.code must be one of ${RECEIPT_PROVIDERS.join(', ')} (got ${JSON.stringify(code) ?? 'nothing'})`);
    }
    if (!isPlainObject(credentials)) throw new UsageError(`${at}.credentials must be a JSON object`);
    if (codes.has(code)) throw new UsageError(`--providers-json lists ${code} more than once`);
    codes.add(code);
    return { code: code as ReceiptProvider, credentials };
  });
}
