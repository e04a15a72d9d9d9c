/** @shared-system */
import fs from 'node:fs';
import path from 'node:path';
import { eventually } from '@pixauto/testing';
import { call } from './support/http';
import { freshCpf, newMerchant } from './support/fixtures';
import { queryService } from './support/database';
import { metricsOf, sample } from './support/metrics';
import { OpsPorts, RunningSystem, sharedSystem, WITHIN_SECONDS } from './support/running-system';

// Every app's ops listener: liveness, readiness (its dependencies, for real: a database that refuses connections
// turns it 503) and Prometheus metrics that count what was just done.

let system: RunningSystem;

beforeAll(async () => {
  system = sharedSystem();
});

const APPS: [string, keyof OpsPorts][] = [
  ['api-gateway', 'gatewayOps'],
  ['recurrence-service', 'recurrencesOps'],
  ['solicitation-service', 'solicitationsOps'],
  ['limits-service', 'limitsOps'],
  ['payments-service', 'paymentsOps'],
  ['payout-query-service', 'payoutQueryOps'],
  ['webhook-dispatcher', 'webhooksOps'],
  ['receipt-service', 'receiptsOps'],
];

/** The project's Node major version (package.json engines: ">=24"): every process, the tests' own included, runs on it. */
const NODE_MAJOR = /\d+/.exec(JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')).engines.node)![0];

it(`the tests and the bank simulator run on Node ${NODE_MAJOR} too`, () => {
  expect(process.versions.node.split('.')[0]).toBe(NODE_MAJOR);
  // The simulator has no ops listener: its log's first line names its runtime, as every app's does.
  const log = fs.readFileSync(path.join(__dirname, '..', '..', '..', '.data', 'logs', process.env.E2E_PROFILE ?? 'e2e', 'bank-simulator.log'), 'utf8');
  const started = log
    .split('\n')
    .filter((line) => line.includes('"running on Node'))
    .map((line) => JSON.parse(line).node as string);
  expect(started.length).toBeGreaterThan(0);
  expect(started.at(-1)!.split('.')[0]).toBe(`v${NODE_MAJOR}`);
});

describe.each(APPS)('%s', (app, port) => {
  it('is live and ready, having checked its database, Kafka and its consumer groups', async () => {
    expect(await call(system.profile[port], 'GET', '/health/live')).toEqual({ status: 200, body: { status: 'ok', info: {}, error: {}, details: {} } });
    const ready = await call(system.profile[port], 'GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe('ok');
    expect(ready.body.info.database).toEqual({ status: 'up', migrations: expect.any(Number) });
    expect(ready.body.info.kafka).toEqual({ status: 'up', brokers: 1 });
    expect(ready.body.info.consumers.status).toBe('up');
    expect(ready.body.info.consumers.groups.length).toBeGreaterThan(0);
    if (app === 'api-gateway') expect(ready.body.info.redis).toEqual({ status: 'up' });
  });

  it(`runs on Node ${NODE_MAJOR}, the major version package.json's engines names`, async () => {
    expect(sample(await metricsOf(system.profile[port]), 'pixauto_nodejs_version_info', { major: NODE_MAJOR })).toBe(1);
  });

  it('serves its metrics with the process metrics, under its service name', async () => {
    const text = await metricsOf(system.profile[port]);
    expect(sample(text, 'pixauto_process_cpu_user_seconds_total', { service: app === 'api-gateway' ? 'gateway' : app })).toBeGreaterThan(0);
    expect(sample(text, 'pixauto_outbox_backlog')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'pixauto_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(0);
  });
});

describe('metrics', () => {
  it('the gateway counts and times a request by listener, route and status', async () => {
    const labels = { listener: 'production', method: 'GET', route: '/v2/limits', status: '401' };
    const before = sample(await metricsOf(system.profile.gatewayOps), 'pixauto_http_request_duration_seconds_count', labels) ?? 0;
    expect((await call(system.profile.gateway, 'GET', `/v2/limits?document_number=${freshCpf()}&type=cashout`)).status).toBe(401);

    const text = await metricsOf(system.profile.gatewayOps);
    expect(sample(text, 'pixauto_http_request_duration_seconds_count', labels)).toBe(before + 1);
    expect(sample(text, 'pixauto_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(before + 1);
    expect(sample(text, 'pixauto_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    // A path no route has is one label value, whatever the path.
    expect((await call(system.profile.gateway, 'GET', `/nowhere/${freshCpf()}`)).status).toBe(404);
    expect(
      sample(await metricsOf(system.profile.gatewayOps), 'pixauto_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThan(0);
  });

  it("a service counts the gateway's messages by pattern and status, and its outbox publishes", async () => {
    const merchant = await newMerchant(system);
    const labels = { pattern: 'limits.set', status: '200' };
    const before = sample(await metricsOf(system.profile.limitsOps), 'pixauto_rpc_request_duration_seconds_count', labels) ?? 0;
    const write = await call(system.profile.gateway, 'POST', '/v2/limits', {
      key: merchant.production,
      json: { document_number: freshCpf(), type: 'cashout', mechanism: 'amount', amount: 100 },
    });
    expect(write.status).toBe(200);

    const text = await eventually(
      () => metricsOf(system.profile.limitsOps),
      (metrics) => (sample(metrics, 'pixauto_outbox_publish_lag_seconds_count') ?? 0) > 0,
      WITHIN_SECONDS,
    );
    expect(sample(text, 'pixauto_rpc_request_duration_seconds_count', labels)).toBe(before + 1);
    expect(sample(text, 'pixauto_rpc_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(before + 1);
    expect(sample(text, 'pixauto_outbox_publish_lag_seconds_count')).toBeGreaterThan(0);
  });

  it('recurrence-service times its calls to the bank and its scheduler runs', async () => {
    const text = await eventually(
      () => metricsOf(system.profile.recurrencesOps),
      (metrics) => sample(metrics, 'pixauto_scheduler_run_duration_seconds_count', { task: 'ChargeScheduler' }) !== undefined,
      WITHIN_SECONDS,
    );
    // At start it registers its callback URL with the bank.
    expect(sample(text, 'pixauto_bank_request_duration_seconds_count', { bank: 'bcb-pix', operation: 'PUT /webhookrec', outcome: 'ok' })).toBeGreaterThan(0);
    expect(sample(text, 'pixauto_scheduler_run_duration_seconds_count', { task: 'ChargeScheduler' })).toBeGreaterThan(0);
    for (const name of ['pixauto_kafka_messages_consumed_total', 'pixauto_kafka_consumer_lag', 'pixauto_webhook_deliveries_total'])
      expect(text).toContain(`# TYPE ${name} `);
  });
});

describe('readiness', () => {
  it("turns 503 while a service's database refuses connections, and 200 again after, its outbox publishing again", async () => {
    const database = `${system.profile.databasePrefix}_limits`;
    const ready = () => call(system.profile.limitsOps, 'GET', '/health/ready');
    await queryService(system.profile.databasePrefix, 'gateway', `ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    try {
      await queryService(system.profile.databasePrefix, 'gateway', 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
      const down = await eventually(ready, (answer) => answer.status === 503, WITHIN_SECONDS);
      expect(down.status).toBe(503);
      expect(down.body.status).toBe('error');
      expect(down.body.error.database.status).toBe('down');
      expect(down.body.info.kafka.status).toBe('up');
      expect((await call(system.profile.limitsOps, 'GET', '/health/live')).status).toBe(200);
    } finally {
      await queryService(system.profile.databasePrefix, 'gateway', `ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    }
    expect((await eventually(ready, (answer) => answer.status === 200, WITHIN_SECONDS)).status).toBe(200);

    // The outbox publisher lost its connection too: it takes a new one, and a write's event leaves.
    const published = async () => sample(await metricsOf(system.profile.limitsOps), 'pixauto_outbox_publish_lag_seconds_count') ?? 0;
    const before = await published();
    const merchant = await newMerchant(system);
    const write = await call(system.profile.gateway, 'POST', '/v2/limits', {
      key: merchant.production,
      json: { document_number: freshCpf(), type: 'cashout', mechanism: 'amount', amount: 100 },
    });
    expect(write.status).toBe(200);
    expect(await eventually(published, (count) => count > before, WITHIN_SECONDS)).toBeGreaterThan(before);
    const drained = await eventually(
      () => metricsOf(system.profile.limitsOps),
      (metrics) => sample(metrics, 'pixauto_outbox_backlog') === 0,
      WITHIN_SECONDS,
    );
    expect(sample(drained, 'pixauto_outbox_backlog')).toBe(0);
  });

  it('turns 503 while a migration of the service is not recorded as run', async () => {
    const ready = () => call(system.profile.receiptsOps, 'GET', '/health/ready');
    const [latest] = await queryService(
      system.profile.databasePrefix,
      'receipt',
      'DELETE FROM migrations WHERE id = (SELECT max(id) FROM migrations) RETURNING *',
    );
    try {
      const down = await ready();
      expect(down.status).toBe(503);
      expect(down.body.error.database).toEqual({ status: 'down', pending: [latest.name] });
    } finally {
      await queryService(system.profile.databasePrefix, 'receipt', 'INSERT INTO migrations (id, timestamp, name) VALUES ($1, $2, $3)', [
        latest.id,
        latest.timestamp,
        latest.name,
      ]);
    }
    expect((await ready()).status).toBe(200);
  });
});
