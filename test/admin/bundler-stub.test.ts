import { describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

// Node's own loader, in a child process: the test runner loads modules its own way, past the hooks.
const probe = `
const { stubAdminBundler } = await import('./src/admin/bundler-stub.ts');
stubAdminBundler();
const { rollup } = await import('rollup');
const babel = await import('@babel/preset-react');
const { default: AdminJS } = await import('adminjs');
const express = await import('@adminjs/express');
console.log(JSON.stringify({ rollup: rollup().name, babel: babel.default().name, adminjs: typeof AdminJS, router: typeof express.default.buildAuthenticatedRouter }));
`;

describe('the admin console without its bundler', () => {
  it('answers the bundler imports with a stand-in and still loads AdminJS', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], { env: { ...process.env, NODE_OPTIONS: '', ADMIN_JS_SKIP_BUNDLE: 'true' } });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)).toEqual({ rollup: 'bundling-off', babel: 'bundling-off', adminjs: 'function', router: 'function' });
  }, 60_000);
});
