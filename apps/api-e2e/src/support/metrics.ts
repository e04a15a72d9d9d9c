import { until } from '@pixauto/testing';
import { WITHIN_SECONDS } from './running-system';

// An app's Prometheus metrics, read from its ops listener (/metrics), and the waits they allow: a periodic task's next
// run is the later thing a test waits for before it checks that the task did nothing.

/** The metrics an ops listener shows (text exposition format). */
export async function metricsOf(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The samples of `name` whose labels include `labels`, each with its value. */
function samples(text: string, name: string, labels: Record<string, string>): number[] {
  const values: number[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1], label[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) values.push(Number(match[3]));
  }
  return values;
}

/** The value of the first sample of `name` whose labels include `labels`; undefined when there is none. */
export const sample = (text: string, name: string, labels: Record<string, string> = {}): number | undefined => samples(text, name, labels)[0];

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
export const total = (text: string, name: string, labels: Record<string, string> = {}): number =>
  samples(text, name, labels).reduce((sum, value) => sum + value, 0);

/** How many runs of a periodic task (PeriodicTask: ChargeScheduler, SandboxSettlement...) an app has finished, whatever their outcome. */
export const runsOf = async (opsPort: number, task: string): Promise<number> =>
  total(await metricsOf(opsPort), 'pixauto_scheduler_run_duration_seconds_count', { task });

/**
 * Until a run of `task` has started and finished after this call (two more finished: the first may have begun before
 * it): whatever was due when it was called, the task has dealt with.
 */
export async function nextRunOf(opsPort: number, task: string): Promise<void> {
  const before = await runsOf(opsPort, task);
  await until(async () => (await runsOf(opsPort, task)) >= before + 2, { ...WITHIN_SECONDS, what: `a whole run of ${task} after now` });
}
