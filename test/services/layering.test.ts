import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The arrows point one way: the REST API, the console and the command line use the services; a service imports none of them. */
const servicesDir = fileURLToPath(new URL('../../src/services', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

describe('layering', () => {
  it('keeps src/services free of imports from src/api, src/admin and src/cli', () => {
    const files = sources(servicesDir);
    expect(files.length).toBeGreaterThan(20);
    const upward = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)]
        .map((m) => path.resolve(path.dirname(file), m[1]!))
        .filter((target) => ['api', 'admin', 'cli'].some((door) => target.startsWith(path.join(servicesDir, '..', door) + path.sep)))
        .map((target) => `${path.relative(servicesDir, file)} -> ${path.relative(path.join(servicesDir, '..'), target)}`),
    );
    expect(upward).toEqual([]);
  });
});
