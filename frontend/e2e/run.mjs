// Runs the browser tests with node's test runner. It builds nothing: `npm run build`
// first. frontend/dist is always served by a plain static server with no back end
// (static.test.mjs: what the SPA does while the API is down). With STRATA_E2E_BASE_URL
// the API flows (api.test.mjs) run against that real server (SPA and API on one port);
// without it they are skipped.
//
//   npm run e2e                 every file
//   npm run e2e -- static       only files whose name contains "static"
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startStaticServer } from './lib/static-server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, '..', 'dist');
const env = { ...process.env };

if (!existsSync(join(dist, 'index.html'))) {
  console.error('frontend/dist is missing: run `npm run build` first.');
  process.exit(2);
}
const server = await startStaticServer(dist);
env.E2E_STATIC_URL = server.url;
console.log(`# static SPA (no API) at ${server.url}`);
console.log(
  env.STRATA_E2E_BASE_URL
    ? `# real server at ${env.STRATA_E2E_BASE_URL}`
    : '# no STRATA_E2E_BASE_URL: the tests that need the real server are skipped',
);

const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.test.mjs'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort()
  .map((f) => join(here, f));

// One file at a time: the API file's tests share one server and run in order.
const child = spawn(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=tap', ...files], {
  stdio: 'inherit',
  env,
});
const stop = (sig) => child.kill(sig);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
const code = await new Promise((ok) => child.on('exit', (c, sig) => ok(c ?? (sig ? 1 : 0))));
await server.close();
process.exit(code);
