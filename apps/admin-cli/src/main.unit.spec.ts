import * as path from 'node:path';
import { Dependencies, run } from './main';
import { USAGE } from './usage';

const ROOT = '/repo';
const deps = (overrides: Partial<Dependencies> & { tokenFile?: string } = {}): Dependencies & { fetch: jest.Mock } =>
  ({
    scriptDir: path.join(ROOT, 'dist/apps/admin-cli/src'),
    fs: {
      exists: (file) => file === path.join(ROOT, 'nx.json'),
      read: (file) => (file === path.join(ROOT, '.data/admin-token') ? overrides.tokenFile : undefined),
    },
    fetch: jest.fn(async () => new Response('{"account_id":"acc_1"}', { status: 200 })),
    ...overrides,
  }) as Dependencies & { fetch: jest.Mock };

describe('run', () => {
  it('prints the usage on help, exit 0, without a token', async () => {
    const d = deps();
    expect(await run(['--help'], {}, d)).toEqual({ exitCode: 0, stdout: USAGE, stderr: '' });
    expect(d.fetch).not.toHaveBeenCalled();
  });

  it('lists every command and the env vars in the usage', () => {
    for (const text of [
      'accounts create',
      'accounts show',
      'accounts update',
      'keys create',
      'keys revoke',
      '--no-wallet',
      '--read-only',
      '--no-transactions',
      'ADMIN_URL',
      'ADMIN_TOKEN',
      '.data/admin-token',
    ]) {
      expect(USAGE).toContain(text);
    }
  });

  it('reports a usage error with the usage, exit 2, before any request', async () => {
    const d = deps();
    const outcome = await run(['keys', 'create', 'acc_1', '--environment', 'staging'], { ADMIN_TOKEN: 't' }, d);
    expect(outcome).toEqual({ exitCode: 2, stdout: '', stderr: `error: --environment must be production or sandbox (got 'staging')\n\n${USAGE}` });
    expect(d.fetch).not.toHaveBeenCalled();
  });

  it('exits 2 explaining how to set the token when there is none', async () => {
    const d = deps();
    const outcome = await run(['accounts', 'show', 'acc_1'], {}, d);
    expect(outcome.exitCode).toBe(2);
    expect(outcome.stderr.split('\n')[0]).toMatch(/^error: no admin token: ADMIN_TOKEN is not set and \/repo\/\.data\/admin-token is missing/);
    expect(d.fetch).not.toHaveBeenCalled();
  });

  it('uses the token file at the repo root when ADMIN_TOKEN is unset', async () => {
    const d = deps({ tokenFile: 'from-file\n' });
    const outcome = await run(['accounts', 'show', 'acc_1'], {}, d);
    expect(outcome).toEqual({ exitCode: 0, stdout: '{\n  "account_id": "acc_1"\n}\n', stderr: '' });
    expect(d.fetch).toHaveBeenCalledWith(
      'http://127.0.0.1:3002/admin/accounts/acc_1',
      expect.objectContaining({ headers: expect.objectContaining({ authorization: 'Bearer from-file' }) }),
    );
  });

  it('uses ADMIN_URL and ADMIN_TOKEN from the environment', async () => {
    const d = deps({ tokenFile: 'from-file' });
    await run(['keys', 'revoke', 'key_1'], { ADMIN_URL: 'http://gw:9000/', ADMIN_TOKEN: 'devtoken' }, d);
    expect(d.fetch).toHaveBeenCalledWith(
      'http://gw:9000/admin/api-keys/key_1',
      expect.objectContaining({ method: 'DELETE', headers: expect.objectContaining({ authorization: 'Bearer devtoken' }) }),
    );
  });
});
