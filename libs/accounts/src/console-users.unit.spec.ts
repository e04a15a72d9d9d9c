import { hashPassword, passwordMatches } from './console-users';

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
