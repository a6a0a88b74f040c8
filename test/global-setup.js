import { execFileSync } from 'node:child_process';

/**
 * Jest loads this file outside its module mapping, so the template is made by a child process
 * that runs the TypeScript sources through tsx; its answer names the template for the workers.
 */
export default function globalSetup() {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'test/support/make-template.ts'], {
    env: { ...process.env, NODE_OPTIONS: '' },
    encoding: 'utf8',
  });
  Object.assign(process.env, JSON.parse(out));
}
