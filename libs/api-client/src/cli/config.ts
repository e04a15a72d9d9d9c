import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

// What `pixauto login` keeps: the sandbox key and the sandbox's address, readable by the user alone (mode 600).

export interface CliConfig {
  api_key: string;
  base_url: string;
  /** The secret `pixauto listen` signs forwarded events with: made at the first listen, then kept. */
  listen_secret?: string;
}

/** The login in effect; from the environment, it is not saved over the file's. */
export type LoadedConfig = CliConfig & { fromEnvironment: boolean };

export const DEFAULT_BASE_URL = 'http://127.0.0.1:3001';

/** $PIXAUTO_CONFIG, else $XDG_CONFIG_HOME/pixauto/config.json, else ~/.config/pixauto/config.json. */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.PIXAUTO_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'pixauto', 'config.json');
}

export function saveConfig(config: CliConfig, path = configPath()): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600); // a file that was already there keeps its mode otherwise
}

/** The saved login, with $PIXAUTO_API_KEY and $PIXAUTO_BASE_URL taking precedence (for CI). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, path = configPath(env)): LoadedConfig | undefined {
  let saved: Partial<CliConfig> = {};
  try {
    saved = JSON.parse(readFileSync(path, 'utf8')) as Partial<CliConfig>;
  } catch {
    // not logged in
  }
  const api_key = env.PIXAUTO_API_KEY ?? saved.api_key;
  if (!api_key) return undefined;
  return {
    api_key,
    base_url: env.PIXAUTO_BASE_URL ?? saved.base_url ?? DEFAULT_BASE_URL,
    listen_secret: saved.listen_secret,
    fromEnvironment: env.PIXAUTO_API_KEY !== undefined,
  };
}
