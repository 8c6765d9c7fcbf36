import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'packages/*/lib/**', 'packages/*/node_modules/**', 'coverage/**', '.data/**', 'test/support/pix-api-client/pix-api.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-require-imports': 'off',
      // Prettier formats to 140 columns (.prettierrc.json, checked by `npm run lint`); what it cannot
      // break (a long string, template, URL, pattern or comment) is the only code allowed past it.
      'max-len': ['error', { code: 140, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreUrls: true, ignoreRegExpLiterals: true, ignoreComments: true }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='forwardRef']", message: 'No forwardRef: dependencies point down.' },
        {
          // ExecutionContext only: an exception filter's ArgumentsHost (errors alone) may still use it
          selector: "CallExpression[callee.property.name='switchToHttp'][callee.object.name='ctx']",
          message: 'Use httpRequest(ctx) / httpReply(ctx) (kernel/platform/http/http-context): switchToHttp() makes closures and reshapes the context on every request.',
        },
      ],
    },
  },
  {
    // The React Native card package: linted with the rest, plus the rules of hooks.
    files: ['packages/react-native-card/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
