/**
 * Jest config of @service/react-native-card (independent of the root config,
 * whose roots are only src/ and test/ of the service).
 *
 * `react-native-webview` is native code outside this package: it is replaced
 * by a test double that records its props. The component imports only types
 * from `react-native`, so the real module is never loaded by the tests.
 */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testRegex: '\\.test\\.tsx?$',
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  transform: {
    '^.+\\.tsx?$': [
      '@swc/jest',
      {
        swcrc: false,
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2019',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  moduleNameMapper: {
    '^react-native-webview$': '<rootDir>/test/doubles/react-native-webview.tsx',
  },
  setupFiles: ['<rootDir>/test/setup.ts'],
  clearMocks: true,
};
