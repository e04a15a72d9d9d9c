import { randomBytes } from 'node:crypto';
import { isSealed, newSecretKey, SecretBox, SecretKeysMissing } from './secret-box';

const k1 = randomBytes(32);
const k2 = randomBytes(32);

describe('SecretBox', () => {
  it('seals to text that shows nothing of the secret and opens it again', () => {
    const box = new SecretBox([['k1', k1]]);
    const sealed = box.seal('whsec_abc');
    expect(sealed).toMatch(/^enc:v1:k1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc')).not.toBe(sealed); // a fresh IV every time
    expect(box.open(sealed)).toBe('whsec_abc');
    expect(box.openJson(box.sealJson({ client_id: 'a', client_secret: 'b' }))).toEqual({ client_id: 'a', client_secret: 'b' });
  });

  it('rotates: the first key seals, the others still open what they sealed', () => {
    const old = new SecretBox([['k1', k1]]).seal('before');
    const rotated = new SecretBox([
      ['k2', k2],
      ['k1', k1],
    ]);
    expect(rotated.open(old)).toBe('before');
    expect(rotated.seal('after')).toMatch(/^enc:v1:k2:/);
    expect(() => new SecretBox([['k2', k2]]).open(old)).toThrow('a secret is sealed with key "k1", which SECRETS_KEYS does not hold');
  });

  it('refuses a tampered ciphertext and one passed off under another key id', () => {
    const box = new SecretBox([
      ['k1', k1],
      ['k2', k1],
    ]);
    const sealed = box.seal('secret');
    const [, , , iv, bytes] = sealed.split(':');
    const flipped = Buffer.from(bytes, 'base64url');
    flipped[0] ^= 1;
    expect(() => box.open(`enc:v1:k1:${iv}:${flipped.toString('base64url')}`)).toThrow();
    expect(() => box.open(`enc:v1:k2:${iv}:${bytes}`)).toThrow(); // same key bytes, but the id is authenticated
  });

  it('passes values recorded before sealing through as they are', () => {
    const box = new SecretBox([['k1', k1]]);
    expect(box.open('whsec_old')).toBe('whsec_old');
    expect(box.openJson({ client_id: 'a' })).toEqual({ client_id: 'a' });
    expect(isSealed('whsec_old')).toBe(false);
  });

  it('reads SECRETS_KEYS and refuses to start without a usable key', () => {
    const box = SecretBox.fromEnvironment({ SECRETS_KEYS: `${newSecretKey('new')}, old:${k1.toString('base64')}` });
    expect(box.seal('x')).toMatch(/^enc:v1:new:/);
    expect(() => SecretBox.fromEnvironment({})).toThrow(SecretKeysMissing);
    expect(() => SecretBox.fromEnvironment({ SECRETS_KEYS: 'short:AAAA' })).toThrow('key "short" must be 32 bytes (AES-256), not 3');
    expect(() => SecretBox.fromEnvironment({ SECRETS_KEYS: `bad id:${k1.toString('base64')}` })).toThrow(
      'key id "bad id" must be 1 to 32 letters, digits, - or _',
    );
  });
});
