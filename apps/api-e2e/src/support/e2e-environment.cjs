// The end-to-end suite's Jest environment: one system shared by the files that ask for it, started once.
//
// A file whose docblock carries `@shared-system` runs against the system this environment keeps (sharedSystem() in
// running-system.ts hands it over): starting a whole system takes ~30 s, and most files only send requests. Any other file
// (one that starts a system with settings of its own, or stops apps for good) runs with no shared system up: it is
// stopped before that file, so the two never hold the same ports or PostgreSQL's connections together.
// e2e-sequencer.cjs runs the sharing files first, so the shared system starts once and stops once
// (e2e-teardown.cjs stops it after the last file). Runs in band only: the system lives in this process.
const { TestEnvironment } = require('jest-environment-node');
const { startE2eSystem } = require('./e2e-system.cjs');

/** The shared system, once asked for: a promise, so that a start under way is not started twice. */
let shared;

/** Whether each of the system's processes answers ready; those that do not (a file crashed one and failed before restarting it) are restarted. */
async function restartTheDown(system) {
  const ready = async (url) => (await fetch(url, { signal: AbortSignal.timeout(3000) }).catch(() => undefined))?.status === 200;
  for (const { name, ready: urls } of system.readiness) {
    const answers = await Promise.all(urls.map(ready));
    if (!answers.every(Boolean)) {
      process.stderr.write(`e2e-environment: ${name} is not ready after the previous file: restarting it\n`);
      await system.restart(name);
    }
  }
}

class E2eEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.wantsSharedSystem = 'shared-system' in context.docblockPragmas;
  }

  async setup() {
    await super.setup();
    if (this.wantsSharedSystem) {
      const starting = !shared;
      shared ??= startE2eSystem();
      const system = await shared.catch((error) => {
        shared = undefined;
        throw error;
      });
      if (!starting) await restartTheDown(system);
      this.global.e2eSharedSystem = system;
    } else {
      await E2eEnvironment.stopSharedSystem();
    }
  }

  static async stopSharedSystem() {
    if (!shared) return;
    const stopping = shared;
    shared = undefined;
    const system = await stopping.catch(() => undefined);
    await system?.stop();
  }
}

module.exports = E2eEnvironment;
