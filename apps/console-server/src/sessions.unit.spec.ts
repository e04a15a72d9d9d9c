import { csrfMatches, type ConsoleSession } from './sessions';

const session: ConsoleSession = {
  user_id: 'u1',
  account_id: 'a1',
  email: 'ana@loja.example',
  role: 'developer',
  csrf_token: 'the-token-of-this-session',
  signed_in_at: 0,
  checked_at: 0,
};

describe('the CSRF token', () => {
  it("matches only the session's own token, given once", () => {
    expect(csrfMatches(session, 'the-token-of-this-session')).toBe(true);
    expect(csrfMatches(session, 'the-token-of-this-sessioN')).toBe(false);
    expect(csrfMatches(session, 'short')).toBe(false);
    expect(csrfMatches(session, undefined)).toBe(false);
    expect(csrfMatches(session, ['the-token-of-this-session', 'the-token-of-this-session'])).toBe(false);
  });
});
