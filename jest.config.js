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
};
