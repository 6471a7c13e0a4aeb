#!/usr/bin/env node
// The CLI runs the compiled engine (npm start / npm test build it first).
import('../dist/engine/cli.js').catch((err) => {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND') {
    console.error('docai: the engine is not built yet; run `npm run build` first.');
    process.exit(1);
  }
  throw err;
});
