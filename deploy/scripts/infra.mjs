#!/usr/bin/env node
// Local infrastructure for development and tests: PostgreSQL, Redis and a single-node Kafka (KRaft).
//
//   node deploy/scripts/infra.mjs up       ensure all three answer; start what does not
//   node deploy/scripts/infra.mjs down     stop exactly what `up` started (recorded in .data/infra-started.json)
//   node deploy/scripts/infra.mjs status   one line per server; exit 1 if any is unreachable
//   node deploy/scripts/infra.mjs broker start|stop|kill --dir D --port P --controller-port C
//                                          a private broker of a test's own (the fault suite), never the shared one
//
// As a module:  import { up, down, status } from './deploy/scripts/infra.mjs'
//
// Environment: KAFKA_BROKERS (127.0.0.1:9092), DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres),
// REDIS_URL (redis://127.0.0.1:6379), KAFKA_HEAP (512m).
//
// Plain Node ESM, node: built-ins only. Servers that already answer are used as they are and never stopped.

import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SCRIPT), '..', '..');
const DATA = path.join(ROOT, '.data');
const RECORD = path.join(DATA, 'infra-started.json');
const LOCK = path.join(DATA, 'infra.lock');

const KAFKA_SRC = path.join(ROOT, 'deploy', 'kafka');
const KAFKA_POM = path.join(KAFKA_SRC, 'pom.xml');
const KAFKA_PROPS_TEMPLATE = path.join(KAFKA_SRC, 'server.properties');
const KAFKA_LOG4J = path.join(KAFKA_SRC, 'log4j.properties');
const KDIR = path.join(DATA, 'kafka');
const KLIB = path.join(KDIR, 'lib');
const KLIB_STAMP = path.join(KLIB, '.pom.sha256');

/**
 * One broker's files: the shared one in .data/kafka on 9092/9093 (deploy/kafka/server.properties), or a private one
 * (a test that kills its broker must not kill everyone's) in a directory and on ports of its own. All use the jars in
 * .data/kafka/lib.
 */
function kafkaNode({ dir = KDIR, port = 9092, controllerPort = 9093 } = {}) {
  return {
    dir,
    port,
    controllerPort,
    shared: dir === KDIR,
    data: path.join(dir, 'data'),
    props: path.join(dir, 'server.properties'),
    out: path.join(dir, 'kafka.out'),
    pidFile: path.join(dir, 'kafka.pid'),
    log: path.join(dir, 'server.log'),
  };
}
const SHARED_KAFKA = kafkaNode();

const SERVICES = ['postgres', 'redis', 'kafka'];

const log = (msg) => process.stderr.write(`[infra] ${msg}\n`);

class InfraError extends Error {}
const fail = (msg) => {
  throw new InfraError(msg);
};

// ---------------------------------------------------------------------------------------------
// Endpoints from the environment

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '']);

function stripBrackets(h) {
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

function fromUrl(envName, fallback, defaultPort) {
  const raw = process.env[envName] || fallback;
  let u;
  try {
    u = new URL(raw);
  } catch {
    fail(`${envName}=${raw} is not a URL`);
  }
  const host = stripBrackets(u.hostname) || '127.0.0.1';
  const port = u.port ? Number(u.port) : defaultPort;
  return { host, port, raw };
}

function endpoints() {
  const pg = fromUrl('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/postgres', 5432);
  const redis = fromUrl('REDIS_URL', 'redis://127.0.0.1:6379', 6379);
  const brokersRaw = process.env.KAFKA_BROKERS || '127.0.0.1:9092';
  const brokers = brokersRaw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(s);
      if (!m) fail(`KAFKA_BROKERS entry "${s}" is not host:port`);
      return { host: m[1] || '127.0.0.1', port: Number(m[2]) };
    });
  if (!brokers.length) fail('KAFKA_BROKERS is empty');
  return {
    postgres: { ...pg, defaultPort: 5432 },
    redis: { ...redis, defaultPort: 6379 },
    kafka: { host: brokers[0].host, port: brokers[0].port, all: brokers, raw: brokersRaw, defaultPort: 9092 },
  };
}

