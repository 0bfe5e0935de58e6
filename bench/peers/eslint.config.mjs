// @ts-check
/**
 * ESLint configuration for the benchmark only (used with `eslint -c`, on the TS/JS part of
 * the corpus): the typescript-eslint parser and `no-restricted-syntax` selectors that
 * approximate the pattern part of prefixlint's core rules, like bench/peers/ast-grep.
 */
import tseslint from 'typescript-eslint';

const CALL = "CallExpression[callee.property.name=/^(create|stream|countTokens)$/][callee.object.property.name='messages']";
const VOLATILE = [
  "NewExpression[callee.name='Date']",
  "CallExpression[callee.object.name='Date'][callee.property.name='now']",
  "CallExpression[callee.object.name='Math'][callee.property.name='random']",
  "CallExpression[callee.object.name='crypto'][callee.property.name='randomUUID']",
  "MemberExpression[object.object.name='process'][object.property.name='env']",
].join(', ');

export default [
  {
    files: ['**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { ecmaFeatures: { jsx: true } },
      ecmaVersion: 'latest',
      sourceType: 'module',
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
];
