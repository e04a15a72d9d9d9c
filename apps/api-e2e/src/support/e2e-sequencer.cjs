// The files that share one system (`@shared-system` in their docblock, e2e-environment.cjs) run first, then each of the
// others: the shared system starts once and stops once. Within each group Jest's own order (failed first, then slowest).
const fs = require('node:fs');
const { extract, parse } = require('jest-docblock');
const Sequencer = require('@jest/test-sequencer').default;

const sharesTheSystem = (test) => 'shared-system' in parse(extract(fs.readFileSync(test.path, 'utf8')));

class E2eSequencer extends Sequencer {
  sort(tests) {
    const ordered = super.sort(tests);
    const sharing = new Set(ordered.filter(sharesTheSystem));
    return [...sharing, ...ordered.filter((test) => !sharing.has(test))];
  }
}

module.exports = E2eSequencer;
