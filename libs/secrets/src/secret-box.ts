import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

// Banking credentials and webhook signing secrets are sealed before they enter an event, a row or a Kafka message
// (docs/decisions/secrets.md): AES-256-GCM with a key from the environment, the key's id beside each ciphertext so keys can rotate
// (a new key seals, the old ones still open). Only the processes that use a secret hold the keys: the gateway (it
// shows the operator the webhook secret), receipt-service (it calls the banks) and webhook-dispatcher (it signs).

/** `enc:v1:<key id>:<iv>:<ciphertext and tag>`, base64url: text, so it fits the JSON of events and rows as it is. */
const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretKeysMissing extends Error {
  override readonly name = 'SecretKeysMissing';
}

export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  private readonly current: string;

  /** `keyring`: the keys by id, the one that seals first (SECRETS_KEYS: `id:base64key,id:base64key`). */
  constructor(keyring: [string, Buffer][]) {
    if (keyring.length === 0) throw new SecretKeysMissing('no key to seal secrets with');
    for (const [id, key] of keyring) {
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new SecretKeysMissing(`key id "${id}" must be 1 to 32 letters, digits, - or _`);
      if (key.length !== 32) throw new SecretKeysMissing(`key "${id}" must be 32 bytes (AES-256), not ${key.length}`);
    }
    this.keys = new Map(keyring);
    this.current = keyring[0][0];
  }

  /** From SECRETS_KEYS; a process that keeps secrets does not start without it. */
  static fromEnvironment(env: NodeJS.ProcessEnv = process.env): SecretBox {
    const text = env.SECRETS_KEYS?.trim();
    if (!text)
      throw new SecretKeysMissing(
        'SECRETS_KEYS is not set: `id:base64 of 32 random bytes`, comma-separated, the sealing key first (docs/operations.md "Secrets")',
      );
    return new SecretBox(
      text.split(',').map((entry) => {
        const [id, key] = entry.trim().split(':');
        return [id, Buffer.from(key ?? '', 'base64')];
      }),
    );
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.current)!, iv);
    // The key id is authenticated too: a ciphertext cannot be passed off under another key's id.
    cipher.setAAD(Buffer.from(this.current));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.current}:${iv.toString('base64url')}:${sealed.toString('base64url')}`;
  }

  /** The plaintext of a sealed value; a value that was never sealed (recorded before sealing existed) as it is. */
  open(value: string): string {
    if (!isSealed(value)) return value;
    const [id, iv, sealed] = value.slice(PREFIX.length).split(':');
    const key = this.keys.get(id);
    if (!key) throw new SecretKeysMissing(`a secret is sealed with key "${id}", which SECRETS_KEYS does not hold`);
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** A JSON value (credentials) sealed as one string, so not even its field names show. */
  sealJson(value: unknown): string {
    return this.seal(JSON.stringify(value));
  }

  openJson<T>(value: T | string): T {
    return typeof value === 'string' && isSealed(value) ? (JSON.parse(this.open(value)) as T) : (value as T);
  }
}

export const isSealed = (value: unknown): value is string => typeof value === 'string' && value.startsWith(PREFIX);

/** A new key for SECRETS_KEYS (npm start writes one for development, as it does the admin token). */
export const newSecretKey = (id: string): string => `${id}:${randomBytes(32).toString('base64')}`;

/** A new webhook signing secret in Standard Webhooks' form: `whsec_` and the base64 of 24 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;
