import { hashPassword, lastOwnerRefusal, newSignInToken, passwordMatches, signInTokenHash, signInUrl } from './console-users';

describe('console user passwords', () => {
  it('are kept as a salted scrypt hash that only the same password matches', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain('correct horse battery');
    expect(await passwordMatches('correct horse battery', stored)).toBe(true);
    expect(await passwordMatches('correct horse batterY', stored)).toBe(false);
  });

  it('hash the same password differently each time (a salt of its own)', async () => {
    expect(await hashPassword('same password here')).not.toBe(await hashPassword('same password here'));
  });
});

describe('sign-in links', () => {
  it('carry 256 random bits, of which only a SHA-256 is kept', () => {
    const { token, hash } = newSignInToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(signInTokenHash(token));
    expect(hash).not.toContain(token);
    expect(newSignInToken().token).not.toBe(token);
  });

  it("open the console's password page, the token in the fragment that no server sees", () => {
    expect(signInUrl('https://console.pixauto.example/', 'abc')).toBe('https://console.pixauto.example/#/set-password/abc');
    expect(signInUrl('http://127.0.0.1:3003', 'abc')).toBe('http://127.0.0.1:3003/#/set-password/abc');
  });
});

describe('the last owner', () => {
  const team = [
    { user_id: 'ana', role: 'owner' as const },
    { user_id: 'bia', role: 'developer' as const },
  ];
  const refused = { kind: 'validation', problems: ['The account must keep at least one owner: make another user an owner first'] };

  it('may be neither removed nor given another role', () => {
    expect(lastOwnerRefusal(team, 'ana', undefined)).toEqual(refused);
    expect(lastOwnerRefusal(team, 'ana', 'developer')).toEqual(refused);
    expect(lastOwnerRefusal(team, 'ana', 'owner')).toBeUndefined();
  });

  it('does not hold back changes to the others, nor to an owner among several', () => {
    expect(lastOwnerRefusal(team, 'bia', undefined)).toBeUndefined();
    expect(lastOwnerRefusal(team, 'bia', 'viewer')).toBeUndefined();
    expect(lastOwnerRefusal([...team, { user_id: 'caio', role: 'owner' }], 'ana', undefined)).toBeUndefined();
  });
});
