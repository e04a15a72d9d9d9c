import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, run } from './support/commands';

// Every `npm run bench*` of package.json, run as a user runs it, in its tiny mode (BENCH_SMOKE=1: a second or two a
// phase and a small N, on the same code path as the real run; dist/ as the build step left it). Each must exit 0 and
// print its figures. A bench installs the tools it needs (wrk, pgbench) or says which package is missing; each stops
// the system it started and drops its databases, whether it passed or not, and is stopped itself past its bound.

const scripts = Object.keys((JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts).filter(
  (name) => /^bench(:|$)/.test(name),
);

/** What each bench prints once it has measured: a line of its final table or summary. */
const FIGURES: Record<string, RegExp> = {
  // The merchant's paths, then the price of the gateway's hooks (in the tiny mode, all of them off at once).
  bench: /\| POST \/v2\/limits \| 4 \| \d+ \|[\s\S]*At rest, before any load[\s\S]*\| all of them \| -?[\d.]+ \(-?\d+%\) \|/,
  'bench:transport': /\| kafka \| \d+ \|/,
  'bench:charges': /\| elapsed until N charges \| [\d.]+ s \|/,
  'bench:payouts': /\| through the gateway \| [\d.]+ \| \d+ \|/,
  'bench:webhooks': /5\. 200 events\/s, 10% of endpoints hanging: healthy ones publish → received p50 [\d.]+ ms/,
  'bench:scale': /\| 2 \| \d+ \| [\d.]+ \/ [\d.]+ \|/,
  'bench:reports': /\| production, 20 connections \| \d+ \| [\d.]+ \| [\d.]+ \| /,
  'bench:receipts': /\| PROVIDER_B, the bank simulator alone \(the same receipts\) \| \d+ \|/,
};

describe('every bench, in its tiny mode', () => {
  it('package.json names no bench this suite does not run', () => {
    expect(scripts.sort()).toEqual(Object.keys(FIGURES).sort());
  });

  it.each(Object.keys(FIGURES))(
    'npm run %s',
    async (script) => {
      const { code, output } = await run(`npm run ${script}`, { BENCH_SMOKE: '1', BENCH_SKIP_BUILD: '1' }, 420_000);
      if (code !== 0 || !FIGURES[script].test(output))
        throw new Error(`npm run ${script}: exit ${code}, figures ${FIGURES[script].test(output) ? '' : 'not '}printed\n${output.slice(-4000)}`);
    },
    480_000,
  );
});
