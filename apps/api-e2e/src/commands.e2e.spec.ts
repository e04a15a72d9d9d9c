import { ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@pixauto/testing';
import {
  adminLinesIn,
  documentedText,
  launch,
  printedJson,
  readmeSection,
  ROOT,
  run,
  shellBlocks,
  statusesIn,
  Step,
  stepsOf,
  stopGroup,
} from './support/commands';

// The commands README tells a user to run, run as written: `npm start`, then the sandbox quickstart's two blocks taken
// from README.md itself (so the README cannot drift from the product), the `npm run admin -- ...` lines README.md and
// docs/ show, `npm run api:generate` and `npm run infra:up`. What the test changes, and only that, is what a user
// changes:
//   - `npm start` runs on the e2e profile's ports (START_PROFILE), not the dev ports a developer's own system uses;
//     so `npm run admin` gets ADMIN_URL and ADMIN_TOKEN (both documented), and the quickstart's
//     `S=http://127.0.0.1:3001` names the profile's sandbox port;
//   - `pix_test_...` becomes the key `keys create` printed, `<account_id>` and `<recurrence_id>` the ids printed.
// Dates are not changed: the README computes them in the shell (`date -d '+20 days' +%F`), so it runs on any day, and a
// literal date in the quickstart fails the test before it would stop working.
// Each command must succeed: exit 0, JSON without an error `message`, and every `"status": "X"` its `# →` comment
// names. A GET whose status is not there yet is asked again for up to 30 s, as a user would ("within a second or two").
// `npm run infra:down` is not run: it stops the PostgreSQL, Redis and Kafka this very run uses (npm test runs it last).

const PROFILE = process.env.E2E_PROFILE ?? 'e2e';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the launcher is the plain-Node script npm start uses
const { profileOf } = require('../../../deploy/scripts/system.cjs') as {
  profileOf: (name: string) => { sandbox: number; admin: number; databasePrefix: string };
};
const ports = profileOf(PROFILE);
const ADMIN = { ADMIN_URL: `http://127.0.0.1:${ports.admin}`, ADMIN_TOKEN: 'e2e-commands-admin-token' };
const QUICKSTART = readmeSection('## Sandbox quickstart');

/** The substitutions a user makes, applied to one command. */
function asTheUserTypesIt(command: string, values: Record<string, string>): string {
  return command.replace(/<([a-z_]+)>/g, (placeholder, name: string) => {
    if (!values[name]) throw new Error(`${placeholder} in "${command}" but no earlier command printed ${name}`);
    return values[name];
  });
}

/** Runs one README step and checks its answer; the JSON it printed. */
async function runStep(step: Step, values: Record<string, string>, prefix = ''): Promise<Record<string, unknown>> {
  const command = asTheUserTypesIt(step.command, values);
  const expected = statusesIn(step.answer);
  const retryable = !/-X (POST|PATCH|DELETE)/.test(command);
  const attempt = async () => {
    const { code, output } = await run(`${prefix}${command}`, ADMIN, 60_000);
    const context = `$ ${command}\n${output}`;
    if (code !== 0) throw new Error(`exit ${code}\n${context}`);
    const body = printedJson(output);
    if ('message' in body) throw new Error(`an error answer\n${context}`);
    const compact = JSON.stringify(body);
    return { missing: expected.filter((status) => !compact.includes(`"status":"${status}"`)), body, context };
  };
  // A GET is asked again until its statuses are there; a write is run once.
  const { missing, body, context } = await eventually(attempt, (answer) => answer.missing.length === 0 || !retryable, {
    timeoutMs: 30_000,
    intervalMs: 1000,
    what: `the answer the README gives (${step.answer.trim()}) to ${command}`,
  });
  if (missing.length > 0) throw new Error(`the README says ${step.answer.trim()}; not ${missing.join(', ')}\n${context}`);
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string' && /_id$/.test(key)) values[key] = value;
  return body;
}

describe('every command README tells a user to run', () => {
  let start: { child: ChildProcess; output: () => string } | undefined;

  beforeAll(async () => {
    // npm start, as the quickstart's first line, on the e2e profile; ready when it prints its addresses.
    start = launch('npm start', { START_PROFILE: PROFILE, ADMIN_TOKEN: ADMIN.ADMIN_TOKEN });
    const deadline = performance.now() + 480_000; // about a minute on two quiet cores; far more on a loaded machine
    while (!start.output().includes('pixauto is up')) {
      if (start.child.exitCode !== null) throw new Error(`npm start exited with ${start.child.exitCode}\n${start.output().slice(-4000)}`);
      if (performance.now() > deadline) throw new Error(`npm start not up after 480 s\n${start.output().slice(-4000)}`);
      await sleep(250);
    }
    expect(start.output()).toContain(`sandbox API     http://127.0.0.1:${ports.sandbox}`);
  }, 540_000);

  afterAll(async () => {
    // Ctrl-C, as the README says: the terminal signals the whole foreground group.
    if (start) await stopGroup(start.child, 'SIGINT', 30_000);
  }, 60_000);

  it('the sandbox quickstart, from README.md, step by step', async () => {
    const [first, second] = shellBlocks(QUICKSTART);
    // A literal date would stop working the day it passes; the shell computes every one.
    expect([...first, ...second].join('\n').match(/\d{4}-\d{2}-\d{2}/g) ?? []).toEqual([]);
    expect(first[0]).toMatch(/^npm install && npm start\b/); // npm start is running (beforeAll); npm install ran before the suite
    const values: Record<string, string> = {};
    const printed = [];
    for (const step of stepsOf(first.slice(1))) printed.push(await runStep(step, values));
    expect(printed).toEqual([
      expect.objectContaining({ account_id: expect.any(String) }),
      expect.objectContaining({ api_key: expect.stringMatching(/^pix_test_/) }),
    ]);
    const key = String(printed[1].api_key);

    // The block's first line sets KEY and S; every later line runs after it, as in one terminal.
    const [assignments, ...rest] = stepsOf(second);
    expect(assignments.command).toMatch(/^KEY=pix_test_\.\.\.; S=http:\/\/127\.0\.0\.1:3001$/);
    const setup = `${assignments.command.replace('pix_test_...', key).replace('http://127.0.0.1:3001', `http://127.0.0.1:${ports.sandbox}`)}\n`;
    const answers = [];
    for (const step of rest) answers.push(await runStep(step, values, setup));
    // The create, the payer's approval, the clock and the first cycle's charge, PAID.
    expect(answers).toHaveLength(4);
    expect(answers[0]).toMatchObject({ status: 'CREATED', recurrence_id: expect.any(String) });
    expect(answers[3]).toMatchObject({ charges: [expect.objectContaining({ status: 'PAID' })] });
  }, 180_000);

  it('the `npm run admin -- ...` lines README.md and docs/ show, and the commands of the operator table', async () => {
    const shown = adminLinesIn(documentedText());
    expect(shown).toEqual(expect.arrayContaining(['npm run admin -- help', 'npm run admin -- accounts update ID --rate-limit-sandbox 25']));
    const help = await run('npm run admin -- help', ADMIN);
    expect(help.code).toBe(0);
    expect(help.output).toContain('accounts create');

    const values: Record<string, string> = {};
    const account = await runStep({ command: 'npm run admin -- accounts create --name "Academia Fit"', answer: '' }, values);
    const id = String(account.account_id);
    for (const line of shown.filter((command) => command !== 'npm run admin -- help')) {
      await runStep({ command: line.replace(/\bID\b/, id), answer: '' }, values);
    }
    const key = await runStep({ command: `npm run admin -- keys create ${id} --environment production --read-only`, answer: '' }, values);
    expect(await runStep({ command: `npm run admin -- accounts show ${id}`, answer: '' }, values)).toMatchObject({
      account_id: id,
      rate_limit: expect.objectContaining({ sandbox: 25 }),
    });
    await runStep({ command: `npm run admin -- webhooks rotate-secret ${id} --environment sandbox`, answer: '' }, values);
    await runStep({ command: `npm run admin -- webhooks deliveries ${id} --environment sandbox`, answer: '' }, values);
    const revoked = await run(`npm run admin -- keys revoke ${String(key.key_id)}`, ADMIN);
    expect(revoked.code).toBe(0);
  }, 120_000);

  it('npm run api:generate writes exactly the committed documents and types', async () => {
    const generated = [
      'apps/api-gateway/src/openapi/response-schemas.generated.ts',
      'libs/bank/src/generated/bcb-api-pix.ts',
      ...fs.readdirSync(path.join(ROOT, 'libs/api-client/openapi')).map((file) => `libs/api-client/openapi/${file}`),
      ...fs.readdirSync(path.join(ROOT, 'libs/api-client/src/generated')).map((file) => `libs/api-client/src/generated/${file}`),
    ];
    const before = new Map(generated.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8')]));
    try {
      const { code, output } = await run('npm run api:generate', {}, 120_000);
      expect({ code, output }).toMatchObject({ code: 0, output: expect.stringContaining('wrote ') });
      expect(generated.filter((file) => fs.readFileSync(path.join(ROOT, file), 'utf8') !== before.get(file))).toEqual([]);
    } finally {
      for (const [file, text] of before) fs.writeFileSync(path.join(ROOT, file), text); // the clone as it was
    }
  }, 150_000);

  it('npm run infra:up finds PostgreSQL, Redis and Kafka answering', async () => {
    const { code, output } = await run('npm run infra:up', {}, 120_000);
    expect({ code, output }).toMatchObject({ code: 0 });
  }, 150_000);
});
