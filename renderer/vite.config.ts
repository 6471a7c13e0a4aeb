import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into dist/renderer, which the engine's server serves at `/` (browser) and Electron's window loads.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
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