const hp = (e) => `${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;
const startable = (e) => LOCAL_HOSTS.has(e.host) && e.port === e.defaultPort;

// ---------------------------------------------------------------------------------------------
// Wire-level probes (no client libraries)

/** Connects, writes `payload`, resolves with the bytes received once `done(buf)` says so; null on error/timeout. */
function probe(host, port, payload, done, timeoutMs = 1500) {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let settled = false;
    const sock = net.connect({ host, port });
    const finish = (v) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      sock.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    sock.on('connect', () => {
      if (payload) sock.write(payload);
      else finish(Buffer.alloc(0));
    });
    sock.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (done(buf)) finish(buf);
    });
    sock.on('error', () => finish(null));
    sock.on('close', () => finish(null));
  });
}

const tcpOpen = async (host, port, timeoutMs = 1000) => (await probe(host, port, null, () => true, timeoutMs)) !== null;

/** PostgreSQL: an SSLRequest is answered with 'S' or 'N' by any live postmaster. */
async function pgAnswers(host, port) {
  const req = Buffer.alloc(8);
  req.writeInt32BE(8, 0);
  req.writeInt32BE(80877103, 4);
  const res = await probe(host, port, req, (b) => b.length >= 1);
  return !!res && (res[0] === 0x53 || res[0] === 0x4e);
}

/** Redis: PING answered with +PONG (or -NOAUTH when a password is set; still a live server). */
async function redisAnswers(host, port) {
  const res = await probe(host, port, Buffer.from('PING\r\n'), (b) => b.includes(0x0a));
  if (!res) return false;
  const line = res.toString('utf8');
  return line.startsWith('+PONG') || line.startsWith('-NOAUTH');
}

/**
 * Kafka: a Metadata v4 request (no topics). A broker that returns itself in the broker list
 * is serving requests, not merely listening.
 */
async function kafkaAnswers(host, port) {
  const clientId = Buffer.from('infra-probe');
  const corr = 0x1f2e3d4c;
  const body = Buffer.alloc(2 + 2 + 4 + 2 + clientId.length + 4 + 1);
  let o = 0;
  o = body.writeInt16BE(3, o); // api_key Metadata
  o = body.writeInt16BE(4, o); // api_version
  o = body.writeInt32BE(corr, o);
  o = body.writeInt16BE(clientId.length, o);
  o += clientId.copy(body, o);
  o = body.writeInt32BE(0, o); // topics: empty array = none
  body.writeInt8(0, o); // allow_auto_topic_creation
  const frame = Buffer.alloc(4 + body.length);
  frame.writeInt32BE(body.length, 0);
  body.copy(frame, 4);
  const res = await probe(host, port, frame, (b) => b.length >= 4 && b.length >= 4 + b.readInt32BE(0), 2500);
  if (!res || res.length < 16) return false;
  try {
    if (res.readInt32BE(4) !== corr) return false;
    const brokers = res.readInt32BE(12); // after size, correlation_id, throttle_time_ms
    return brokers >= 1;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Processes and packages

function have(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** Runs a command, capturing output. Rejects with the tail of its output when it fails. */
function run(cmd, args, { env, cwd = ROOT, what = cmd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => reject(new InfraError(`${what}: cannot run ${cmd}: ${e.message}`)));
    child.on('close', (code, signal) => {
      if (code === 0) resolve(out);
      else {
        const tail = out.trim().split('\n').slice(-25).join('\n');
        reject(new InfraError(`${what} failed (${signal || `exit ${code}`}): ${cmd} ${args.join(' ')}\n${tail}`));
      }
    });
  });
}

let aptChain = Promise.resolve();
let aptUpdated = false;
/** apt-get install, serialised within this process, with one apt-get update first. */
export function aptInstall(pkgs, why) {
  const job = aptChain.then(async () => {
    if (process.getuid && process.getuid() !== 0) fail(`${why}: ${pkgs.join(' ')} missing and not running as root to apt-get install it`);
    if (!have('apt-get')) fail(`${why}: ${pkgs.join(' ')} missing and apt-get is not available`);
    const env = { DEBIAN_FRONTEND: 'noninteractive' };
    if (!aptUpdated) {
      log('apt-get update');
      await run('apt-get', ['update', '-q'], { env, what: 'apt-get update' });
      aptUpdated = true;
    }
    log(`${why}: apt-get install ${pkgs.join(' ')}`);
    await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...pkgs], { env, what: 'apt-get install' });
  });
  aptChain = job.catch(() => {});
  return job;
}

function pidAlive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  // A zombie still accepts signal 0; treat it as gone.
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    if (state === 'Z' || state === 'X') return false;
  } catch {
    /* no /proc: trust kill(0) */
  }
  return true;
}

function cmdline(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

const isOurKafka = (pid, node = SHARED_KAFKA) => pidAlive(pid) && cmdline(pid).includes('kafka.Kafka') && cmdline(pid).includes(node.props);

/** ERROR/FATAL lines (or else the last lines) of a log written since byte offset `from`. */
function logErrors(file, from = 0) {
  let text = '';
  try {
    const buf = fs.readFileSync(file);
    text = buf.subarray(from <= buf.length ? from : 0).toString('utf8');
  } catch {
    return '';
  }
  const lines = text.trimEnd().split('\n');
  const errs = lines.filter((l) => / (ERROR|FATAL) /.test(l));
  return (errs.length ? errs : lines)
    .slice(-12)
    .map((l) => l.slice(0, 400))
    .join('\n');
}

async function waitFor(check, timeoutMs, intervalMs = 300) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= until) return false;
    await sleep(intervalMs);
  }
}

function tail(file, lines = 20) {
  try {
    const t = fs.readFileSync(file, 'utf8').trimEnd().split('\n');
    return t.slice(-lines).join('\n');
  } catch {
    return '';
  }
}

// ---------------------------------------------------------------------------------------------
// Record of what `up` started, and a lock so that concurrent `up`/`down` calls serialise

function readRecord() {
  try {
    return JSON.parse(fs.readFileSync(RECORD, 'utf8'));
  } catch {
    return {};
  }
}

function writeRecord(rec) {
  if (!Object.keys(rec).length) {
    fs.rmSync(RECORD, { force: true });
    return;
  }
  fs.mkdirSync(DATA, { recursive: true });
  const tmp = `${RECORD}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(rec, null, 2) + '\n');
  fs.renameSync(tmp, RECORD);
}

