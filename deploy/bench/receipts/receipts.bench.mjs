// npm run bench:receipts: GET /v2/transactions/refund/receipt, fetched live from the bank for every request.
// With the whole system on the bench ports, two sandbox accounts (cash-in at PROVIDER_A, at PROVIDER_B) get 50 paid
// charges each, refunded and settled; then, for each provider, wrk at 20 connections:
//   1. through the gateway, receipts by refund_id (gateway → receipt-service → the provider, a PDF rendered each time);
//   2. the bank simulator alone for the same call (PROVIDER_A: one bearer token; PROVIDER_B: requests signed for the run).
// Options: BENCH_SECONDS (10), BENCH_REFUNDS (50 per provider), BENCH_SKIP_BUILD (use dist/ as it is), BENCH_SMOKE=1
// (tiny: 1 s a phase, 3 refunds per provider, what `npm test` runs). Leaves nothing behind (bench databases dropped).
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { benchDatabaseUrl, dropBenchDatabases, ensureTools, json, onDatabase, setting, wrkPaths } from '../../scripts/bench-support.mjs';
import { up } from '../../scripts/infra.mjs';
import { PROFILES, ROOT, startSystem } from '../../scripts/system.cjs';

const SECONDS = setting('BENCH_SECONDS', 10, 1);
const REFUNDS = setting('BENCH_REFUNDS', 50, 3);
const ADMIN_TOKEN = 'bench-admin-token';
const CREDENTIALS = { client_id: 'bench', client_secret: 'bench-secret' };
const p = PROFILES.bench;
const sandbox = `http://127.0.0.1:${p.sandbox}`;
const bank = `http://127.0.0.1:${p.bank}`;

const wrkPhase = (name, base, headers, paths) => wrkPaths(name, base, headers, paths, SECONDS);

/** An account whose charges go to `provider`, its sandbox key, and REFUNDS settled refunds: their refund_ids. */
async function accountWithRefunds(provider) {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const providers = ['PROVIDER_A', 'PROVIDER_B'].map((code) => ({ code, credentials: CREDENTIALS }));
  const account = await json(`http://127.0.0.1:${p.admin}/admin/accounts`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ name: `Bench ${provider}`, cashin_provider: provider, providers }),
  });
  const { api_key: key } = await json(`http://127.0.0.1:${p.admin}/admin/accounts/${account.account_id}/api-keys`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify({ environment: 'sandbox' }),
  });
  const headers = { authorization: key, 'content-type': 'application/json' };
  const refundIds = [];
  for (let n = 0; n < REFUNDS; n++) {
    const body = { transaction_id: `bench-${provider}-${n}`, amount: 10 + n, payer: { document_number: '52998224725', name: 'Maria Silva' } };
    const charge = await json(`${sandbox}/v2/pix`, { method: 'POST', headers, body: JSON.stringify(body) });
    await json(`${sandbox}/v2/sandbox/pix/${charge.id}/pay`, { method: 'POST', headers: { authorization: key } });
    const refund = await json(`${sandbox}/v2/transactions/refund`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: charge.id, refund_id: `r-${provider}-${n}` }),
    });
    await json(`${sandbox}/v2/sandbox/refunds/${refund.id}/settle`, { method: 'POST', headers: { authorization: key } });
    refundIds.push(refund.refund_id);
  }
  // receipt-service learns them from Kafka: wait until each answers.
  for (const refundId of refundIds) {
    for (let attempt = 0; ; attempt++) {
      const answer = await fetch(`${sandbox}/v2/transactions/refund/receipt?refund_id=${refundId}`, { headers: { authorization: key } });
      if (answer.status === 200) break;
      if (attempt > 600) throw new Error(`receipt of ${refundId}: ${answer.status} ${await answer.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { key, refundIds };
}

await up();
ensureTools(['wrk']);
if (!process.env.BENCH_SKIP_BUILD) {
  execFileSync('npx', ['nx', 'run-many', '-t', 'build', '--outputStyle=static'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
}
fs.mkdirSync(path.join(ROOT, '.data', 'bench'), { recursive: true });
await dropBenchDatabases();
const lines = [];
try {
  const system = await startSystem({ profile: 'bench', adminToken: ADMIN_TOKEN });
  try {
    const rows = [];
    for (const provider of ['PROVIDER_A', 'PROVIDER_B']) {
      const { key, refundIds } = await accountWithRefunds(provider);
      console.log(`[bench] ${provider}: ${REFUNDS} refunds settled and known to receipt-service`);
      rows.push(
        wrkPhase(
          `${provider}, through the gateway (receipt-service asks the bank)`,
          sandbox,
          { authorization: key },
          refundIds.map((id) => `/v2/transactions/refund/receipt?refund_id=${id}`),
        ),
      );
      const rtrIds = await rtrIdsOf(refundIds);
      rows.push(
        wrkPhase(
          `${provider}, the bank simulator alone (the same receipts)`,
          bank,
          await providerHeaders(provider, rtrIds),
          rtrIds.map((id) => providerPath(provider, id)),
        ),
      );
    }
    lines.push(
      `Refund receipts, fetched live (wrk, 20 connections, ${SECONDS} s per phase; ${REFUNDS} receipts per provider asked at random)`,
      '',
      '| phase | req/s | p50 ms | p99 ms |',
      '|---|---:|---:|---:|',
      ...rows.map((r) => `| ${r.name} | ${r.rps} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`),
    );
  } finally {
    await system.stop();
  }
} finally {
  await dropBenchDatabases();
}
console.log(`\n${lines.join('\n')}`);

/** The refunds' provider identifiers (rtrIds), which the API does not show: from payments-service's read model. */
function rtrIdsOf(refundIds) {
  return onDatabase(benchDatabaseUrl('payments'), async (client) =>
    (await client.query('SELECT rtr_id FROM pix_refunds WHERE refund_id = ANY($1)', [refundIds])).rows.map((r) => r.rtr_id),
  );
}

function providerPath(provider, rtrId) {
  return provider === 'PROVIDER_A' ? `/provider-a/v1/refunds/${rtrId}/receipt` : `/provider-b/api/v2/refunds/${rtrId}/receipt`;
}

/** PROVIDER_A: one bearer token for the run. PROVIDER_B signs each path; paths.lua sends the signature of the path it picks. */
async function providerHeaders(provider, rtrIds) {
  if (provider === 'PROVIDER_A') {
    const basic = Buffer.from(`${CREDENTIALS.client_id}:${CREDENTIALS.client_secret}`).toString('base64');
    const token = await json(`${bank}/provider-a/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    return { authorization: `Bearer ${token.access_token}` };
  }
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signatures = Object.fromEntries(
    rtrIds.map((id) => {
      const signed = providerPath(provider, id);
      return [signed, createHmac('sha256', CREDENTIALS.client_secret).update(`${timestamp}\nGET\n${signed}`).digest('hex')];
    }),
  );
  return { 'x-api-key': CREDENTIALS.client_id, 'x-timestamp': timestamp, signatures };
}
