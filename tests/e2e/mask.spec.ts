import { expect, test } from '@playwright/test';
import { chooseOperation, docScreenshot, dropFile, fixture, openWorkspace } from './workspace.js';

test('a medical record is masked and shown beside the original, regions listed by category', async ({ page }) => {
  await openWorkspace(page);
  await chooseOperation(page, 'mask', 'emr-mask');
  await dropFile(page, fixture('e2e-record.pdf'), 'application/pdf');

  await expect(page.getByTestId('queue-item').first()).toHaveAttribute('data-status', 'SUCCESS', { timeout: 45_000 });
  await expect(page.getByTestId('mask-original').getByTestId('page')).toHaveCount(1);
  await expect(page.getByTestId('mask-masked').getByTestId('page')).toHaveCount(1);
  await expect(page.getByTestId('mask-regions')).toContainText('患者姓名');
  await expect(page.locator('[data-testid="mask-masked"] [data-testid="bbox"][data-type="患者姓名"]')).toHaveCount(1);
  const download = page.getByTestId('mask-download');
  await expect(download).toHaveAttribute('href', /\/files\/.*masked_0\.pdf\?/);

  // the masked copy really differs from the original where the name was
  const [orig, masked] = await Promise.all(
    ['mask-original', 'mask-masked'].map((id) =>
      page.getByTestId(id).locator('canvas').first().evaluate(async (c: HTMLCanvasElement) => {
        for (let i = 0; i < 50 && c.width < 10; i++) await new Promise((r) => setTimeout(r, 100));
        return c.toDataURL();
      }),
    ),
  );
  expect(orig).not.toBe(masked);
  await docScreenshot(page, 'mask-record.png');

  await page.getByRole('button', { name: /Toggle/ }).click();
  await expect(page.getByTestId('mask-masked')).toBeVisible();
  await page.getByTestId('mask-flip').click();
  await expect(page.getByTestId('mask-original')).toBeVisible();
});
