// A Jest reporter that keeps a finished run from hanging: once every test has run, Jest should exit within seconds.
// If something a test started is still open (a socket, a server, a child process, a timer), Jest would wait for ever;
// past EXIT_GRACE_MS this names what is still open and exits 1, so a leak fails the run instead of stalling it.
// Its timer is unref'd: a run that exits on its own never sees it.

const EXIT_GRACE_MS = Number(process.env.JEST_EXIT_GRACE_MS ?? 30_000);

/** One line per handle that keeps the process alive, as precise as Node tells (process._getActiveHandles). */
function describeHandles() {
  const handles = typeof process._getActiveHandles === 'function' ? process._getActiveHandles() : [];
  const described = handles
    .filter((handle) => handle !== process.stdout && handle !== process.stderr && handle !== process.stdin)
    .map((handle) => {
      const name = handle?.constructor?.name ?? typeof handle;
      if (name === 'ChildProcess') return `child process ${handle.pid}: ${(handle.spawnargs ?? []).join(' ').slice(0, 200)}`;
      if (name === 'Server') return `server listening on ${JSON.stringify(handle.address?.())}`;
      if (name === 'Socket' || name === 'TLSSocket')
        return `socket ${handle.localAddress ?? ''}:${handle.localPort ?? ''} → ${handle.remoteAddress ?? '?'}:${handle.remotePort ?? '?'}`;
      return name;
    });
  const resources = typeof process.getActiveResourcesInfo === 'function' ? process.getActiveResourcesInfo() : [];
  return { described, resources };
}

class ExitGuard {
  onRunComplete() {
    setTimeout(() => {
      const { described, resources } = describeHandles();
      process.stderr.write(
        `\njest-exit-guard: the tests finished ${EXIT_GRACE_MS} ms ago but Jest has not exited: something a test started is still open.\n` +
          `  handles: ${described.length ? described.map((line) => `\n    - ${line}`).join('') : '(none reported)'}\n` +
          `  active resources: ${resources.join(', ') || '(none reported)'}\n` +
          '  Stop what a test starts in a finally or an afterAll/afterEach. Exiting 1.\n',
      );
      process.exit(1);
    }, EXIT_GRACE_MS).unref();
  }
}

module.exports = ExitGuard;
