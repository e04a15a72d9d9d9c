import * as fs from 'node:fs';
import * as path from 'node:path';
import { Fetch, Outcome, send } from './client';
import { parseCommand, UsageError } from './commands';
import { FileSystem, findRepoRoot, resolveAdminUrl, resolveToken, TOKEN_FILE } from './config';
import { USAGE } from './usage';

export interface Dependencies {
  fetch: Fetch;
  fs: FileSystem;
  /** The directory of this script, from which the repository root (and .data/admin-token) is found. */
  scriptDir: string;
}

/** The whole command line, without touching the process: `npm run admin -- <argv>`. */
export async function run(argv: readonly string[], env: NodeJS.ProcessEnv, deps: Dependencies): Promise<Outcome> {
  try {
    const command = parseCommand(argv);
    if (command.kind === 'help') return { exitCode: 0, stdout: USAGE, stderr: '' };
    const baseUrl = resolveAdminUrl(env);
    const token = resolveToken(env, path.join(findRepoRoot(deps.scriptDir, deps.fs), TOKEN_FILE), deps.fs);
    return await send(command.request, { baseUrl, token, fetch: deps.fetch });
  } catch (error) {
    if (error instanceof UsageError) return { exitCode: 2, stdout: '', stderr: `error: ${error.message}\n\n${USAGE}` };
    throw error;
  }
}

const nodeFs: FileSystem = {
  exists: (file) => fs.existsSync(file),
  read: (file) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  },
};

if (require.main === module) {
  run(process.argv.slice(2), process.env, { fetch: (url, init) => fetch(url, init), fs: nodeFs, scriptDir: __dirname }).then(
    (outcome) => {
      process.stdout.write(outcome.stdout);
      process.stderr.write(outcome.stderr);
      process.exitCode = outcome.exitCode;
    },
    (error: unknown) => {
      process.stderr.write(`admin-cli: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
