#!/usr/bin/env node
// The operator's command line: runs the compiled CLI when built, else the sources through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/src/cli/index.js', import.meta.url));
if (existsSync(compiled)) {
  await import(compiled);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(fileURLToPath(new URL('../src/cli/index.ts', import.meta.url)));
}
