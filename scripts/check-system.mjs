// npm test needs a few Debian packages (browser tests, CJK fonts for fixtures, LibreOffice for legacy Office files).
// Fail fast, naming the exact command, instead of failing deep inside a test.
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const missing = [];
if (!existsSync('/usr/bin/chromium')) missing.push('chromium');
const cjkFont = ['/usr/share/fonts/opentype/noto', '/usr/share/fonts/truetype/noto'].some(
  (d) => existsSync(d) && readdirSync(d).some((f) => /CJK/i.test(f)),
);
if (!cjkFont) missing.push('fonts-noto-cjk');
let soffice = false;
try {
  execFileSync('sh', ['-c', 'command -v soffice'], { stdio: 'ignore' });
  soffice = true;
} catch {
  soffice = false;
}
if (!soffice) missing.push('libreoffice-nogui');
if (!existsSync('/usr/bin/pdftoppm')) missing.push('poppler-utils');
// Test fixtures convert images with ImageMagick (some machines carry a `convert` stand-in that is not it).
let magick = false;
try {
  magick = /ImageMagick/.test(execFileSync('convert', ['-version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
} catch {
  magick = false;
}
if (!magick) missing.push('imagemagick');

if (missing.length > 0) {
  console.error(`npm test needs system packages that are not installed: ${missing.join(', ')}`);
  console.error(`Install them with:\n\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}\n`);
  process.exit(1);
}
