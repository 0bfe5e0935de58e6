// @ts-check
/**
 * ESLint configuration for the benchmark only (used with `overrideConfigFile`, on the TS/JS
 * part of the corpus): what a typical TypeScript project runs — ESLint's recommended rules,
 * typescript-eslint's recommended rules and the browser and Node globals — plus
 * `no-restricted-syntax` selectors that approximate the pattern part of prefixlint's core rules,
 * like bench/peers/ast-grep.
 *
 * Type-aware rules are off: they need each project's tsconfig.json and its installed
 * dependencies, which a corpus of source files does not have (every import would be `any`), and
 * the type checker on 7,000 files of 23 projects would alone take longer than the whole bench's
 * time budget. Typical projects that do turn them on run them on one project at a time.
 */
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const CALL = "CallExpression[callee.property.name=/^(create|stream|countTokens)$/][callee.object.property.name='messages']";
const VOLATILE = [
  "NewExpression[callee.name='Date']",
  "CallExpression[callee.object.name='Date'][callee.property.name='now']",
  "CallExpression[callee.object.name='Math'][callee.property.name='random']",
  "CallExpression[callee.object.name='crypto'][callee.property.name='randomUUID']",
  "MemberExpression[object.object.name='process'][object.property.name='env']",
].join(', ');

const FILES = ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'];

export default tseslint.config(
  { files: FILES, ...js.configs.recommended },
  ...tseslint.configs.recommended.map((c) => ({ files: FILES, ...c })),
  {
    files: FILES,
    languageOptions: {
      parserOptions: { ecmaFeatures: { jsx: true } },
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      'no-restricted-syntax': [
        'warn',
        { selector: `${CALL} Property[key.name='system'] :matches(${VOLATILE})`, message: 'volatile value in the system prompt' },
        { selector: `VariableDeclarator[id.name=/(system|prompt|^now$)/i] :matches(${VOLATILE})`, message: 'volatile value in a prompt variable' },
        { selector: "CallExpression[callee.property.name='slice'][arguments.0.type='UnaryExpression'][arguments.0.operator='-']", message: 'history trimmed by count' },
        { selector: "CallExpression[callee.property.name='shift'][arguments.length=0]", message: 'history trimmed by count' },
        { selector: `${CALL} Property[key.name='betas'] > ArrayExpression`, message: 'betas list' },
        { selector: "VariableDeclarator[id.name=/(system|prompt|schema|tools)/i] CallExpression[callee.object.name='JSON'][callee.property.name='stringify']", message: 'JSON.stringify in a prompt' },
      ],
    },
  },
);
