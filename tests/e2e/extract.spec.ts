import { expect, test } from '@playwright/test';
import { LICENCE_FACTS } from '../fixtures/make-e2e.js';
import { chooseOperation, docScreenshot, dropFile, fixture, openWorkspace } from './workspace.js';

test('a business licence is extracted into the licence form, each value linked to its box', async ({ page }) => {
  await openWorkspace(page);
  await chooseOperation(page, 'extract', 'bl-extract');
  await dropFile(page, fixture('e2e-licence.pdf'), 'application/pdf');

  const form = page.getByTestId('template');
  await expect(form).toHaveAttribute('data-kind', 'licence', { timeout: 45_000 });
  await expect(form.locator('[data-name="统一社会信用代码"]')).toContainText(LICENCE_FACTS.统一社会信用代码);
  await expect(form.locator('[data-name="名称"]')).toContainText(LICENCE_FACTS.名称);
  await expect(form.locator('[data-name="法定代表人"]')).toContainText(LICENCE_FACTS.法定代表人);

  // values are linked to boxes found in the PDF's text layer (in the page); clicking one selects its box
  await expect(page.locator('[data-testid="bbox"][data-type="统一社会信用代码"]')).toHaveCount(1, { timeout: 30_000 });
  await form.locator('[data-name="名称"] [data-testid="field-value"]').click();
  await expect(page.locator('[data-testid="bbox"][data-type="名称"].bbox-selected')).toBeVisible();
  await docScreenshot(page, 'extract-licence.png');
});

test('a request the API refuses shows its error code in the queue', async ({ page }) => {
  await openWorkspace(page);
  // flash extraction needs a schema; none is given
  await chooseOperation(page, 'extract', 'docai-extract-flash');
  await page.getByTestId('schema-fields').fill('');
  await page.getByTestId('file-input').setInputFiles(fixture('e2e-licence.pdf'));
  await expect(page.getByTestId('queue-item').first()).toHaveAttribute('data-status', 'FAILED');
  await expect(page.getByTestId('queue-item').first()).toContainText('INVALID_PARAMETER');
  await expect(page.getByTestId('error').first()).toContainText('A parameter was not accepted.');
});
