import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests drive the real workspace served by `docai serve` (tests/e2e/global-setup.ts starts it on a
 * free port with a temporary DOCAI_HOME and DOCAI_API_KEY, after `npm run build`). Debian's Chromium, no download.
 */
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json', { outputFile: '.test-summary/e2e.json' }]],
  outputDir: 'test-results',
  use: {
    viewport: { width: 1440, height: 900 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        '--disable-quic',
      ],
    },
  },
});
