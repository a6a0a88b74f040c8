/** Jest runs the TypeScript sources as ES modules through SWC; `npm test` type-checks first. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  // `.js` off relative imports (the sources import .ts files by their .js names); a `.json.js` module
  // (libphonenumber-js's metadata) is a real file of that name.
  moduleNameMapper: { '^(\\.{1,2}/.*)(?<!\\.json)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
      jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
      module: { type: 'es6' },
    }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/global-setup.js',
  globalTeardown: '<rootDir>/test/global-teardown.js',
  testTimeout: 60000,
  maxWorkers: 2,
  // Each test file loads the service's modules anew, and a worker's heap kept growing over the run
  // (2 GB by its end), making every full collection slow: a worker past this is replaced between files.
  workerIdleMemoryLimit: '1GB',
};
