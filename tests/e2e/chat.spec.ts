import { expect, test } from '@playwright/test';
import { REPORT_FACTS } from '../fixtures/make-e2e.js';
import { chooseOperation, docScreenshot, dropFile, fixture, openWorkspace } from './workspace.js';

test('a chat answer streams in with a citation that opens the viewer at the cited page', async ({ page }) => {
  await openWorkspace(page);
  // parsed documents are indexed for chat
  await chooseOperation(page, 'parse', 'pro');
  await dropFile(page, fixture('e2e-10k.pdf'), 'application/pdf');
  await expect(page.getByTestId('queue-item').first()).toHaveAttribute('data-status', 'SUCCESS', { timeout: 45_000 });

  await page.getByTestId('nav-chat').click();
  await page.getByTestId('chat-input').fill(`What was total revenue of ${REPORT_FACTS.company} in fiscal ${REPORT_FACTS.fiscalYear}?`);
  await page.getByTestId('chat-input').press('Enter');

  const answer = page.getByTestId('message-assistant').last();
  await expect(answer).toContainText(REPORT_FACTS.revenue2023, { timeout: 45_000 });
  const chip = answer.getByTestId('citation').first();
  await expect(chip).toBeVisible();
  await expect(chip).toHaveAttribute('data-page', '1');
  // the answer's [1] marker links to the same source
  await expect(answer.getByTestId('citation-ref').first()).toHaveText('[1]');
  await docScreenshot(page, 'chat-cited-answer.png');

  // history survives a reload (local storage)
  await page.reload();
  await page.getByTestId('nav-chat').click();
  await expect(page.getByTestId('message-assistant').last()).toContainText(REPORT_FACTS.revenue2023);

  await page.getByTestId('citation').first().click();
  await expect(page.locator('[data-testid="page"].page-highlight')).toHaveAttribute('data-page', '1');
  await expect(page.locator('.doc-name')).toHaveText('e2e-10k.pdf');
  await expect(page.locator('[data-testid="page"] canvas').first()).toBeVisible();
});
