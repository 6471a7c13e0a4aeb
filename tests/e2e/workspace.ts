import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';

export const baseUrl = () => process.env.DOCAI_E2E_URL!;
export const apiKey = () => process.env.DOCAI_E2E_KEY!;
export const fixture = (name: string) => join(process.env.DOCAI_E2E_FIXTURES!, name);

/** Open the workspace with the key in the fragment, as `docai serve` prints it. */
export async function openWorkspace(page: Page): Promise<void> {
  page.on('pageerror', (err) => console.error(`page error: ${err.stack ?? err.message}`));
  await page.goto(`${baseUrl()}/#key=${apiKey()}`);
  await expect(page.getByTestId('workspace')).toBeVisible();
}

export async function chooseOperation(page: Page, op: 'parse' | 'extract' | 'mask', mode: string): Promise<void> {
  await page.getByTestId('nav-library').click();
  await page.getByTestId(`op-${op}`).click();
  await page.getByTestId('mode').selectOption(mode);
}

/** Drop a file on the drop zone the way a user's drag does: a DataTransfer carrying the file. */
export async function dropFile(page: Page, path: string, mime: string): Promise<void> {
  const b64 = readFileSync(path).toString('base64');
  const name = path.split('/').pop()!;
  const dt = await page.evaluateHandle(
    ({ b64, name, mime }) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: mime }));
      return data;
    },
    { b64, name, mime },
  );
  const zone = page.getByTestId('dropzone');
  await zone.dispatchEvent('dragenter', { dataTransfer: dt });
  await zone.dispatchEvent('dragover', { dataTransfer: dt });
  await zone.dispatchEvent('drop', { dataTransfer: dt });
}

/** Screenshots for docs/ are written only when asked (DOCAI_SCREENSHOTS=1), so test runs leave the tree alone. */
export async function docScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.DOCAI_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: join(process.cwd(), 'docs', name) });
}
