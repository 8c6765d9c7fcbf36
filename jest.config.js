/** Unit and integration tests run from TypeScript sources through swc. */
// Dependencies published as ES modules only; swc turns them into CommonJS for jest.
const ESM_DEPS = ['content-disposition'];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testRegex: '.*\\.(spec|test|e2e-spec)\\.ts$',
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  transform: { '^.+\\.(ts|js|mjs)$': ['@swc/jest', { swcrc: true }] },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_DEPS.join('|')})/)`],
  testTimeout: 60000,
  maxWorkers: 2,
};
