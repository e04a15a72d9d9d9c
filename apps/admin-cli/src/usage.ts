import { CASHIN_PROVIDERS, CONSOLE_ROLES, DEFAULT_RATE_LIMITS, ENVIRONMENTS, MAX_RATE_LIMIT, RECEIPT_PROVIDERS } from '@pixauto/contracts';

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:3002';

const or = (values: readonly string[]): string => `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

/** The help text (`help`, `--help`, `-h`); also printed after every usage error. */
export const USAGE = `Usage: npm run admin -- <command> [options]

The operator's command line for the gateway's admin API.

Commands:
  accounts create --name NAME [--no-wallet] [--cashin-provider PROVIDER]
                  [--providers-json JSON] [--rate-limit-production N]
                  [--rate-limit-sandbox N]
      Open an account. It has a wallet unless --no-wallet; the cash-in provider
      defaults to PROVIDER_A; without --providers-json, PROVIDER_A and PROVIDER_B
      are enabled with working sandbox credentials. Each API key may make
      ${DEFAULT_RATE_LIMITS.production} requests per second unless --rate-limit-* says otherwise.
  accounts show ACCOUNT_ID
      Print an account.
  accounts update ACCOUNT_ID [--wallet true|false] [--cashin-provider PROVIDER]
                  [--providers-json JSON] [--rate-limit-production N]
                  [--rate-limit-sandbox N]
      Change an account (give at least one option). --providers-json replaces
      the enabled providers; a --rate-limit-* changes that environment only.
  accounts requests ACCOUNT_ID --environment ${ENVIRONMENTS.join('|')} [--request-id ID]
                    [--failed] [--method METHOD] [--path PREFIX] [--limit N]
                    [--cursor CURSOR]
      The account's API requests of the last days, newest first, with the
      bodies of the failed ones (redacted); --cursor is a page's next_cursor.
  keys create ACCOUNT_ID --environment ${ENVIRONMENTS.join('|')} [--read-only]
              [--no-transactions]
      Issue an API key. The api_key is shown only once: store it right away.
  keys list ACCOUNT_ID
      List the account's API keys, revoked ones included (never the keys
      themselves).
  keys revoke KEY_ID
      Revoke an API key; it answers 401 from then on.
  users create ACCOUNT_ID --email EMAIL --role ${CONSOLE_ROLES.join('|')}
      Create a merchant console user, without a password, and print their
      sign-in link (sign_in_url): with it they choose a password and sign in.
      It works once, within 24 hours, and is shown only once. owner:
      everything; developer: acts in the sandbox, reads production; viewer:
      reads only.
  users list ACCOUNT_ID
      List the account's console users: email, role, created, last sign-in.
  users set-role ACCOUNT_ID --email EMAIL --role ${CONSOLE_ROLES.join('|')}
      Change a console user's role (the account keeps at least one owner).
  users remove ACCOUNT_ID --email EMAIL
      Remove a console user: they can no longer sign in (the account keeps at
      least one owner).
  users link ACCOUNT_ID --email EMAIL
      Print a new sign-in link for a console user (a forgotten password, an
      expired link); their previous link stops working.
  webhooks rotate-secret ACCOUNT_ID --environment ${ENVIRONMENTS.join('|')}
      Issue a new webhook signing secret for one environment (each has its own).
      The previous one keeps signing that environment's webhooks beside it for
      24 hours; the other environment's secret is unchanged.
  webhooks deliveries ACCOUNT_ID --environment ${ENVIRONMENTS.join('|')} [--status STATUS]
              [--resource-id ID] [--page N]
      List the account's webhook deliveries, newest first (20 a page).
      STATUS: pending, delivered, failed or cancelled.
  webhooks retry ACCOUNT_ID DELIVERY_ID --environment ${ENVIRONMENTS.join('|')}
      Send a delivery again now, under the same webhook-id.
  help, --help, -h
      Show this text.

Values:
  PROVIDER  ${or(CASHIN_PROVIDERS)}
  N         requests per second of the account in that environment (all its keys together), 1 to ${MAX_RATE_LIMIT}
  JSON      a JSON array of at most ${RECEIPT_PROVIDERS.length} {"code", "credentials"} objects, code ${or(RECEIPT_PROVIDERS)},
            credentials a JSON object, e.g.
            '[{"code":"PROVIDER_A","credentials":{"client_id":"id","client_secret":"secret"}}]'

Environment:
  ADMIN_URL    the gateway's admin listener (default ${DEFAULT_ADMIN_URL})
  ADMIN_TOKEN  the admin API's bearer token; when unset, read from
               <repo>/.data/admin-token, which \`npm start\` writes

Output: the response JSON on stdout, exit 0. An HTTP error prints its status and
body on stderr, exit 1 (also when the gateway cannot be reached). A usage error
prints the reason and this text on stderr, exit 2.
`;
