import * as path from 'node:path';
import { UsageError } from './commands';
import { DEFAULT_ADMIN_URL } from './usage';

/** Where `npm start` leaves the admin token, relative to the repository root. */
export const TOKEN_FILE = path.join('.data', 'admin-token');

export interface FileSystem {
  exists(file: string): boolean;
  /** The file's text, or undefined when it cannot be read. */
  read(file: string): string | undefined;
}

/**
 * The repository root seen from the script's directory: the nearest ancestor holding nx.json.
 * From the build (dist/apps/admin-cli/src) that is four levels up; from the sources (apps/admin-cli/src), three.
 */
export function findRepoRoot(scriptDir: string, fs: Pick<FileSystem, 'exists'>): string {
  for (let dir = path.resolve(scriptDir); ; dir = path.dirname(dir)) {
    if (fs.exists(path.join(dir, 'nx.json'))) return dir;
    if (path.dirname(dir) === dir) break;
  }
  const parts = path.resolve(scriptDir).split(path.sep);
  const levels = parts.slice(-4).join('/') === 'dist/apps/admin-cli/src' ? 4 : 3;
  return path.resolve(scriptDir, ...Array<string>(levels).fill('..'));
}

/** ADMIN_TOKEN from the environment, else the token file `npm start` writes; UsageError when neither. */
export function resolveToken(env: NodeJS.ProcessEnv, tokenFile: string, fs: Pick<FileSystem, 'read'>): string {
  const fromEnv = env.ADMIN_TOKEN?.trim();
  if (fromEnv) return fromEnv;
  const fromFile = fs.read(tokenFile)?.trim();
  if (fromFile) return fromFile;
  throw new UsageError(
    `no admin token: ADMIN_TOKEN is not set and ${tokenFile} is missing or empty. ` +
      'Export ADMIN_TOKEN (the value the gateway was started with), or run `npm start`, which writes that file.',
  );
}

/** ADMIN_URL (default http://127.0.0.1:3002), without a trailing slash; UsageError when it is not an http(s) URL. */
export function resolveAdminUrl(env: NodeJS.ProcessEnv): string {
  const raw = env.ADMIN_URL?.trim() || DEFAULT_ADMIN_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`ADMIN_URL is not a URL: '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`ADMIN_URL must be http:// or https:// (got '${raw}')`);
  return raw.replace(/\/+$/, '');
}
