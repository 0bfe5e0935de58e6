/**
 * The language boundary: everything about a grammar lives in its front end (src/lang/python/,
 * src/lang/typescript/), and one switch picks the front end (src/lang/frontEnds.ts). Anywhere
 * else, the code reads the front ends' normalised forms, so no file compares a language, reads a
 * grammar's fields, or names a grammar's node types. Checked on the TypeScript syntax of every
 * source file (rule docs in template strings, which show user code, are not code).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers';

const SRC = path.join(ROOT, 'src');
/** The front ends, the switch, and the generic syntax tree (the tree-sitter API without a grammar). */
// lang/notebook.ts reads the notebook's JSON with jsonc-parser, whose node types ('object',
// 'array', 'string') share names with grammar nodes; it never sees a syntax tree (checked below).
const ALLOWED = [/^lang\/python\//, /^lang\/typescript\//, /^lang\/frontEnds\.ts$/, /^lang\/syntaxTree\.ts$/, /^lang\/parsers\.ts$/, /^lang\/notebook\.ts$/];

/** Every named node type of the grammars prefixlint parses, from the node-types.json the grammar packages ship. */
function grammarTypes(): Set<string> {
  const out = new Set<string>();
  for (const file of ['tree-sitter-python/src/node-types.json', 'tree-sitter-javascript/src/node-types.json', 'tree-sitter-typescript/typescript/src/node-types.json', 'tree-sitter-typescript/tsx/src/node-types.json']) {
    const types = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', file), 'utf8')) as Array<{ type: string; named: boolean; subtypes?: unknown }>;
    for (const t of types) if (t.named) out.add(t.type);
  }
  return out;
}

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const isStringLike = (n: ts.Node): n is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n);

/** What a file does that only a front end may do, with the line of each. */
function violations(file: string, types: ReadonlySet<string>): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const at = (n: ts.Node) => `${path.relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const visit = (n: ts.Node) => {
    if (ts.isBinaryExpression(n) && [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken, ts.SyntaxKind.EqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsToken].includes(n.operatorToken.kind)) {
      for (const [side, other] of [
        [n.left, n.right],
        [n.right, n.left],
      ] as const) {
        const name = ts.isPropertyAccessExpression(side) ? side.name.text : ts.isIdentifier(side) ? side.text : undefined;
        if (!isStringLike(other)) continue;
        if (name === 'language') out.push(`${at(n)}: compares a language with '${other.text}'`);
        if (name === 'type' && types.has(other.text)) out.push(`${at(n)}: compares a node type with '${other.text}'`);
      }
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && ['childForFieldName', 'childrenForFieldName'].includes(n.expression.name.text)) {
      out.push(`${at(n)}: reads the grammar field ${n.arguments[0]?.getText(sf) ?? ''}`);
    }
    // A grammar's own names (`call_expression`, `keyword_argument`): generic words (`call`, `string`) are also value kinds.
    if (isStringLike(n) && n.text.includes('_') && types.has(n.text) && !ts.isTemplateExpression(n.parent)) out.push(`${at(n)}: names the node type '${n.text}'`);
    // Rule docs are template strings with user code in them: not analysed.
    if (ts.isTemplateExpression(n) || ts.isNoSubstitutionTemplateLiteral(n)) return;
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

describe('language boundary', () => {
  const types = grammarTypes();

  it('knows the grammars it checks against', () => {
    for (const t of ['call_expression', 'keyword_argument', 'function_definition', 'arrow_function']) expect(types.has(t), t).toBe(true);
  });

  it('no language comparison, grammar field or node type outside the front ends and the switch', () => {
    const found = sources(SRC)
      .filter((f) => !ALLOWED.some((re) => re.test(path.relative(SRC, f).split(path.sep).join('/'))))
      .flatMap((f) => violations(f, types));
    expect(found).toEqual([]);
  });

  it('the notebook reader, allowed for its JSON node types, reads no syntax tree', () => {
    const text = fs.readFileSync(path.join(SRC, 'lang', 'notebook.ts'), 'utf8');
    expect(text).not.toMatch(/SyntaxNode|syntaxTree|rootNode|childForFieldName|web-tree-sitter/);
  });

  it('the check sees each kind of violation', () => {
    const probe = path.join(ROOT, 'test', 'data', '__boundary_probe__.ts');
    fs.mkdirSync(path.dirname(probe), { recursive: true });
    fs.writeFileSync(
      probe,
      ["if (unit.language === 'python') f();", "if (node.type !== 'call_expression') g();", "const x = n.childForFieldName('left');", "const T = new Set(['keyword_argument']);", 'const docs = `node.type === "call_expression"`;'].join('\n'),
    );
    try {
      expect(violations(probe, types).map((v) => v.replace(/^.*?:\d+: /, ''))).toEqual([
        "compares a language with 'python'",
        "compares a node type with 'call_expression'",
        "names the node type 'call_expression'",
        "reads the grammar field 'left'",
        "names the node type 'keyword_argument'",
      ]);
    } finally {
      fs.rmSync(probe);
    }
  });
});
