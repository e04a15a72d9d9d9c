import path from 'node:path';
import { defineConfig } from '@playwright/test';

// The merchant console in a real browser: Debian's chromium (installed by the global setup when missing, never
// downloaded by Playwright), against the whole system started as `npm start` runs it, on the e2e profile's ports.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '..', '..');

export default defineConfig({
  testDir: path.join(__dirname, 'src'),
  testMatch: '**/*.e2e.spec.ts',
  globalSetup: path.join(__dirname, 'src', 'support', 'global-setup.ts'),
  outputDir: path.join(ROOT, '.data', 'console-e2e', 'output'),
  // One browser at a time: the machine runs the whole system beside it.
  workers: 1,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: path.join(ROOT, '.data', 'test-results', 'console-e2e.playwright.json') }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 860 },
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      // The flags docs/testing.md names: no GPU, no sandbox (root in a container), and none of Chromium's calls home.
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
  },
});
