import { expect, test } from '@playwright/test';
import { baseUrl, docScreenshot, openWorkspace } from './workspace.js';

test('without a key the workspace asks for one and refuses a wrong one', async ({ page }) => {
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByTestId('key-prompt')).toBeVisible();
  await page.getByTestId('key-input').fill('not-a-key');
  await page.getByTestId('key-input').press('Enter');
  await expect(page.getByTestId('key-prompt')).toContainText('refused');
  await page.getByTestId('key-input').fill(process.env.DOCAI_E2E_KEY!);
  await page.getByTestId('key-input').press('Enter');
  await expect(page.getByTestId('workspace')).toBeVisible();
});

test('settings: a key is created, shown once and revoked; theme and language switch', async ({ page }) => {
  await openWorkspace(page);
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('balance')).toHaveText('unlimited');
  await page.getByPlaceholder('Name').fill('analyst-laptop');
  await page.getByPlaceholder(/Balance/).fill('250');
  await page.getByRole('button', { name: 'Create key' }).click();
  const raw = (await page.getByTestId('new-key').textContent())!;
  expect(raw.length).toBeGreaterThan(16);
  const row = page.locator('tr', { hasText: 'analyst-laptop' });
  await expect(row).toContainText('250');

  // the new key works against the API, then stops working once revoked
  const ok = await page.request.get(`${baseUrl()}/v1/usage`, { headers: { 'api-key': raw } });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).data.balance).toBe(250);
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toHaveClass(/revoked/);
  const refused = await page.request.get(`${baseUrl()}/v1/usage`, { headers: { 'api-key': raw } });
  expect(refused.status()).toBe(401);

  await page.getByTestId('theme-dark').click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('lang-zh').click();
  await expect(page.getByTestId('nav-settings')).toHaveText('设置');
  await page.locator('.settings').evaluate((e) => e.scrollTo(0, 0));
  await docScreenshot(page, 'settings-dark-zh.png');
});
