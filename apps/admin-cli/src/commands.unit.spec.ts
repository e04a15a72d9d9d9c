import { AdminRequest, parseCommand, parseProviders, UsageError } from './commands';

const request = (...argv: string[]): AdminRequest => {
  const command = parseCommand(argv);
  if (command.kind !== 'request') throw new Error(`expected a request, got ${command.kind}`);
  return command.request;
};
const usageError = (...argv: string[]): string => {
  try {
    parseCommand(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

const CREDENTIALS = '[{"code":"PROVIDER_A","credentials":{"client_id":"id","client_secret":"secret"}}]';

describe('parseCommand', () => {
  describe('webhooks', () => {
    it('rotate-secret posts to the account for one environment, required, with a notice about the overlap', () => {
      expect(request('webhooks', 'rotate-secret', 'acc 1', '--environment', 'sandbox')).toEqual({
        method: 'POST',
        path: '/admin/accounts/acc%201/webhook-secret?environment=sandbox',
        notice:
          "Both sandbox secrets sign its webhooks until previous_secret_valid_until: move the merchant's sandbox receiver to the new one before then. The other environment's secret is unchanged; the merchant keeps the two apart.",
      });
      expect(request('webhooks', 'rotate-secret', 'acc', '--environment', 'production').path).toBe('/admin/accounts/acc/webhook-secret?environment=production');
      expect(usageError('webhooks', 'rotate-secret', 'acc')).toBe('webhooks rotate-secret: --environment is required (production or sandbox)');
      expect(usageError('webhooks', 'rotate-secret', 'acc', '--environment', 'live')).toBe("--environment must be production or sandbox (got 'live')");
    });

    it('deliveries maps its filters to the query, environment required', () => {
      expect(request('webhooks', 'deliveries', 'acc', '--environment', 'sandbox', '--status', 'failed', '--resource-id', 'r/1', '--page', '2')).toEqual({
        method: 'GET',
        path: '/admin/accounts/acc/webhook-deliveries?environment=sandbox&status=failed&resource_id=r%2F1&page=2',
      });
      expect(usageError('webhooks', 'deliveries', 'acc')).toBe('webhooks deliveries: --environment is required (production or sandbox)');
      expect(usageError('webhooks', 'deliveries', 'acc', '--environment', 'staging')).toBe("--environment must be production or sandbox (got 'staging')");
    });

    it('retry names the account, the delivery and the environment', () => {
      expect(request('webhooks', 'retry', 'acc', 'msg_1', '--environment', 'production')).toEqual({
        method: 'POST',
        path: '/admin/accounts/acc/webhook-deliveries/msg_1/retry?environment=production',
        notice: 'Delivery msg_1: one attempt now, under the same webhook-id.',
      });
      expect(usageError('webhooks', 'retry', 'acc', '--environment', 'production')).toBe('webhooks retry: missing DELIVERY_ID');
    });
  });

  describe('help', () => {
    it.each([[['help']], [['--help']], [['-h']], [['accounts', '--help']], [['keys', 'create', 'acc', '-h']]])('%j is help', (argv) => {
      expect(parseCommand(argv)).toEqual({ kind: 'help' });
    });

    it('does not take --help after -- as help', () => {
      expect(usageError('accounts', 'show', '--', '--help', 'x')).toBe("accounts show: unexpected argument 'x'");
    });

    it('refuses no command at all', () => {
      expect(usageError()).toBe('no command given');
    });
  });

  describe('unknown commands', () => {
    it('names the known commands', () => {
      expect(usageError('payments')).toBe("unknown command 'payments' (commands: accounts, keys, users, webhooks, help)");
    });
    it('asks for a subcommand', () => {
      expect(usageError('keys')).toBe("'keys' needs a subcommand: create, list, revoke");
    });
    it('names the known subcommands', () => {
      expect(usageError('accounts', 'delete', 'x')).toBe("unknown subcommand 'accounts delete' (accounts: create, show, update, requests, audit-log)");
    });
    it('does not treat Object.prototype names as subcommands', () => {
      expect(usageError('accounts', 'toString')).toMatch(/^unknown subcommand/);
    });
  });

  describe('accounts create', () => {
    it('sends only the name by default (server defaults apply)', () => {
      expect(request('accounts', 'create', '--name', 'Acme')).toEqual({ method: 'POST', path: '/admin/accounts', body: { name: 'Acme' } });
    });

    it('maps every option', () => {
      expect(request('accounts', 'create', '--name=Acme Ltda', '--no-wallet', '--cashin-provider', 'PROVIDER_C', '--providers-json', CREDENTIALS).body).toEqual(
        {
          name: 'Acme Ltda',
          wallet: false,
          cashin_provider: 'PROVIDER_C',
          providers: [{ code: 'PROVIDER_A', credentials: { client_id: 'id', client_secret: 'secret' } }],
        },
      );
    });

    it('accepts an empty providers array', () => {
      expect(request('accounts', 'create', '--name', 'Acme', '--providers-json', '[]').body).toEqual({ name: 'Acme', providers: [] });
    });

    it('requires --name', () => {
      expect(usageError('accounts', 'create', '--no-wallet')).toBe('accounts create: --name is required');
    });
    it('refuses a --name without value', () => {
      expect(usageError('accounts', 'create', '--name')).toBe("accounts create: Option '--name <value>' argument missing");
    });
    it('refuses an option as the value of --name (first line of node message)', () => {
      expect(usageError('accounts', 'create', '--name', '--no-wallet')).toBe("accounts create: Option '--name' argument is ambiguous.");
    });
    it('refuses a blank name', () => {
      expect(usageError('accounts', 'create', '--name', '  ')).toBe('--name must not be empty');
    });
    it('refuses a name over 140 characters, accepts 140', () => {
      expect(usageError('accounts', 'create', '--name', 'x'.repeat(141))).toBe('--name must be at most 140 characters (got 141)');
      expect(request('accounts', 'create', '--name', 'x'.repeat(140)).body).toEqual({ name: 'x'.repeat(140) });
    });
    it('refuses an unknown cash-in provider', () => {
      expect(usageError('accounts', 'create', '--name', 'A', '--cashin-provider', 'provider_a')).toBe(
        "--cashin-provider must be one of PROVIDER_A, PROVIDER_B, PROVIDER_C (got 'provider_a')",
      );
    });
    it('refuses --wallet (create only has --no-wallet)', () => {
      expect(usageError('accounts', 'create', '--name', 'A', '--wallet', 'false')).toBe(
        "accounts create: unknown option '--wallet' (options: --name, --no-wallet, --cashin-provider, --providers-json, --rate-limit-production, --rate-limit-sandbox)",
      );
    });
    it('refuses a value for a flag', () => {
      expect(usageError('accounts', 'create', '--name', 'A', '--no-wallet=true')).toBe("accounts create: Option '--no-wallet' does not take an argument");
    });
    it('refuses positionals', () => {
      expect(usageError('accounts', 'create', '--name', 'A', 'extra')).toBe("accounts create: unexpected argument 'extra'");
    });
    it('refuses an option given twice', () => {
      expect(usageError('accounts', 'create', '--name', 'A', '--name', 'B')).toBe('accounts create: --name given more than once');
    });
  });

  describe('accounts show', () => {
    it('GETs the account, id URL-encoded', () => {
      expect(request('accounts', 'show', 'acc_1')).toEqual({ method: 'GET', path: '/admin/accounts/acc_1' });
      expect(request('accounts', 'show', 'a/b?c').path).toBe('/admin/accounts/a%2Fb%3Fc');
    });
    it('requires exactly one id', () => {
      expect(usageError('accounts', 'show')).toBe('accounts show: missing ACCOUNT_ID');
      expect(usageError('accounts', 'show', 'a', 'b')).toBe("accounts show: unexpected argument 'b'");
      expect(usageError('accounts', 'show', '')).toBe('accounts show: ACCOUNT_ID must not be empty');
    });
    it('takes no options', () => {
      expect(usageError('accounts', 'show', 'a', '--name', 'x')).toBe("accounts show: unknown option '--name' (it takes no options)");
    });
  });

  describe('accounts update', () => {
    it('PATCHes only what is given', () => {
      expect(request('accounts', 'update', 'acc_1', '--wallet', 'false')).toEqual({ method: 'PATCH', path: '/admin/accounts/acc_1', body: { wallet: false } });
      expect(request('accounts', 'update', 'acc_1', '--wallet=true', '--cashin-provider', 'PROVIDER_B', '--providers-json', CREDENTIALS).body).toEqual({
        wallet: true,
        cashin_provider: 'PROVIDER_B',
        providers: [{ code: 'PROVIDER_A', credentials: { client_id: 'id', client_secret: 'secret' } }],
      });
    });
    it('accepts options before the id', () => {
      expect(request('accounts', 'update', '--cashin-provider', 'PROVIDER_A', 'acc_1')).toEqual({
        method: 'PATCH',
        path: '/admin/accounts/acc_1',
        body: { cashin_provider: 'PROVIDER_A' },
      });
    });
    it("sets one environment's rate limit, or both", () => {
      expect(request('accounts', 'update', 'acc_1', '--rate-limit-sandbox', '25').body).toEqual({ rate_limit: { sandbox: 25 } });
      expect(request('accounts', 'update', 'acc_1', '--rate-limit-production=100', '--rate-limit-sandbox=25').body).toEqual({
        rate_limit: { production: 100, sandbox: 25 },
      });
      expect(request('accounts', 'create', '--name', 'A', '--rate-limit-production', '100000').body).toEqual({ name: 'A', rate_limit: { production: 100000 } });
    });
    it.each(['0', '-1', '1.5', '100001', 'ten', '', '010'])('refuses --rate-limit-sandbox %j', (value) => {
      expect(usageError('accounts', 'update', 'acc_1', `--rate-limit-sandbox=${value}`)).toBe(
        `--rate-limit-sandbox must be a whole number of requests per second from 1 to 100000 (got '${value}')`,
      );
    });
    it('refuses nothing to change', () => {
      expect(usageError('accounts', 'update', 'acc_1')).toBe(
        'accounts update: nothing to change; give at least one of --wallet, --cashin-provider, --providers-json, --rate-limit-production, --rate-limit-sandbox',
      );
    });
    it.each(['yes', 'TRUE', '1', ''])('refuses --wallet %j', (value) => {
      expect(usageError('accounts', 'update', 'acc_1', `--wallet=${value}`)).toBe(`--wallet must be true or false (got '${value}')`);
    });
    it('refuses --no-wallet (update has --wallet true|false)', () => {
      expect(usageError('accounts', 'update', 'acc_1', '--no-wallet')).toBe(
        "accounts update: unknown option '--no-wallet' (options: --wallet, --cashin-provider, --providers-json, --rate-limit-production, --rate-limit-sandbox)",
      );
    });
    it('requires the id', () => {
      expect(usageError('accounts', 'update', '--wallet', 'true')).toBe('accounts update: missing ACCOUNT_ID');
    });
  });

  describe('keys create', () => {
    it('POSTs the environment, flags only when given, and warns the key is shown once', () => {
      expect(request('keys', 'create', 'acc_1', '--environment', 'sandbox')).toEqual({
        method: 'POST',
        path: '/admin/accounts/acc_1/api-keys',
        body: { environment: 'sandbox' },
        notice: expect.stringContaining('shown only once'),
      });
      expect(request('keys', 'create', '--environment=production', '--read-only', '--no-transactions', 'acc_1').body).toEqual({
        environment: 'production',
        read_only: true,
        transactions: false,
      });
      expect(request('keys', 'create', 'acc_1', '--environment', 'sandbox', '--name', 'Billing backend').body).toEqual({
        environment: 'sandbox',
        name: 'Billing backend',
      });
    });
    it('requires --environment', () => {
      expect(usageError('keys', 'create', 'acc_1')).toBe('keys create: --environment is required (production or sandbox)');
    });
    it('refuses another environment', () => {
      expect(usageError('keys', 'create', 'acc_1', '--environment', 'staging')).toBe("--environment must be production or sandbox (got 'staging')");
    });
    it('requires the account id', () => {
      expect(usageError('keys', 'create', '--environment', 'sandbox')).toBe('keys create: missing ACCOUNT_ID');
    });
  });

  describe('accounts audit-log', () => {
    it("GETs the account's audit log, paged when asked", () => {
      expect(request('accounts', 'audit-log', 'acc 1')).toEqual({ method: 'GET', path: '/admin/accounts/acc%201/audit-log' });
      expect(request('accounts', 'audit-log', 'acc_1', '--limit', '5', '--cursor', '42').path).toBe('/admin/accounts/acc_1/audit-log?limit=5&cursor=42');
    });
  });

  describe('accounts requests', () => {
    it("GETs the account's request log with the filters given", () => {
      expect(request('accounts', 'requests', 'acc 1', '--environment', 'sandbox', '--failed', '--request-id', 'req 1', '--limit', '5')).toEqual({
        method: 'GET',
        path: '/admin/accounts/acc%201/requests?environment=sandbox&request_id=req+1&failed=true&limit=5',
      });
    });
    it('requires the environment', () => {
      expect(usageError('accounts', 'requests', 'acc_1')).toBe('accounts requests: --environment is required (production or sandbox)');
    });
  });

  describe('keys list', () => {
    it("GETs the account's keys", () => {
      expect(request('keys', 'list', 'acc 1')).toEqual({ method: 'GET', path: '/admin/accounts/acc%201/api-keys' });
    });
    it('requires the account id', () => {
      expect(usageError('keys', 'list')).toBe('keys list: missing ACCOUNT_ID');
    });
  });

  describe('keys revoke', () => {
    it('DELETEs the key', () => {
      expect(request('keys', 'revoke', 'key_1')).toEqual({ method: 'DELETE', path: '/admin/api-keys/key_1', notice: 'API key key_1 revoked.' });
    });
    it('requires exactly one id', () => {
      expect(usageError('keys', 'revoke')).toBe('keys revoke: missing KEY_ID');
      expect(usageError('keys', 'revoke', 'a', 'b')).toBe("keys revoke: unexpected argument 'b'");
    });
  });
});

describe('parseProviders', () => {
  const refusal = (text: string): string => {
    try {
      parseProviders(text);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected a refusal');
  };

  it('keeps both receipt banks with their credentials', () => {
    expect(parseProviders('[{"code":"PROVIDER_B","credentials":{}},{"code":"PROVIDER_A","credentials":{"client_secret":"s"}}]')).toEqual([
      { code: 'PROVIDER_B', credentials: {} },
      { code: 'PROVIDER_A', credentials: { client_secret: 's' } },
    ]);
  });
  it('refuses text that is not JSON', () => {
    expect(refusal('[{code:1}]')).toMatch(/^--providers-json is not valid JSON: /);
  });
  it('refuses a non-array', () => {
    expect(refusal('{"code":"PROVIDER_A","credentials":{}}')).toBe('--providers-json must be a JSON array of {"code", "credentials"} objects');
  });
  it('refuses more than two entries', () => {
    expect(refusal('[{},{},{}]')).toBe('--providers-json has 3 entries; at most 2 (PROVIDER_A, PROVIDER_B)');
  });
  it('refuses an entry that is not an object', () => {
    expect(refusal('["PROVIDER_A"]')).toBe('--providers-json[0] must be an object {"code", "credentials"}');
  });
  it('refuses PROVIDER_C and missing codes (no refund receipts there)', () => {
    expect(refusal('[{"code":"PROVIDER_C","credentials":{}}]')).toBe('--providers-json[0].code must be one of PROVIDER_A, PROVIDER_B (got "PROVIDER_C")');
    expect(refusal('[{"credentials":{}}]')).toBe('--providers-json[0].code must be one of PROVIDER_A, PROVIDER_B (got nothing)');
  });
  it('refuses credentials that are not an object', () => {
    expect(refusal('[{"code":"PROVIDER_A","credentials":"secret"}]')).toBe('--providers-json[0].credentials must be a JSON object');
    expect(refusal('[{"code":"PROVIDER_A","credentials":[]}]')).toBe('--providers-json[0].credentials must be a JSON object');
    expect(refusal('[{"code":"PROVIDER_A"}]')).toBe('--providers-json[0].credentials must be a JSON object');
  });
  it('refuses unknown fields', () => {
    expect(refusal('[{"code":"PROVIDER_A","credential":{},"credentials":{}}]')).toBe("--providers-json[0] has unknown field 'credential'");
  });
  it('refuses the same bank twice', () => {
    expect(refusal('[{"code":"PROVIDER_A","credentials":{}},{"code":"PROVIDER_A","credentials":{}}]')).toBe('--providers-json lists PROVIDER_A more than once');
  });

  describe('users create', () => {
    it('POSTs the email and role, and says the sign-in link is shown once', () => {
      expect(request('users', 'create', 'acc_1', '--email', 'ana@loja.example', '--role', 'viewer')).toEqual({
        method: 'POST',
        path: '/admin/accounts/acc_1/console-users',
        body: { email: 'ana@loja.example', role: 'viewer' },
        notice: expect.stringContaining('shown only here'),
      });
    });
    it('requires --email and a known --role', () => {
      expect(usageError('users', 'create', 'acc_1', '--role', 'owner')).toBe('users create: --email is required');
      expect(usageError('users', 'create', 'acc_1', '--email', 'a@b.example', '--role', 'admin')).toBe(
        'users create: --role must be one of owner, developer, viewer',
      );
    });
  });

  describe('users list, set-role, remove, link', () => {
    it("lists the account's users", () => {
      expect(request('users', 'list', 'acc 1')).toEqual({ method: 'GET', path: '/admin/accounts/acc%201/console-users' });
    });
    it('names the user by their email address, encoded in the path', () => {
      expect(request('users', 'set-role', 'acc_1', '--email', 'ana+1@loja.example', '--role', 'developer')).toEqual({
        method: 'PATCH',
        path: '/admin/accounts/acc_1/console-users/ana%2B1%40loja.example',
        body: { role: 'developer' },
        notice: 'ana+1@loja.example is now developer.',
      });
      expect(request('users', 'remove', 'acc_1', '--email', 'ana@loja.example')).toMatchObject({
        method: 'DELETE',
        path: '/admin/accounts/acc_1/console-users/ana%40loja.example',
      });
      expect(request('users', 'link', 'acc_1', '--email', 'ana@loja.example')).toEqual({
        method: 'POST',
        path: '/admin/accounts/acc_1/console-users/ana%40loja.example/sign-in-link',
        notice: expect.stringContaining('shown only here'),
      });
    });
    it('requires --email, and a known --role to set', () => {
      expect(usageError('users', 'remove', 'acc_1')).toBe('users remove: --email is required');
      expect(usageError('users', 'link', 'acc_1')).toBe('users link: --email is required');
      expect(usageError('users', 'set-role', 'acc_1', '--email', 'a@b.example')).toBe('users set-role: --role must be one of owner, developer, viewer');
    });
  });
});
