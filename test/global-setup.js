import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const tsx = (args) => run(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, NODE_OPTIONS: '' }, encoding: 'utf8' });

/**
 * Jest loads this file outside its module mapping, so what every test file shares is made by child
 * processes that run the TypeScript sources through tsx: the migrated template database (its answer
 * names it) and the OpenAPI document every answer is checked against (test/helpers/openapi-check.ts).
 */
export default async function globalSetup() {
  const document = path.join(mkdtempSync(path.join(tmpdir(), 'sp-openapi-')), 'openapi.json');
  const [template] = await Promise.all([tsx(['test/support/make-template.ts']), tsx(['scripts/openapi.ts', document])]);
  Object.assign(process.env, JSON.parse(template.stdout), { SP_OPENAPI_DOCUMENT: document });
}
