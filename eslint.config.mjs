import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '.nx/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Domain time comes from the clock (libs/pix clock), never from the wall.
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the Clock (@pixauto/pix), not new Date().' },
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Use the Clock (@pixauto/pix), not Date.now().' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: {
      globals: {
        module: 'writable',
        require: 'readonly',
        __dirname: 'readonly',
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        AbortSignal: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.spec.ts', 'deploy/**', '**/bench/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // The console's pages run in the merchant's browser, the `pixauto` command on the developer's machine (its one read
  // of the time in cli/clock.ts): the wall clock there is the person's, no domain time.
  {
    files: ['apps/console/**', 'libs/api-client/src/cli/clock.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
