// One runner (jest + swc) for three layers, told apart by file suffix:
//   *.spec.ts(x)   unit tests, beside the code
//   *.int-spec.ts  integration tests against real PostgreSQL, Redis, SMTP and S3
//   *.e2e-spec.ts  browser journeys in apps/web-e2e against the started product
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];

const moduleNameMapper = { '^@spark/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts' };

const layer = (displayName, testMatch, extra = {}) => ({
  displayName,
  rootDir: __dirname,
  testMatch,
  transform: { '^.+\\.(t|j)sx?$': swc },
  moduleNameMapper,
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // content-disposition 3 and jose 6 ship only ESM; Node loads them with require(esm), jest needs them compiled.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition|jose)/)'],
  ...extra,
});

module.exports = {
  // A per-project testTimeout is ignored by jest; the slowest layer (e2e) sets its own in its files.
  testTimeout: 60_000,
  // Test files that start the product inside their worker stay reachable there after they end (`--detectLeaks`
  // reports them), so a worker that runs many of them keeps growing: its garbage collections slow down, and at the
  // end tearing down that heap can outlast the time Jest gives a worker to exit, which Jest then reports as a leaked
  // handle. A worker past this limit is replaced between files. docs/operations.md has the measurements.
  workerIdleMemoryLimit: '1GB',
  projects: [
    layer('unit', ['<rootDir>/{apps,libs,scripts,bench}/**/*.spec.{ts,tsx}']),
    layer('integration', ['<rootDir>/{apps,libs}/**/*.int-spec.ts']),
    layer('e2e', ['<rootDir>/apps/web-e2e/**/*.e2e-spec.ts'], {
      globalSetup: '<rootDir>/apps/web-e2e/support/global-setup.ts',
      globalTeardown: '<rootDir>/apps/web-e2e/support/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/apps/web-e2e/support/csp-guard.ts'],
    }),
  ],
};
