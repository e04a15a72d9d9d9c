import * as fs from 'node:fs';
import * as path from 'node:path';
import { UsageError } from './commands';
import { findRepoRoot, resolveAdminUrl, resolveToken, TOKEN_FILE } from './config';

const files = (...existing: string[]) => ({ exists: (file: string) => existing.includes(file) });

describe('findRepoRoot', () => {
  it('is four levels up from the build (dist/apps/admin-cli/src)', () => {
    expect(findRepoRoot('/repo/dist/apps/admin-cli/src', files('/repo/nx.json'))).toBe('/repo');
  });
  it('is three levels up from the sources (apps/admin-cli/src)', () => {
    expect(findRepoRoot('/repo/apps/admin-cli/src', files('/repo/nx.json'))).toBe('/repo');
  });
  it('falls back on the layout when no nx.json is found', () => {
    expect(findRepoRoot('/copy/dist/apps/admin-cli/src', files())).toBe('/copy');
    expect(findRepoRoot('/copy/apps/admin-cli/src', files())).toBe('/copy');
  });
  it('finds this repository from this directory', () => {
    const root = findRepoRoot(__dirname, { exists: (file) => fs.existsSync(file) });
    expect(root).toBe(path.resolve(__dirname, '../../..'));
    expect(path.join(root, TOKEN_FILE)).toBe(path.resolve(__dirname, '../../../.data/admin-token'));
  });
});

describe('resolveToken', () => {
  const fileWith = (text: string | undefined) => ({ read: jest.fn((_file: string): string | undefined => text) });

  it('prefers ADMIN_TOKEN, without reading the file', () => {
    const file = fileWith('from-file');
    expect(resolveToken({ ADMIN_TOKEN: ' devtoken\n' }, '/repo/.data/admin-token', file)).toBe('devtoken');
    expect(file.read).not.toHaveBeenCalled();
  });
  it('reads the token file when ADMIN_TOKEN is unset or blank', () => {
    expect(resolveToken({}, '/repo/.data/admin-token', fileWith('abc123\n'))).toBe('abc123');
    expect(resolveToken({ ADMIN_TOKEN: '' }, '/repo/.data/admin-token', fileWith('abc123'))).toBe('abc123');
  });
  it('explains how to set it when there is neither', () => {
    for (const file of [fileWith(undefined), fileWith('  \n')]) {
      expect(() => resolveToken({}, '/repo/.data/admin-token', file)).toThrow(UsageError);
      expect(() => resolveToken({}, '/repo/.data/admin-token', file)).toThrow(
        /ADMIN_TOKEN is not set and \/repo\/\.data\/admin-token is missing or empty.*Export ADMIN_TOKEN.*npm start/,
      );
    }
  });
});

describe('resolveAdminUrl', () => {
  it('defaults to the local admin listener', () => {
    expect(resolveAdminUrl({})).toBe('http://127.0.0.1:3002');
    expect(resolveAdminUrl({ ADMIN_URL: '' })).toBe('http://127.0.0.1:3002');
  });
  it('drops trailing slashes', () => {
    expect(resolveAdminUrl({ ADMIN_URL: 'https://admin.example.com/gw//' })).toBe('https://admin.example.com/gw');
  });
  it('refuses what is not an http(s) URL', () => {
    expect(() => resolveAdminUrl({ ADMIN_URL: 'localhost:3002' })).toThrow("ADMIN_URL must be http:// or https:// (got 'localhost:3002')");
    expect(() => resolveAdminUrl({ ADMIN_URL: '127.0.0.1:3002' })).toThrow("ADMIN_URL is not a URL: '127.0.0.1:3002'");
    expect(() => resolveAdminUrl({ ADMIN_URL: 'not a url' })).toThrow("ADMIN_URL is not a URL: 'not a url'");
  });
});
