/** Unit and integration tests run from TypeScript sources through swc. */
// Dependencies published as ES modules only, or that load node:http through import() (the OTLP
// exporter: jest's CommonJS sandbox refuses import() without --experimental-vm-modules); swc
// turns them into CommonJS for jest.
const ESM_DEPS = ['content-disposition', '@opentelemetry/otlp-exporter-base'];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  roots: ['<rootDir>/kernel', '<rootDir>/src', '<rootDir>/sandbox', '<rootDir>/test'],
  testRegex: '.*\\.(spec|test|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: { '^.+\\.(ts|js|mjs)$': ['@swc/jest', { swcrc: true }] },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_DEPS.join('|')})/)`],
  testTimeout: 60000,
  maxWorkers: 2,
  // A worker past this heap after a file is replaced by a fresh one: the suite's workers grew to
  // 1.3-1.7 GB of module registries, and marking that heap is time the tests wait for
  // (docs/decisions.md, "Jest workers recycled").
  workerIdleMemoryLimit: '700MB',
};
