import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const pdfjsDir = fileURLToPath(new URL('../node_modules/pdfjs-dist/', import.meta.url));

/** pdf.js fetches these on demand: CJK CMaps, the 14 standard fonts, and the JBIG2/JPX decoders of scans. */
function copyPdfjsAssets(): Plugin {
  return {
    name: 'docai-copy-pdfjs-assets',
    apply: 'build',
    writeBundle(options) {
      for (const d of ['cmaps', 'standard_fonts', 'wasm']) cpSync(join(pdfjsDir, d), join(options.dir!, 'pdfjs', d), { recursive: true });
    },
  };
}

// Built into dist/renderer, which the engine's server serves at `/` (browser) and Electron's window loads.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react(), copyPdfjsAssets()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    // slow shared CI machines make the plugin-timing hint fire; it is noise for `--logLevel warn`
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
