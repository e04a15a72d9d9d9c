#!/usr/bin/env node
// Drains apps on SIGTERM under load, many times in a row: shutdown.e2e.spec.ts with every round of every app, on a
// system of the e2e profile (the apps built under dist/, infrastructure up). Not part of npm test: a rare hang in a
// drain shows only over many rounds.
//
//   node deploy/scripts/drain-loop.mjs [rounds=20] [apps=all]     e.g. node deploy/scripts/drain-loop.mjs 20 api-gateway
//
// Prints one line per round and app, and exits 1 unless every round passed.
import { spawnSync } from 'node:child_process';
import { ROOT } from './system.cjs';

const [rounds = '20', apps = 'all'] = process.argv.slice(2);
const run = spawnSync('npx', ['jest', '-c', 'apps/api-e2e/jest.config.js', '--runInBand', '--verbose', 'apps/api-e2e/src/shutdown.e2e.spec.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, SHUTDOWN_ROUNDS: rounds, SHUTDOWN_APPS: apps },
});
process.exit(run.status ?? 1);
