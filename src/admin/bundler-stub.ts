import { register } from 'node:module';

/**
 * AdminJS imports its component bundler (rollup, its plugins, babel's presets) when it loads, even
 * with bundling skipped: about 18 MB of heap that a server keeps for its lifetime and never runs,
 * since the console's components are served ready-made (components/). These module hooks answer
 * those imports with a stand-in whose functions do nothing. They apply to the imports that follow,
 * made through Node's own loader (not the test runner's), and run in a thread of their own.
 */
const hooks = `
const bundler = /^(rollup|@rollup\\/plugin-[a-z-]+|rollup-plugin-esbuild-minify|@babel\\/preset-[a-z]+|ora)$/;
export async function resolve(specifier, context, next) {
  return bundler.test(specifier) ? { url: 'school-platform-stub:' + specifier, shortCircuit: true } : next(specifier, context);
}
export async function load(url, context, next) {
  if (!url.startsWith('school-platform-stub:')) return next(url, context);
  const source = 'const off = () => ({ name: "bundling-off" });' +
    'export default off; export const rollup = off, watch = off, nodeResolve = off, babel = off, minify = off;';
  return { format: 'module', source, shortCircuit: true };
}
`;

let registered = false;

export function stubAdminBundler(): void {
  if (registered) return;
  registered = true;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`);
}
