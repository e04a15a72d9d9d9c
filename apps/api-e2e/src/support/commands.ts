import { ChildProcess, spawn } from 'node:child_process';
import { LOOPBACK_ONLY } from './running-system';
import * as fs from 'node:fs';
import * as path from 'node:path';

// Runs the commands a user types (npm scripts, the README's shell lines) as child processes in their own process
// group, so that a timeout or the end of a test stops the command and everything it started.

export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

export interface Outcome {
  code: number | null;
  output: string;
}

/** The whole group of a detached child: SIGTERM, then SIGKILL if it is still there after `graceMs`; resolves once it exited. */
export async function stopGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 20_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const kill = (s: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, s);
    } catch {
      // already gone
    }
  };
  kill(signal);
  const timer = setTimeout(() => kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Spawns `bash -c line` at the repository root in a group of its own; stdout and stderr together in `output()`. Every
 * Node process it starts (npm, the scripts, the apps) runs with the loopback-only preload, as the suite's apps do.
 */
export function launch(line: string, env: NodeJS.ProcessEnv = {}): { child: ChildProcess; output: () => string } {
  const child = spawn('bash', ['-c', line], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: LOOPBACK_ONLY, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Runs `line` to its end, at most `timeoutMs` (then its group is stopped and the outcome says so). */
export async function run(line: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<Outcome> {
  const { child, output } = launch(line, env);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(child);
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  clearTimeout(timer);
  return { code, output: timedOut ? `${output()}\n[test] stopped after ${timeoutMs} ms` : output() };
}

/** The JSON object a command printed (npm's own "> pixauto@... admin" lines before it are passed over). */
export function printedJson(output: string): Record<string, unknown> {
  const start = output.indexOf('{');
  if (start < 0) throw new Error(`no JSON in the output:\n${output}`);
  return JSON.parse(output.slice(start, output.lastIndexOf('}') + 1));
}

/** The text of a README section: from its heading line (`## Sandbox quickstart`) to the next heading of its level or above. */
export function readmeSection(heading: string): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const level = /^#+/.exec(heading)![0].length;
  const start = readme.split('\n').findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`README.md has no heading "${heading}"`);
  const lines = readme.split('\n').slice(start + 1);
  let fenced = false; // a shell comment inside a code block is not a heading
  const end = lines.findIndex((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && new RegExp(`^#{1,${level}} `).test(line);
  });
  return lines.slice(0, end < 0 ? undefined : end).join('\n');
}

/** README.md and every Markdown file under docs/ (in path order), as one text: everything the documentation shows a user. */
export function documentedText(): string {
  const files: string[] = [];
  const visit = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(file);
      else if (entry.name.endsWith('.md')) files.push(file);
    }
  };
  visit('docs');
  return ['README.md', ...files.sort()].map((file) => fs.readFileSync(path.join(ROOT, file), 'utf8')).join('\n');
}

/** The `npm run admin -- ...` command lines a text shows, each once. */
export const adminLinesIn = (text: string): string[] => [...new Set([...text.matchAll(/npm run admin -- [a-z][^`#\n]*[^`#\n\s]/g)].map((match) => match[0]))];

/** The ```sh blocks of a text, each as its lines. */
export const shellBlocks = (text: string): string[][] => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1].trimEnd().split('\n'));

/** One command of a README block and what the README says it answers (its `# → ...` comments), if anything. */
export interface Step {
  command: string;
  answer: string;
}

/**
 * A block's commands as a user pastes them: a command's lines joined while a single quote is open (a JSON body over
 * several lines) or a line ends with a backslash; comment lines belong to the command before them (`# → 201 {...}`).
 */
export function stepsOf(block: string[]): Step[] {
  const steps: Step[] = [];
  let current: string[] = [];
  for (const line of block) {
    if (current.length === 0 && line.trim().startsWith('#')) {
      if (steps.length > 0) steps[steps.length - 1].answer += `\n${line}`;
      continue;
    }
    current.push(line);
    const text = current.join('\n');
    const quotes = (text.match(/'/g) ?? []).length;
    if (quotes % 2 === 0 && !line.endsWith('\\')) {
      steps.push({ command: text, answer: / # (→.*)$/.exec(line)?.[1] ?? '' });
      current = [];
    }
  }
  if (current.length > 0) throw new Error(`an unterminated command: ${current.join('\n')}`);
  return steps;
}

/** The `"status": "X"` values an answer comment names: what the command's JSON must show. */
export const statusesIn = (answer: string): string[] => [...answer.matchAll(/"status": "([A-Z_]+)"/g)].map((match) => match[1]);
