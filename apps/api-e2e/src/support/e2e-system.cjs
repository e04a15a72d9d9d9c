// How the end-to-end suite starts a system: the same launcher as `npm start` (deploy/scripts/system.cjs), on the e2e
// profile's ports and databases, every app with the loopback-only preload. Plain CommonJS: the suite's Jest
// environment (outside the tests' sandbox) and the tests (support/running-system.ts) both start systems through it.
const path = require('node:path');
const launcher = require('../../../../deploy/scripts/system.cjs');

const ADMIN_TOKEN = 'e2e-admin-token';

/** Every app runs with the loopback-only preload (loopback-only.cjs): nothing a test starts reaches beyond loopback. */
const LOOPBACK_ONLY = `--require ${path.join(__dirname, 'loopback-only.cjs')}`;

/**
 * E2E_PROFILE picks another profile of system.cjs, to run beside a suite already using the e2e one; E2E_REPLICAS runs
 * that many of every app but the bank simulator, as `npm start -- --replicas N`. `appEnv` adds to an app's environment
 * (a test's preload), not to its settings.
 */
const startE2eSystem = ({ appEnv = {} } = {}) =>
  launcher.startSystem({
    profile: process.env.E2E_PROFILE ?? 'e2e',
    adminToken: ADMIN_TOKEN,
    everyAppEnv: { NODE_OPTIONS: LOOPBACK_ONLY },
    appEnv,
    replicas: Number(process.env.E2E_REPLICAS ?? 1),
  });

module.exports = { ADMIN_TOKEN, LOOPBACK_ONLY, startE2eSystem };
