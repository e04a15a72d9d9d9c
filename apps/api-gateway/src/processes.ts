import { ChildProcess, fork } from 'node:child_process';
import type { FastifyListenOptions } from 'fastify';

// The gateway as several processes on the same ports (GATEWAY_PROCESSES): docs/decisions/service-balancing.md.

/** Set by the supervisor in each process it starts: 0, 1, ... (its ops listener is OPS_PORT + this). */
export const PROCESS_INDEX_VARIABLE = 'GATEWAY_PROCESS_INDEX';
/** A process that exited on its own is started again after this: a crash loop costs a line a second, not a CPU. */
const RESTART_DELAY_MS = 1_000;

/**
 * How a listener binds: with `shared`, SO_REUSEPORT (Node's `reusePort`, Linux), so every process of the gateway
 * binds the same port and the kernel spreads new connections over them. Fastify passes the options to Node's listen.
 */
export const listenOptions = (port: number, host: string, shared: boolean): FastifyListenOptions & { reusePort?: boolean } => ({
  port,
  host,
  ...(shared && { reusePort: true }),
});

export interface SupervisorOptions {
  /** The script each process runs (the gateway's main) and its arguments. */
  modulePath: string;
  args?: string[];
  execArgv?: string[];
  env?: NodeJS.ProcessEnv;
  restartDelayMs?: number;
  log: (message: string) => void;
}

export interface Supervisor {
  /** The processes running now. */
  pids(): number[];
  /** SIGTERM to every process (each drains: GracefulShutdown); resolves 0 when all exited 0, else 1. */
  stop(): Promise<number>;
}

/**
 * Starts `count` processes of the gateway and keeps them running: one that exits on its own (a crash) is started
 * again, while the others go on serving. Each process runs the gateway whole, as a pod would; they share the ports
 * and nothing else (Redis and PostgreSQL hold what requests share). A process started here shuts down when its
 * supervisor disappears (its IPC channel closes), so none outlives it.
 */
export function superviseProcesses(count: number, options: SupervisorOptions): Supervisor {
  const children: (ChildProcess | undefined)[] = new Array(count).fill(undefined);
  const restarts = new Set<NodeJS.Timeout>();
  const exitCodes: number[] = [];
  let stopping = false;
  let allExited: () => void = () => undefined;
  let stopped: Promise<number> | undefined;

  const start = (index: number): void => {
    const child = fork(options.modulePath, options.args ?? [], {
      env: { ...(options.env ?? process.env), [PROCESS_INDEX_VARIABLE]: String(index) },
      execArgv: options.execArgv ?? process.execArgv,
      stdio: 'inherit',
    });
    children[index] = child;
    child.once('exit', (code, signal) => {
      children[index] = undefined;
      if (stopping) {
        exitCodes.push(code ?? 1);
        if (children.every((running) => running === undefined)) allExited();
        return;
      }
      const delayMs = options.restartDelayMs ?? RESTART_DELAY_MS;
      options.log(`gateway process ${index} (pid ${child.pid}) exited with ${code ?? signal}: started again in ${delayMs} ms`);
      const timer = setTimeout(() => {
        restarts.delete(timer);
        start(index);
      }, delayMs);
      restarts.add(timer);
    });
  };

  for (let index = 0; index < count; index++) start(index);
  options.log(`${count} gateway processes on the same ports`);

  return {
    pids: () => children.flatMap((child) => (child?.pid === undefined ? [] : [child.pid])),
    stop: () =>
      (stopped ??= (async () => {
        stopping = true;
        for (const timer of restarts) clearTimeout(timer);
        const running = children.filter((child): child is ChildProcess => child !== undefined);
        if (running.length > 0) {
          const exited = new Promise<void>((resolve) => (allExited = resolve));
          for (const child of running) child.kill('SIGTERM');
          await exited;
        }
        return exitCodes.every((code) => code === 0) ? 0 : 1;
      })()),
  };
}

/** In a process the supervisor started: its supervisor gone (the IPC channel closed), it shuts down as on SIGTERM. */
export function followSupervisor(): void {
  process.once('disconnect', () => process.emit('SIGTERM', 'SIGTERM'));
}
