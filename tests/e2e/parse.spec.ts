import { expect, test } from '@playwright/test';
import { chooseOperation, docScreenshot, dropFile, fixture, openWorkspace } from './workspace.js';

test('a dropped PDF is parsed and its boxes drawn over the page', async ({ page }) => {
  await openWorkspace(page);
  // the key was taken from the fragment once and removed from the address bar
  expect(page.url()).not.toContain('key=');
  expect(await page.evaluate(() => localStorage.getItem('docai.apiKey'))).toBe(process.env.DOCAI_E2E_KEY);

  await chooseOperation(page, 'parse', 'pro');
  await dropFile(page, fixture('e2e-10k.pdf'), 'application/pdf');

  await expect(page.getByTestId('queue-item').first()).toHaveAttribute('data-status', 'SUCCESS', { timeout: 45_000 });
  await expect(page.getByTestId('progress').first()).toHaveText(/^\d+\.\d s$/);
  const title = page.locator('[data-testid="bbox"][data-type="Title"]').first();
  await expect(title).toBeVisible();
  await expect(page.locator('[data-testid="bbox"][data-type="Table"]').first()).toBeVisible();
  await expect(page.getByTestId('page')).toHaveCount(2);

  // the title box sits in the top part of page 1, in the page's own coordinates
  const pageBox = (await page.getByTestId('page').first().boundingBox())!;
  const titleBox = (await title.boundingBox())!;
  expect(titleBox.y - pageBox.y).toBeLessThan(pageBox.height * 0.2);
  expect(titleBox.x).toBeGreaterThan(pageBox.x);

  await title.hover();
  await expect(page.locator('.bbox-tip')).toContainText('Northwind Instruments, Inc.');
  await title.click();
  await expect(page.getByTestId('inspector')).toContainText('"type": "Title"');
  await expect(page.getByTestId('inspector')).toContainText('Northwind Instruments, Inc.');
  await docScreenshot(page, 'viewer-parsed-10k.png');

  await page.getByTestId('markdown-toggle').check();
  await expect(page.locator('.markdown h2').first()).toHaveText('Northwind Instruments, Inc.');
  await expect(page.locator('.markdown table').first()).toContainText('4,812.6');
});

test('a damaged file fails in words with its error code', async ({ page }) => {
  await openWorkspace(page);
  await chooseOperation(page, 'parse', 'lite');
  await page.getByTestId('file-input').setInputFiles({ name: 'broken.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.7\nthis is not a pdf body') });
  const item = page.getByTestId('queue-item').first();
  await expect(item).toHaveAttribute('data-status', /ERROR|FAILED/, { timeout: 30_000 });
  await expect(page.getByTestId('error').first()).toContainText('INVALID_DOCUMENT');
});
