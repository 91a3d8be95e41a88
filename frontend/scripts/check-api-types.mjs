// Fails when src/api/schema.gen.ts is not what `npm run gen:api` writes from the
// committed OpenAPI document (tests/snapshots/openapi.json): regenerates into a
// temporary file and compares. Run `npm run gen:api` to fix.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const frontend = join(dirname(fileURLToPath(import.meta.url)), '..');
const committed = join(frontend, 'src/api/schema.gen.ts');
const dir = mkdtempSync(join(tmpdir(), 'strata-api-types-'));
const fresh = join(dir, 'schema.gen.ts');
try {
  execFileSync(
    join(frontend, 'node_modules/.bin/openapi-typescript'),
    [join(frontend, '../tests/snapshots/openapi.json'), '--output', fresh],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const want = readFileSync(fresh, 'utf8');
  let have = '';
  try {
    have = readFileSync(committed, 'utf8');
  } catch {
    // missing counts as stale
  }
  if (want !== have) {
    console.error('src/api/schema.gen.ts is stale: it does not match tests/snapshots/openapi.json. Run `npm run gen:api` in frontend/.');
    process.exit(1);
  }
  console.log('src/api/schema.gen.ts matches tests/snapshots/openapi.json');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
