// Runs the browser tests with node's test runner. It builds nothing: `npm run build`
// first. With STRATA_E2E_BASE_URL the tests run against that server (SPA and API on
// one port); without it frontend/dist is served by a plain static server and only
// the tests that need no API run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './lib/static-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const env = { ...process.env };
let server = null;

if (!env.STRATA_E2E_BASE_URL) {
  if (!existsSync(join(dist, 'index.html'))) {
    console.error('frontend/dist is missing: run `npm run build` first.');
    process.exit(2);
  }
  server = await startStaticServer(dist);
  env.E2E_STATIC_URL = server.url;
  console.log(`# serving ${dist} at ${server.url} (no API: API-dependent tests are skipped)`);
} else {
  console.log(`# running against ${env.STRATA_E2E_BASE_URL}`);
}

const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort()
  .map((f) => join(here, f));

const child = spawn(process.execPath, ['--test', '--test-concurrency=1', ...files], { stdio: 'inherit', env });
const code = await new Promise((ok) => child.on('exit', (c, sig) => ok(c ?? (sig ? 1 : 0))));
await server?.close();
process.exit(code);
