// npm start: infrastructure up, everything built, every app running in the foreground; Ctrl-C stops the apps.
// START_PROFILE picks another profile of system.cjs (default dev, the ports docs/architecture.md documents): the
// end-to-end suite runs `npm start` itself on its own ports, whose profiles derive their keys (system.cjs) instead of
// keeping them in .data. `npm start -- --replicas N` runs N processes of every app but the bank simulator
// (system.cjs says where each listens).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { up } from './infra.mjs';
import { parseArgs } from 'node:util';
import { profileOf, ROOT, startSystem } from './system.cjs';

/** The operator token: ADMIN_TOKEN, or one generated once and kept in .data/admin-token for `npm run admin`. */
function adminToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = path.join(ROOT, '.data', 'admin-token');
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(24).toString('base64url'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * A development key from the environment, or generated once and kept in .data/<file> (docs/operations.md "Secrets").
 */
function developmentKey(variable, file, make) {
  if (process.env[variable]) return process.env[variable];
  const kept = path.join(ROOT, '.data', file);
  if (!fs.existsSync(kept)) fs.writeFileSync(kept, make(), { mode: 0o600 });
  return fs.readFileSync(kept, 'utf8').trim();
}
const secretsKeys = () => developmentKey('SECRETS_KEYS', 'secrets-keys', () => `dev:${randomBytes(32).toString('base64')}`);
const documentKey = () => developmentKey('DOCUMENT_KEY', 'document-key', () => randomBytes(32).toString('base64'));

fs.mkdirSync(path.join(ROOT, '.data'), { recursive: true }); // a fresh clone has none yet
const { values: options } = parseArgs({ options: { replicas: { type: 'string', default: '1' } } });
const replicas = Number(options.replicas);
const profile = process.env.START_PROFILE ?? 'dev';
const p = profileOf(profile);
const keys = profile === 'dev' ? { secretsKeys: secretsKeys(), documentKey: documentKey() } : {};

await up();
execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
const system = await startSystem({ profile, adminToken: adminToken(), ...keys, inherit: true, replicas });
const eachProcess =
  replicas === 1
    ? ''
    : `\n  ${replicas} of each app but the bank simulator; health of each process (its metrics: /metrics beside it):\n${system.readiness
        .map(({ name, ready }) => `    ${name.padEnd(24)} ${ready.join('  ')}`)
        .join('\n')}`;
const adminUrl = profile === 'dev' ? '' : `ADMIN_URL=http://127.0.0.1:${p.admin} `;
console.log(`
pixauto is up, on Node ${process.version}:
  console         http://127.0.0.1:${p.console}   (a console user: npm run admin -- users create <account_id> --email ... --role owner, then open the sign_in_url it prints)
  production API  http://127.0.0.1:${p.gateway}
  sandbox API     http://127.0.0.1:${p.sandbox}
  API reference   http://127.0.0.1:${p.sandbox}/docs   (each listener serves /docs and /openapi.json)
  admin API       http://127.0.0.1:${p.admin}   (token in .data/admin-token, or $ADMIN_TOKEN)
  health, metrics http://127.0.0.1:${p.gatewayOps}/health/ready, /metrics   (each service: its port + 50, docs/operations.md "Health and metrics")${eachProcess}
  webhooks        sandbox webhooks may go to a receiver on loopback, over http too (e.g. http://127.0.0.1:8080/hook),
                  but not to the platform's own ports; production webhooks need a public https URL; link-local (cloud
                  metadata) and private addresses are refused${process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS ? `, but for ${process.env.WEBHOOK_ALLOW_PRIVATE_NETWORKS} (WEBHOOK_ALLOW_PRIVATE_NETWORKS)` : ''} (docs/operations.md "Environment variables")
Create an account and a key:  ${adminUrl}npm run admin -- accounts create --name "My shop"
Ctrl-C stops the apps (PostgreSQL, Redis and Kafka stay up: npm run infra:down stops what infra started).`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await system.stop();
    process.exit(0);
  });
}
