// npm test: system packages checked first, then build, unit + API tests (vitest), browser tests (Playwright),
// and one closing line `tests: N passed, N failed` over both runners.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

const summaryDir = '.test-summary';
rmSync(summaryDir, { recursive: true, force: true });
mkdirSync(summaryDir, { recursive: true });

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function counts() {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const vitest = `${summaryDir}/vitest.json`;
  if (existsSync(vitest)) {
    const v = JSON.parse(readFileSync(vitest, 'utf8'));
    passed += v.numPassedTests ?? 0;
    failed += v.numFailedTests ?? 0;
    skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  }
  const e2e = `${summaryDir}/e2e.json`;
  if (existsSync(e2e)) {
    const s = JSON.parse(readFileSync(e2e, 'utf8')).stats ?? {};
    passed += (s.expected ?? 0) + (s.flaky ?? 0);
    failed += s.unexpected ?? 0;
    skipped += s.skipped ?? 0;
  }
  return { passed, failed, skipped };
}

let status = run(process.execPath, ['scripts/check-system.mjs']);
if (status === 0) status = run('npm', ['run', 'build', '--silent']);
if (status === 0) {
  const unit = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${summaryDir}/vitest.json`]);
  const e2e = run('npx', ['playwright', 'test']);
  status = unit || e2e;
  const c = counts();
  console.log(`tests: ${c.passed} passed, ${c.failed} failed${c.skipped ? `, ${c.skipped} skipped` : ''}`);
  if (c.passed === 0 && status === 0) status = 1; // a run that executed nothing is not a pass
}
process.exit(status);
