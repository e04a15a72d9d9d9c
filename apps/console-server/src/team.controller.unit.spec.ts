import type { ConsoleRole } from '@pixauto/contracts';
import { RefusalException } from '@pixauto/errors';
import type { Gateway } from './gateway';
import { PasswordController } from './password.controller';
import type { SignedInRequest } from './session.guard';
import type { Sessions } from './sessions';
import type { SignInLimiter } from './sign-in-limiter';
import { TeamController } from './team.controller';

// Team management and password changes, with the gateway and Redis replaced by records of what they were asked.

const signedIn = (role: ConsoleRole): SignedInRequest =>
  ({
    ip: '10.0.0.1',
    sessionId: 'this-session',
    session: { user_id: 'me', account_id: 'acc_1', email: 'me@loja.example', role, csrf_token: 't', signed_in_at: 0, checked_at: 0 },
  }) as SignedInRequest;

const bia = { user_id: 'bia', account_id: 'acc_1', email: 'bia@loja.example', role: 'viewer', created_at: '', last_signed_in_at: null };

function fakes(passwordRight = true) {
  const asked: string[] = [];
  const gateway = {
    consoleUsers: async (accountId: string) => (asked.push(`list ${accountId}`), [bia]),
    createConsoleUser: async (accountId: string, email: unknown, role: unknown) => (asked.push(`create ${accountId} ${email} ${role}`), { user: bia }),
    changeConsoleRole: async (accountId: string, userId: string, role: unknown) => (asked.push(`role ${accountId} ${userId} ${role}`), { ...bia, role }),
    removeConsoleUser: async (accountId: string, userId: string) => (asked.push(`remove ${accountId} ${userId}`), bia),
    newSignInLink: async (accountId: string, userId: string) => (asked.push(`link ${accountId} ${userId}`), { user: bia }),
    changePassword: async (userId: string) => (asked.push(`password ${userId}`), passwordRight),
  } as unknown as Gateway;
  const sessions = {
    endAllOf: async (userId: string, except?: string) => void asked.push(`end sessions of ${userId}${except ? ` but ${except}` : ''}`),
    changeRole: async (userId: string, role: string) => void asked.push(`sessions of ${userId} now ${role}`),
  } as unknown as Sessions;
  const limiter = {
    attempt: async (email: string) => {
      asked.push(`attempt ${email}`);
      return { delayMs: 0, counted: [email] };
    },
    notChecked: async () => void asked.push('not checked'),
    succeeded: async (attempt: { counted: string[] }) => void asked.push(`succeeded ${attempt.counted[0]}`),
  } as unknown as SignInLimiter;
  return { asked, team: new TeamController(gateway, sessions), password: new PasswordController(gateway, sessions, limiter) };
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: RefusalException) => error.refusal,
  );

describe('the team routes', () => {
  it("do what an owner asks, for the owner's account, and end or change the user's sessions with it", async () => {
    const { asked, team } = fakes();
    const owner = signedIn('owner');
    await team.list(owner);
    await team.create({ email: 'new@loja.example', role: 'developer' }, owner);
    await team.changeRole('bia', { role: 'developer' }, owner);
    await team.newSignInLink('bia', owner);
    await team.remove('bia', owner);
    expect(asked).toEqual([
      'list acc_1',
      'create acc_1 new@loja.example developer',
      'role acc_1 bia developer',
      'sessions of bia now developer',
      'link acc_1 bia',
      'remove acc_1 bia',
      'end sessions of bia',
    ]);
  });

  it.each(['developer', 'viewer'] as const)('refuse a %s, asking nothing of the gateway', async (role) => {
    const { asked, team } = fakes();
    const expected = { kind: 'forbidden', message: "Only an owner may manage the account's console users" };
    expect(await refusal(team.list(signedIn(role)))).toEqual(expected);
    expect(await refusal(team.create({ email: 'x@loja.example', role: 'owner' }, signedIn(role)))).toEqual(expected);
    expect(await refusal(team.changeRole('me', { role: 'owner' }, signedIn(role)))).toEqual(expected);
    expect(await refusal(team.remove('bia', signedIn(role)))).toEqual(expected);
    expect(await refusal(team.newSignInLink('bia', signedIn(role)))).toEqual(expected);
    expect(asked).toEqual([]);
  });
});

describe('changing your password', () => {
  it("ends the user's other sessions, not this one", async () => {
    const { asked, password } = fakes();
    await password.change({ current_password: 'the current one', new_password: 'a brand new passphrase' }, signedIn('viewer'));
    expect(asked).toEqual(['attempt me@loja.example', 'password me', 'succeeded me@loja.example', 'end sessions of me but this-session']);
  });

  it('counts a wrong current password as a failed sign-in, and ends nothing', async () => {
    const { asked, password } = fakes(false);
    expect(await refusal(password.change({ current_password: 'not it', new_password: 'a brand new passphrase' }, signedIn('viewer')))).toEqual({
      kind: 'validation',
      problems: ['body.current_password is wrong'],
    });
    // Counted before the check, and left counted: the wrong password was a failed attempt.
    expect(asked).toEqual(['attempt me@loja.example', 'password me']);
  });
});