async function withLock(fn) {
  fs.mkdirSync(DATA, { recursive: true });
  const until = Date.now() + 15 * 60_000;
  let announced = false;
  for (;;) {
    try {
      fs.writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      const holder = Number(fs.readFileSync(LOCK, 'utf8').trim() || 0);
      if (holder === process.pid) fail('infra: re-entrant call (up/down called while another up/down is running in this process)');
      if (!pidAlive(holder)) {
        fs.rmSync(LOCK, { force: true });
        continue;
      }
      if (!announced) log(`waiting for another infra run (pid ${holder}) to finish`);
      announced = true;
      if (Date.now() > until) fail(`infra: lock ${LOCK} held by pid ${holder} for too long`);
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(LOCK, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

function pgClusterVersion() {
  let versions = [];
  try {
    versions = fs
      .readdirSync('/etc/postgresql')
      .filter((v) => fs.existsSync(path.join('/etc/postgresql', v, 'main')))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    /* none */
  }
  return versions[0];
}

function pgTrustLocal(version) {
  const hba = path.join('/etc/postgresql', version, 'main', 'pg_hba.conf');
  const marker = '# added by deploy/scripts/infra.mjs';
  const cur = fs.readFileSync(hba, 'utf8');
  if (cur.includes(marker)) return;
  const lines = [
    marker,
    'local   all   all                 trust',
    'host    all   all   127.0.0.1/32  trust',
    'host    all   all   ::1/128       trust',
    '',
  ].join('\n');
  fs.writeFileSync(hba, lines + cur);
}

async function upPostgres(e) {
  if (await pgAnswers(e.host, e.port)) return { started: false };
  if (!startable(e)) fail(`postgres: nothing answers at ${hp(e)} (DATABASE_URL) and only 127.0.0.1:${e.defaultPort} can be started here`);

  let installed = false;
  if (!have('pg_ctlcluster') || !pgClusterVersion()) {
    await aptInstall(['postgresql'], 'postgres');
    installed = true;
  }
  const version = pgClusterVersion();
  if (!version) fail('postgres: no cluster "main" under /etc/postgresql after installing postgresql');
  if (installed) pgTrustLocal(version);

  // The package's postinst may have started it already.
  if (!(await pgAnswers(e.host, e.port))) {
    log(`postgres: starting cluster ${version}/main`);
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { what: 'postgres start' });
  }
  if (!(await waitFor(() => pgAnswers(e.host, e.port), 30_000))) {
    fail(`postgres: cluster ${version}/main started but nothing answers at ${hp(e)}; see /var/log/postgresql/`);
  }
  log(`postgres: ready at ${hp(e)}`);
  return { started: true, record: { version, cluster: 'main' } };
}

async function downPostgres(r) {
  const version = r.version || pgClusterVersion();
  log(`postgres: stopping cluster ${version}/${r.cluster || 'main'}`);
  await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, r.cluster || 'main', 'stop'], { what: 'postgres stop' });
}

// ---------------------------------------------------------------------------------------------
// Redis

async function upRedis(e) {
  if (await redisAnswers(e.host, e.port)) return { started: false };
  if (!startable(e)) fail(`redis: nothing answers at ${hp(e)} (REDIS_URL) and only 127.0.0.1:${e.defaultPort} can be started here`);
  if (await tcpOpen(e.host, e.port)) {
    // Listening but not answering PING yet (e.g. loading): give it a moment before deciding.
    if (await waitFor(() => redisAnswers(e.host, e.port), 15_000)) return { started: false };
    fail(`redis: something listens on ${hp(e)} but does not answer PING`);
  }

  if (!have('redis-server') || !have('redis-cli')) {
    await aptInstall(['redis-server'], 'redis');
  }
  if (!(await redisAnswers(e.host, e.port))) {
    log('redis: starting');
    fs.mkdirSync('/var/lib/redis', { recursive: true });
    fs.mkdirSync('/var/log/redis', { recursive: true });
    await run(
      'redis-server',
      [
        '--daemonize',
        'yes',
        '--bind',
        '127.0.0.1',
        '-::1',
        '--port',
        '6379',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        '/var/lib/redis',
        '--logfile',
        '/var/log/redis/ci.log',
      ],
      { what: 'redis start' },
    );
  }
  if (!(await waitFor(() => redisAnswers(e.host, e.port), 15_000))) {
    fail(`redis: started but does not answer PING at ${hp(e)}; see /var/log/redis/ci.log`);
  }
  log(`redis: ready at ${hp(e)}`);
  return { started: true, record: { port: 6379 } };
}

async function downRedis(r) {
  const port = String(r.port || 6379);
  log('redis: stopping');
  try {
    await run('redis-cli', ['-h', '127.0.0.1', '-p', port, 'shutdown', 'nosave'], { what: 'redis stop' });
  } catch (err) {
    // redis-cli may report a dropped connection after a successful shutdown.
    if (await redisAnswers('127.0.0.1', Number(port))) throw err;
  }
  if (!(await waitFor(async () => !(await tcpOpen('127.0.0.1', Number(port))), 15_000))) {
    fail(`redis: still listening on 127.0.0.1:${port} after shutdown`);
  }
}

// ---------------------------------------------------------------------------------------------
// Kafka

function sha256(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

async function ensureJavaTools() {
  const missing = [];
  if (!have('java')) missing.push('openjdk-17-jre-headless');
  if (!have('mvn')) missing.push('maven');
  if (missing.length) await aptInstall(missing, 'kafka');
}

async function ensureKafkaJars() {
  const want = sha256(KAFKA_POM);
  let stamp = '';
  try {
    stamp = fs.readFileSync(KLIB_STAMP, 'utf8').trim();
  } catch {
    /* none */
  }
  if (stamp === want && fs.readdirSync(KLIB).some((f) => /^kafka_2\.13-.*\.jar$/.test(f))) return false;

  const tmp = `${KLIB}.tmp`;
  fs.rmSync(tmp, { recursive: true, force: true });
  await run('mvn', ['-q', '-B', '-f', KAFKA_POM, 'dependency:copy-dependencies', `-DoutputDirectory=${tmp}`], {
    what: 'kafka: resolving jars with Maven',
  });
  if (!fs.readdirSync(tmp).some((f) => /^kafka_2\.13-.*\.jar$/.test(f))) fail(`kafka: Maven produced no kafka_2.13 jar in ${tmp}`);
  fs.writeFileSync(path.join(tmp, path.basename(KLIB_STAMP)), want + '\n');
  fs.rmSync(KLIB, { recursive: true, force: true });
  fs.renameSync(tmp, KLIB);
  return true;
}

function writeKafkaProps(node) {
  // A private broker's ports: later keys win in a Java properties file.
  const ports = node.shared
    ? ''
    : `listeners=PLAINTEXT://127.0.0.1:${node.port},CONTROLLER://127.0.0.1:${node.controllerPort}\n` +
      `advertised.listeners=PLAINTEXT://127.0.0.1:${node.port}\ncontroller.quorum.voters=1@127.0.0.1:${node.controllerPort}\n`;
  const text =
    fs.readFileSync(KAFKA_PROPS_TEMPLATE, 'utf8').trimEnd() +
    `\n\n# ---- generated by deploy/scripts/infra.mjs from deploy/kafka/server.properties ----\nlog.dirs=${node.data}\n${ports}`;
  let cur = '';
  try {
    cur = fs.readFileSync(node.props, 'utf8');
  } catch {
    /* none */
  }
  if (cur !== text) fs.writeFileSync(node.props, text);
}

function heapOpts() {
  const heap = (process.env.KAFKA_HEAP || '512m').trim();
  const m = /^(\d+)([kmg]?)$/i.exec(heap);
  if (!m) fail(`KAFKA_HEAP=${heap} is not a JVM size like 512m or 1g`);
  const mult = { '': 1 / (1024 * 1024), k: 1 / 1024, m: 1, g: 1024 }[m[2].toLowerCase()];
  const mb = Number(m[1]) * mult;
  return [`-Xms${mb < 256 ? heap : '256m'}`, `-Xmx${heap}`];
}

function javaBase(node = SHARED_KAFKA) {
  return ['-cp', path.join(KLIB, '*'), `-Dlog4j.configuration=file:${KAFKA_LOG4J}`, `-Dkafka.logs.dir=${node.dir}`, '-Djava.awt.headless=true'];
}

async function formatKafkaStorage(node) {
  if (fs.existsSync(path.join(node.data, 'meta.properties'))) return;
  // Anything in the data dir without meta.properties is a half-finished earlier attempt.
  fs.rmSync(node.data, { recursive: true, force: true });
  // A cluster id is 16 random bytes in base64url, like Kafka's own; one that starts with '-' would be read as an
  // option by the tool's argument parser (1 fresh machine in 64), hence --cluster-id=<id> in one argument.
  const clusterId = randomBytes(16).toString('base64url');
  log(`kafka: formatting storage (cluster id ${clusterId})`);
  await run('java', ['-Xmx256m', ...javaBase(node), 'kafka.tools.StorageTool', 'format', `--cluster-id=${clusterId}`, '-c', node.props], {
    what: 'kafka: storage format',
  });
}

function stopKafkaProcess(pid, timeoutMs = 45_000) {
  return (async () => {
    const signal = (sig) => {
      try {
        process.kill(-pid, sig);
      } catch {
        try {
          process.kill(pid, sig);
        } catch {
          /* gone */
        }
      }
    };
    signal('SIGTERM');
    if (await waitFor(async () => !pidAlive(pid), timeoutMs, 250)) return;
    log(`kafka: pid ${pid} did not stop within ${timeoutMs / 1000}s, killing`);
    signal('SIGKILL');
    await waitFor(async () => !pidAlive(pid), 10_000, 250);
  })();
}

async function upKafka(e, { kafkaTimeoutMs = 60_000 } = {}) {
  for (const b of e.all) if (await kafkaAnswers(b.host, b.port)) return { started: false };
  if (!startable(e)) fail(`kafka: no broker answers at ${e.raw} (KAFKA_BROKERS) and only 127.0.0.1:${e.defaultPort} can be started here`);
  return startBroker(SHARED_KAFKA, e, { kafkaTimeoutMs });
}

const pidIn = (node) => Number((fs.existsSync(node.pidFile) && fs.readFileSync(node.pidFile, 'utf8').trim()) || 0);

/** Starts the broker `node` describes (its storage formatted on first use) and waits until it serves requests at `e`. */
async function startBroker(node, e, { kafkaTimeoutMs = 60_000 } = {}) {
  // One of ours from an earlier run may still be starting up.
  let pid = pidIn(node);
  let logFrom = 0;
  if (isOurKafka(pid, node)) {
    log(`kafka: pid ${pid} is starting, waiting for it`);
  } else {
    if (await tcpOpen(e.host, e.port)) {
      if (await waitFor(() => kafkaAnswers(e.host, e.port), 20_000, 500)) return { started: false };
      fail(`kafka: something listens on ${hp(e)} but does not answer Kafka Metadata requests`);
    }
    fs.mkdirSync(node.dir, { recursive: true });
    const firstRun = !fs.existsSync(KLIB_STAMP);
    log(`kafka: starting${firstRun ? ' (first run resolves jars from Maven Central)' : ''}`);
    await ensureJavaTools();
    if (await ensureKafkaJars()) log('kafka: jars resolved');
    writeKafkaProps(node);
    await formatKafkaStorage(node);

    const logStart = fs.existsSync(node.log) ? fs.statSync(node.log).size : 0;
    const out = fs.openSync(node.out, 'w');
    fs.writeSync(out, `==== ${new Date().toISOString()} infra.mjs starting kafka ====\n`);
    const child = spawn('java', [...heapOpts(), '-XX:+UseG1GC', '-XX:+ExitOnOutOfMemoryError', ...javaBase(node), 'kafka.Kafka', node.props], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    const spawnErr = await new Promise((resolve) => {
      child.once('error', resolve);
      child.once('spawn', () => resolve(null));
    });
    if (spawnErr) fail(`kafka: cannot run java: ${spawnErr.message}`);
    child.unref();
    pid = child.pid;
    fs.writeFileSync(node.pidFile, `${pid}\n`);
    logFrom = logStart;
  }

  const t0 = Date.now();
  let died = false;
  const ready = await waitFor(
    async () => {
      if (!pidAlive(pid)) {
        died = true;
        return true;
      }
      return kafkaAnswers(e.host, e.port);
    },
    kafkaTimeoutMs,
    500,
  );
  if (died || !ready) {
    if (!died) await stopKafkaProcess(pid, 15_000);
    fs.rmSync(node.pidFile, { force: true });
    const why = died ? 'exited during start-up' : `did not serve requests within ${kafkaTimeoutMs / 1000}s (stopped it)`;
    fail(
      `kafka: broker ${why}. Logs: ${node.out}, ${node.log}\n--- kafka.out ---\n${tail(node.out)}\n--- server.log (errors) ---\n${logErrors(node.log, logFrom)}`,
    );
  }
  log(`kafka: ready at ${hp(e)} (pid ${pid}, ${((Date.now() - t0) / 1000).toFixed(1)}s)`);
  return { started: true, record: { pid } };
}

async function downKafka(r, node = SHARED_KAFKA) {
  const pid = Number(r.pid);
  if (isOurKafka(pid, node)) {
    log(`kafka: stopping (pid ${pid})`);
    await stopKafkaProcess(pid);
    if (pidAlive(pid)) fail(`kafka: pid ${pid} is still alive`);
  }
  const filePid = pidIn(node);
  if (filePid === pid || !pidAlive(filePid)) fs.rmSync(node.pidFile, { force: true });
}

/**
 * A broker of a caller's own (the fault suite kills and restarts it; the shared one on 9092 must never be), in `dir`
 * and on `port` and `controllerPort`, with the same configuration and jars as the shared one. Its data stays in `dir`
 * across a stop or kill, so a restart finds its topics and committed offsets. Resolves to its pid.
 */
export async function startPrivateBroker({ dir, port, controllerPort, kafkaTimeoutMs = 90_000 }) {
  const node = kafkaNode({ dir: path.resolve(dir), port, controllerPort });
  if (node.shared || port === 9092) fail('kafka: a private broker needs a directory and ports of its own');
  const e = { host: '127.0.0.1', port };
  if (!isOurKafka(pidIn(node), node) && (await tcpOpen(e.host, port))) fail(`kafka: something else listens on ${hp(e)}`);
  const { record } = await startBroker(node, e, { kafkaTimeoutMs });
  return record.pid;
}

/** Stops the private broker in `dir`: SIGTERM and wait (`kill: true`: SIGKILL, no shutdown, as a crash). */
export async function stopPrivateBroker({ dir, kill = false }) {
  const node = kafkaNode({ dir: path.resolve(dir) });
  const pid = pidIn(node);
  if (isOurKafka(pid, node)) {
    if (kill) {
      process.kill(pid, 'SIGKILL');
      await waitFor(async () => !pidAlive(pid), 10_000, 100);
    } else await stopKafkaProcess(pid, 30_000);
  }
  if (!pidAlive(pid)) fs.rmSync(node.pidFile, { force: true });
}

// ---------------------------------------------------------------------------------------------
// Public API

const UP = { postgres: upPostgres, redis: upRedis, kafka: upKafka };
const DOWN = { postgres: downPostgres, redis: downRedis, kafka: downKafka };

/**
 * Ensure PostgreSQL, Redis and Kafka answer; start those that do not and record them.
 * opts.only: subset of ['postgres','redis','kafka'] (default all); opts.kafkaTimeoutMs (default 60000).
 * Resolves to { postgres|redis|kafka: { host, port, startedNow, startedByInfra } }.
 */
export async function up(opts = {}) {
  const only = opts.only ?? SERVICES;
  for (const s of only) if (!SERVICES.includes(s)) fail(`unknown service "${s}"`);
  const eps = endpoints();
  return withLock(async () => {
    const settled = await Promise.allSettled(only.map((s) => UP[s](eps[s], opts)));
    const rec = readRecord();
    const result = {};
    const errors = [];
    only.forEach((s, i) => {
      const r = settled[i];
      if (r.status === 'fulfilled') {
        if (r.value.started) rec[s] = { ...r.value.record, startedAt: new Date().toISOString() };
        result[s] = { host: eps[s].host, port: eps[s].port, startedNow: r.value.started, startedByInfra: !!rec[s] };
      } else {
        errors.push(r.reason instanceof InfraError ? r.reason.message : `${s}: ${r.reason?.stack || r.reason}`);
      }
    });
    writeRecord(rec);
    if (errors.length) fail(errors.join('\n'));
    return result;
  });
}

/** Stop exactly what `up` recorded as started by it (Kafka first), then clear the record. */
/** Stops what `up` started (all of it, or `opts.only`: e.g. just what one caller's own `up` started). */
export async function down(opts = {}) {
  const only = opts.only ?? SERVICES;
  return withLock(async () => {
    const rec = readRecord();
    const errors = [];
    for (const s of ['kafka', 'redis', 'postgres']) {
      if (!rec[s] || !only.includes(s)) continue;
      try {
        await DOWN[s](rec[s]);
        delete rec[s];
      } catch (err) {
        errors.push(err instanceof InfraError ? err.message : `${s}: ${err?.stack || err}`);
      }
    }
    for (const k of Object.keys(rec)) if (!SERVICES.includes(k)) delete rec[k];
    writeRecord(rec);
    if (errors.length) fail(errors.join('\n'));
  });
}

/** Resolves to { postgres|redis|kafka: { host, port, reachable, startedByInfra } }. */
export async function status() {
  const eps = endpoints();
  const rec = readRecord();
  const check = { postgres: pgAnswers, redis: redisAnswers, kafka: kafkaAnswers };
  const out = {};
  for (const s of SERVICES) {
    let reachable = false;
    for (const b of eps[s].all ?? [eps[s]]) if ((reachable = await check[s](b.host, b.port))) break;
    out[s] = { host: eps[s].host, port: eps[s].port, reachable, startedByInfra: !!rec[s] };
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// CLI

async function main(argv) {
  const cmd = argv[0];
  if (cmd === 'broker') {
    // node infra.mjs broker start|stop|kill --dir D --port P --controller-port C: a private broker (startPrivateBroker)
    const option = (name) => argv[argv.indexOf(`--${name}`) + 1];
    const dir = argv.includes('--dir') ? option('dir') : fail('broker: --dir is required');
    if (argv[1] === 'start') {
      const pid = await startPrivateBroker({ dir, port: Number(option('port')), controllerPort: Number(option('controller-port')) });
      process.stdout.write(`${pid}\n`);
    } else if (argv[1] === 'stop' || argv[1] === 'kill') {
      await stopPrivateBroker({ dir, kill: argv[1] === 'kill' });
    } else fail('usage: node deploy/scripts/infra.mjs broker start|stop|kill --dir D [--port P --controller-port C]');
  } else if (cmd === 'up') {
    await up();
  } else if (cmd === 'down') {
    await down();
  } else if (cmd === 'status') {
    const st = await status();
    let allUp = true;
    for (const [s, v] of Object.entries(st)) {
      allUp &&= v.reachable;
      process.stdout.write(
        `${s.padEnd(9)} ${hp(v).padEnd(16)} ${v.reachable ? 'reachable  ' : 'UNREACHABLE'}  ${v.startedByInfra ? 'started by infra.mjs' : 'not started by infra.mjs'}\n`,
      );
    }
    process.exitCode = allUp ? 0 : 1;
  } else {
    process.stderr.write('usage: node deploy/scripts/infra.mjs up|down|status|broker\n');
    process.exitCode = 2;
  }
}

if (process.argv[1] && fs.realpathSync(path.resolve(process.argv[1])) === fs.realpathSync(SCRIPT)) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`[infra] error: ${err instanceof InfraError ? err.message : err?.stack || err}\n`);
    process.exit(1);
  });
}
