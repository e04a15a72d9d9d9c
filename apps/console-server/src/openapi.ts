/**
 * The console server's own routes, as an OpenAPI 3.1 document (served at /console/v1/openapi.json). Everything else the
 * console does is the merchant API itself, reached under /console/v1/{environment}/api/ and described by its own
 * documents.
 */
const ERROR = {
  type: 'object',
  required: ['message'],
  properties: {
    message: { type: 'string', description: 'What went wrong, in words to show the user.' },
    code: { type: 'integer', description: '1 on a 401: no session, or the sign-in was refused.' },
    type: { type: 'string', enum: ['ValidationError'], description: 'Present when a field is missing or malformed.' },
  },
};
const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
const CSRF = {
  name: 'X-CSRF-Token',
  in: 'header',
  required: true,
  description: 'The `csrf_token` of the session. Without it, or with another, a request that changes something is refused with 403.',
  schema: { type: 'string' },
};

export const CONSOLE_DOCUMENT = {
  openapi: '3.1.0',
  info: {
    title: 'Merchant console: its own routes',
    version: '1',
    description:
      "Sign-in and sessions of the merchant console, the account's console users, and the way to the merchant API for a signed-in user. The session is a cookie the browser cannot read (HttpOnly, SameSite=Strict); every request that changes something carries the session's CSRF token in X-CSRF-Token and comes from the console's own origin.",
  },
  servers: [{ url: 'http://127.0.0.1:3003', description: 'The console (CONSOLE_PORT in development)' }],
  components: {
    securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'pixauto_console_session', description: 'Set by signing in.' } },
    schemas: {
      Error: ERROR,
      SignIn: {
        type: 'object',
        required: ['email', 'password'],
        properties: { email: { type: 'string', maxLength: 254 }, password: { type: 'string', maxLength: 128 } },
      },
      Session: {
        type: 'object',
        required: ['email', 'role', 'account_id', 'csrf_token'],
        properties: {
          email: { type: 'string', description: 'Who is signed in.' },
          role: {
            type: 'string',
            enum: ['owner', 'developer', 'viewer'],
            description: 'owner: everything. developer: changes in the sandbox, reads production. viewer: reads only.',
          },
          account_id: { type: 'string', description: 'The account the user acts for.' },
          csrf_token: { type: 'string', description: 'To send in X-CSRF-Token with every request that changes something.' },
        },
      },
      SignInWithLink: {
        type: 'object',
        required: ['token', 'password'],
        properties: {
          token: { type: 'string', maxLength: 128, description: 'The token of the sign-in link: what follows `#/set-password/` in it.' },
          password: { type: 'string', minLength: 12, maxLength: 128, description: 'The password the user chooses, 12 to 128 characters.' },
        },
      },
      NewPassword: {
        type: 'object',
        required: ['current_password', 'new_password'],
        properties: {
          current_password: { type: 'string', maxLength: 128, description: 'The password the user signs in with now.' },
          new_password: { type: 'string', minLength: 12, maxLength: 128, description: 'The new password, 12 to 128 characters.' },
        },
      },
      ConsoleUser: {
        type: 'object',
        required: ['user_id', 'account_id', 'email', 'role', 'created_at', 'last_signed_in_at'],
        properties: {
          user_id: { type: 'string', description: 'Identifier of the console user.' },
          account_id: { type: 'string', description: 'The account the user acts for.' },
          email: { type: 'string', description: 'The address the user signs in with.' },
          role: { type: 'string', enum: ['owner', 'developer', 'viewer'], description: 'What the user may do.' },
          created_at: { type: 'string', format: 'date-time', description: 'When the user was created.' },
          last_signed_in_at: { type: ['string', 'null'], format: 'date-time', description: 'When the user last signed in; null until the first time.' },
        },
      },
      ConsoleUserList: {
        type: 'object',
        required: ['console_users'],
        properties: {
          console_users: { type: 'array', items: { $ref: '#/components/schemas/ConsoleUser' }, description: "The account's users, the oldest first." },
        },
      },
      NewConsoleUser: {
        type: 'object',
        required: ['email', 'role'],
        properties: {
          email: { type: 'string', maxLength: 254, description: 'The address the new user will sign in with; one user per address.' },
          role: { type: 'string', enum: ['owner', 'developer', 'viewer'], description: 'What the new user may do.' },
        },
      },
      NewRole: {
        type: 'object',
        required: ['role'],
        properties: { role: { type: 'string', enum: ['owner', 'developer', 'viewer'], description: 'The role the user will have.' } },
      },
      SignInLink: {
        type: 'object',
        required: ['user', 'sign_in_url', 'expires_at'],
        properties: {
          user: { $ref: '#/components/schemas/ConsoleUser' },
          sign_in_url: {
            type: 'string',
            description:
              'The link to give the user: with it they choose a password and are signed in. It works once, and this answer is the only one that shows it.',
          },
          expires_at: { type: 'string', format: 'date-time', description: 'When the link stops working if unused (24 hours after it was made).' },
        },
      },
      WebhookSecretRotation: {
        type: 'object',
        required: ['environment'],
        properties: {
          environment: {
            type: 'string',
            enum: ['production', 'sandbox'],
            description: 'Whose secret to rotate: the one that signs production webhooks or the sandbox one.',
          },
        },
      },
      WebhookSecret: {
        type: 'object',
        required: ['account_id', 'environment', 'webhook_secret', 'previous_secret_valid_until'],
        properties: {
          account_id: { type: 'string', description: 'The account.' },
          environment: {
            type: 'string',
            enum: ['production', 'sandbox'],
            description: "The environment whose webhooks the new secret signs; the other environment's secret is unchanged.",
          },
          webhook_secret: { type: 'string', description: 'The new secret (`whsec_...`): every webhook of that environment is signed with it from now on.' },
          previous_secret_valid_until: {
            type: ['string', 'null'],
            format: 'date-time',
            description:
              "Until when (24 hours from now) that environment's webhooks also carry a signature made with its previous secret, so receivers can switch without losing any; null when it had none.",
          },
        },
      },
      RequestLogPage: {
        type: 'object',
        required: ['requests', 'next_cursor'],
        properties: {
          requests: {
            type: 'array',
            description: 'Newest first.',
            items: {
              type: 'object',
              required: [
                'at',
                'request_id',
                'method',
                'path',
                'status',
                'duration_ms',
                'idempotency_key',
                'key_id',
                'request_body',
                'response_body',
                'console_user',
              ],
              properties: {
                at: { type: 'string', format: 'date-time', description: 'When the request arrived (UTC).' },
                request_id: { type: 'string', description: 'Its `X-Request-Id`, as returned in the answer.' },
                method: { type: 'string' },
                path: { type: 'string', description: 'With its query; document numbers masked.' },
                status: { type: 'integer', description: 'What it was answered.' },
                duration_ms: { type: 'number', description: 'From its arrival to the end of its answer.' },
                idempotency_key: { type: ['string', 'null'], description: 'Its Idempotency-Key, if it sent one.' },
                key_id: { type: 'string', description: 'Which of your API keys sent it (its id, never the key).' },
                request_body: { type: ['string', 'null'], description: "A failed request's body, secrets replaced and documents masked; null for a success." },
                response_body: { type: ['string', 'null'], description: 'What a failed request was answered; null for a success.' },
                console_user: {
                  type: ['string', 'null'],
                  description: "Who made the change in the console; null here, where the console's own requests are not listed.",
                },
              },
            },
          },
          next_cursor: { type: ['string', 'null'], description: 'For the next (older) page; null on the last.' },
        },
      },
      ApiKey: {
        type: 'object',
        required: ['key_id', 'environment', 'read_only', 'transactions', 'name', 'created_at', 'revoked_at', 'last_used_at', 'console'],
        properties: {
          key_id: { type: 'string', description: 'Identifier of the key (`key_...`); the key itself is never listed.' },
          environment: { type: 'string', enum: ['production', 'sandbox'], description: 'Where the key works.' },
          read_only: { type: 'boolean', description: 'true: the key may only read.' },
          transactions: { type: 'boolean', description: 'false: the key may not read receipts.' },
          created_at: { type: 'string', description: 'When the key was created, ISO 8601 in UTC.' },
          revoked_at: { type: ['string', 'null'], description: 'When the key was revoked, ISO 8601 in UTC; null while it works.' },
          last_used_at: {
            type: ['string', 'null'],
            description:
              "When a request with the key last reached the API (the request log), ISO 8601 in UTC; null when none since the list's last_used_since.",
          },
          name: { type: ['string', 'null'], description: 'The name given when the key was created; null without one.' },
          console: { type: 'boolean', description: "true: the console's own key, with which it shows you your data; it cannot be revoked here." },
        },
      },
      ApiKeyList: {
        type: 'object',
        required: ['api_keys', 'last_used_since'],
        properties: {
          api_keys: { type: 'array', items: { $ref: '#/components/schemas/ApiKey' }, description: "The account's keys, the newest first." },
          last_used_since: { type: 'string', description: "How far back last_used_at looks (the request log's retention), ISO 8601 in UTC." },
        },
      },
      AuditLogPage: {
        type: 'object',
        required: ['entries', 'next_cursor'],
        properties: {
          entries: {
            type: 'array',
            description: 'Newest first.',
            items: {
              type: 'object',
              required: ['id', 'at', 'environment', 'actor_type', 'actor', 'action', 'object', 'detail'],
              properties: {
                id: { type: 'string', description: "The entry's place in the log: later entries have greater ids." },
                at: { type: 'string', description: 'When the change was made, ISO 8601 in UTC.' },
                environment: { type: ['string', 'null'], enum: ['production', 'sandbox', null], description: 'null for the team, the same in both.' },
                actor_type: { type: 'string', enum: ['console_user', 'console', 'operator', 'api_key'], description: 'Who made the change.' },
                actor: { type: ['string', 'null'], description: "The console user's email or the key's key_id; null for the console and the operator." },
                action: {
                  type: 'string',
                  enum: [
                    'api_key.created',
                    'api_key.revoked',
                    'webhook_secret.rotated',
                    'customer_limit.set',
                    'webhook_endpoint.created',
                    'webhook_endpoint.updated',
                    'webhook_endpoint.deleted',
                    'webhook_endpoint.secret_revealed',
                    'webhook_endpoint.secret_rotated',
                    'sandbox_clock.advanced',
                    'team_member.added',
                    'team_member.role_changed',
                    'team_member.removed',
                  ],
                },
                object: { type: 'string', description: "What changed: a key_id, a user's email, a masked CPF or CNPJ, webhook_secret or sandbox_clock." },
                detail: {
                  type: 'object',
                  description: "The change's particulars: a key's read_only, a role and previous_role, a limit's type and cap, a clock's ms.",
                },
              },
            },
          },
          next_cursor: { type: ['string', 'null'], description: 'Pass it as cursor for the next (older) page; null on the last page.' },
        },
      },
      NewApiKey: {
        type: 'object',
        required: ['environment'],
        properties: {
          environment: { type: 'string', enum: ['production', 'sandbox'], description: 'Where the key will work.' },
          read_only: { type: 'boolean', description: 'true: the key may only read. Default false.' },
          name: { type: 'string', description: 'A name to tell the key apart, 1 to 100 characters; empty or absent: none.' },
        },
      },
      IssuedApiKey: {
        type: 'object',
        required: ['key_id', 'api_key', 'environment', 'read_only', 'transactions', 'name'],
        properties: {
          key_id: { type: 'string', description: 'Identifier of the key, to revoke it.' },
          api_key: {
            type: 'string',
            description: 'The key (`pix_live_...`, `pix_test_...`) to send as the Authorization header. In this answer only: only a hash of it is kept.',
          },
          environment: { type: 'string', enum: ['production', 'sandbox'] },
          read_only: { type: 'boolean' },
          transactions: { type: 'boolean' },
          name: { type: ['string', 'null'] },
        },
      },
    },
  },
  paths: {
    '/console/v1/session': {
      post: {
        summary: 'Sign in',
        description:
          'Checks the email and password and starts a session: the answer sets its cookie. After 5 failed attempts for one email (20 from one address) within 15 minutes, sign-in is refused with 429 until the period ends.',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SignIn' } } } },
        responses: {
          '201': { description: 'Signed in.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Session' } } } },
          '400': error('The email or the password is missing or too long.'),
          '401': error('The email or the password is wrong.'),
          '403': error('The request came from another site.'),
          '429': error('Too many failed attempts: wait the Retry-After seconds.'),
        },
      },
      get: {
        summary: 'The current session',
        security: [{ session: [] }],
        responses: {
          '200': { description: 'Who is signed in.', content: { 'application/json': { schema: { $ref: '#/components/schemas/Session' } } } },
          '401': error('No session, or it has ended (30 minutes without a request, or 12 hours after sign-in).'),
        },
      },
      delete: {
        summary: 'Sign out',
        security: [{ session: [] }],
        parameters: [CSRF],
        responses: { '204': { description: 'Signed out: the session has ended.' }, '401': error('No session.'), '403': error('No valid CSRF token.') },
      },
    },
    '/console/v1/session/link': {
      post: {
        summary: 'Sign in with a sign-in link',
        description:
          'Uses a one-time sign-in link: sets the password of its user, ends their other sessions, and starts a session (the answer sets its cookie). A link works once, within 24 hours of being made. After 20 unknown, used or expired links (or failed sign-ins) from one address within 15 minutes, refused with 429 until the period ends.',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/SignInWithLink' } } } },
        responses: {
          '201': {
            description: 'The password is set, and the user signed in.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Session' } } },
          },
          '400': error('The token is missing, or the password is not 12 to 128 characters.'),
          '403': error('The request came from another site.'),
          '404': error('The link is unknown, was already used, or has expired: an owner or the operator can make a new one.'),
          '429': error('Too many failed attempts: wait the Retry-After seconds.'),
        },
      },
    },
    '/console/v1/password': {
      post: {
        summary: 'Change your password',
        description:
          "Replaces the signed-in user's password, given the current one, and ends the user's other sessions (this one goes on). A wrong current password counts as a failed sign-in for the user's email: after 5 within 15 minutes, refused with 429 until the period ends.",
        security: [{ session: [] }],
        parameters: [CSRF],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPassword' } } } },
        responses: {
          '204': { description: 'Changed.' },
          '400': error('The current password is wrong, or the new one is not 12 to 128 characters.'),
          '401': error('No session.'),
          '403': error('No valid CSRF token.'),
          '429': error('Too many failed attempts: wait the Retry-After seconds.'),
        },
      },
    },
    '/console/v1/users': {
      get: {
        summary: "The account's console users",
        description: 'Everyone who signs in to the console for the account: address, role, when created and when last signed in. Owners only.',
        security: [{ session: [] }],
        responses: {
          '200': { description: 'The users.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ConsoleUserList' } } } },
          '401': error('No session.'),
          '403': error('The user is not an owner.'),
        },
      },
      post: {
        summary: 'Add a console user',
        description:
          'Creates a user of the account, without a password, and answers their one-time sign-in link, with which they choose a password and sign in. Owners only.',
        security: [{ session: [] }],
        parameters: [CSRF],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewConsoleUser' } } } },
        responses: {
          '201': {
            description: 'The user and their link, shown this once.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/SignInLink' } } },
          },
          '400': error('The email is not an address or already belongs to a user of this account, or the role is unknown.'),
          '401': error('No session.'),
          '403': error('No valid CSRF token, or the user is not an owner.'),
        },
      },
    },
    '/console/v1/users/{user_id}': {
      parameters: [{ name: 'user_id', in: 'path', required: true, description: "The user's `user_id`.", schema: { type: 'string' } }],
      patch: {
        summary: "Change a user's role",
        description:
          'Gives a user of the account another role, which their sessions act with from their next request. The account keeps at least one owner. Owners only.',
        security: [{ session: [] }],
        parameters: [CSRF],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewRole' } } } },
        responses: {
          '200': { description: 'The user, with their new role.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ConsoleUser' } } } },
          '400': error('The role is unknown, or the user is the last owner.'),
          '401': error('No session.'),
          '403': error('No valid CSRF token, or the user is not an owner.'),
          '404': error('The account has no such user.'),
        },
      },
      delete: {
        summary: 'Remove a user',
        description:
          "Removes a user of the account: they can no longer sign in, and their sessions end at once. The account's last owner cannot be removed. Owners only.",
        security: [{ session: [] }],
        parameters: [CSRF],
        responses: {
          '204': { description: 'Removed.' },
          '400': error('The user is the last owner.'),
          '401': error('No session.'),
          '403': error('No valid CSRF token, or the user is not an owner.'),
          '404': error('The account has no such user.'),
        },
      },
    },
    '/console/v1/users/{user_id}/sign-in-link': {
      parameters: [{ name: 'user_id', in: 'path', required: true, description: "The user's `user_id`.", schema: { type: 'string' } }],
      post: {
        summary: 'A new sign-in link for a user',
        description:
          "Makes a new one-time sign-in link for a user of the account (a forgotten password, an expired link); their previous link stops working. Using it replaces the user's password. Owners only.",
        security: [{ session: [] }],
        parameters: [CSRF],
        responses: {
          '201': {
            description: 'The user and their link, shown this once.',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/SignInLink' } } },
          },
          '401': error('No session.'),
          '403': error('No valid CSRF token, or the user is not an owner.'),
          '404': error('The account has no such user.'),
        },
      },
    },
    '/console/v1/webhook-secret': {
      post: {
        summary: 'Rotate the webhook signing secret of one environment',
        description:
          "Issues a new signing secret for the account's webhooks of one environment and answers it: from now on every webhook of that environment is signed with it, and for 24 hours also with its previous one. Production and sandbox have secrets of their own, so a sandbox webhook never verifies with the production secret; the other environment's is unchanged. Owners only.",
        security: [{ session: [] }],
        parameters: [CSRF],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookSecretRotation' } } } },
        responses: {
          '200': { description: 'The new secret.', content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookSecret' } } } },
          '400': error('The environment is missing or unknown.'),
          '401': error('No session.'),
          '403': error('No valid CSRF token, or the user is not an owner.'),
          '503': error('The platform could not be reached; try again.'),
        },
      },
    },
    '/console/v1/audit-log': {
      get: {
        summary: "The account's audit log",
        description:
          "Who changed the account's API keys, webhook signing secrets, customer limits, sandbox test clock and team, and when, in both environments, newest first, 25 entries a page. Owners only.",
        security: [{ session: [] }],
        parameters: [
          { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'The next_cursor of the previous page, for the next (older) one.' },
        ],
        responses: {
          '200': { description: 'A page of the log.', content: { 'application/json': { schema: { $ref: '#/components/schemas/AuditLogPage' } } } },
          '400': error('The cursor is not one a page gave.'),
          '401': error('No session.'),
          '403': error('The user is not an owner.'),
          '503': error('The platform could not be reached; try again.'),
        },
      },
    },
    '/console/v1/api-keys': {
      get: {
        summary: "The account's API keys",
        description: "Every API key of the signed-in user's account, in both environments, the newest first, revoked ones included; never a key itself.",
        security: [{ session: [] }],
        responses: {
          '200': { description: 'The keys.', content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiKeyList' } } } },
          '401': error('No session.'),
        },
      },
      post: {
        summary: 'Create an API key',
        description:
          'Creates a key for your integration in one environment: a developer in the sandbox only, an owner in both, a viewer never (403). The key is in this answer only.',
        security: [{ session: [] }],
        parameters: [CSRF],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewApiKey' } } } },
        responses: {
          '201': { description: 'The new key, shown this once.', content: { 'application/json': { schema: { $ref: '#/components/schemas/IssuedApiKey' } } } },
          '400': error('The environment is missing or unknown, read_only is not true or false, or the name is not 1 to 100 characters.'),
          '401': error('No session.'),
          '403': error('No valid CSRF token, or the role may not change anything in this environment.'),
        },
      },
    },
    '/console/v1/api-keys/{key_id}': {
      parameters: [{ name: 'key_id', in: 'path', required: true, schema: { type: 'string' } }],
      delete: {
        summary: 'Revoke an API key',
        description: 'Revokes a key of the account at once: every request with it is refused (401) from then on. Cannot be undone.',
        security: [{ session: [] }],
        parameters: [CSRF],
        responses: {
          '204': { description: 'Revoked.' },
          '401': error('No session.'),
          '403': error("No valid CSRF token, the role may not change anything in the key's environment, or the key is the console's own."),
          '404': error('The account has no such key.'),
        },
      },
    },
    '/console/v1/{environment}/requests': {
      get: {
        summary: "Your integration's API requests",
        description:
          "The account's API requests of the last days in that environment (7 by default: the operator sets it), newest first, the console's own left out: method, path, status, duration, request id, Idempotency-Key and the key's id, with the bodies of the failed ones. Secret fields are replaced and document numbers masked. Every role may read it.",
        security: [{ session: [] }],
        parameters: [
          { name: 'environment', in: 'path', required: true, schema: { type: 'string', enum: ['production', 'sandbox'] } },
          { name: 'request_id', in: 'query', description: 'Only the request with this id (its `X-Request-Id`).', schema: { type: 'string' } },
          { name: 'failed', in: 'query', description: '`true`: only the requests answered 400 or above.', schema: { type: 'string', enum: ['true', 'false'] } },
          { name: 'method', in: 'query', description: 'Only requests of this method.', schema: { type: 'string' } },
          { name: 'path', in: 'query', description: 'Only requests whose path starts with this.', schema: { type: 'string' } },
          { name: 'limit', in: 'query', description: 'Lines per page, 1 to 100; 50 by default.', schema: { type: 'integer', minimum: 1, maximum: 100 } },
          { name: 'cursor', in: 'query', description: 'The `next_cursor` of the previous page.', schema: { type: 'string' } },
        ],
        responses: {
          '200': { description: 'A page of the log.', content: { 'application/json': { schema: { $ref: '#/components/schemas/RequestLogPage' } } } },
          '400': error('A filter the log cannot read (the limit, failed, or a cursor it did not give out).'),
          '401': error('No session.'),
          '404': error('No such environment.'),
        },
      },
    },
    '/console/v1/{environment}/api/{path}': {
      parameters: [
        { name: 'environment', in: 'path', required: true, schema: { type: 'string', enum: ['production', 'sandbox'] } },
        {
          name: 'path',
          in: 'path',
          required: true,
          description: "A path of the merchant API, e.g. `v2/automatic-pix/recurrences`: its request and answer are the merchant API's own.",
          schema: { type: 'string' },
        },
      ],
      get: {
        summary: 'Read through the merchant API',
        description: "A GET of the merchant API for the signed-in user's account, in that environment.",
        security: [{ session: [] }],
        responses: { default: { description: "The merchant API's answer." }, '401': error('No session.') },
      },
      post: {
        summary: 'Act through the merchant API',
        description:
          "A POST (PATCH and DELETE alike) of the merchant API for the signed-in user's account. A viewer may not; a developer may in the sandbox only; an owner may everywhere (403 otherwise).",
        security: [{ session: [] }],
        parameters: [CSRF],
        responses: {
          default: { description: "The merchant API's answer." },
          '401': error('No session.'),
          '403': error('No valid CSRF token, or the role may not change anything in this environment.'),
        },
      },
    },
  },
} as const;
