/** Layering: the engine never imports an editor API; only lang/parsers.ts imports the parser. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRules } from '../src/rules';
import { ROOT } from './helpers';

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

function imports(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from\s+|import\s*\(\s*|require\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]);
}

const SRC = path.join(ROOT, 'src');
const EDITOR_ENTRY = /^(client|extension)(\/|\.ts$)/;

describe('architecture', () => {
  it('no engine file imports vscode', () => {
    const offenders = files(SRC)
      .filter((f) => !EDITOR_ENTRY.test(path.relative(SRC, f)))
      .filter((f) => imports(f).some((m) => m === 'vscode' || m.startsWith('vscode-languageclient')));
    expect(offenders).toEqual([]);
  });

  it('core/ imports no parser, file system, editor or server module', () => {
    const bad = files(path.join(SRC, 'core')).flatMap((f) =>
      imports(f)
        .filter((m) => /^(node:|fs$|path$|web-tree-sitter|vscode)/.test(m))
        .map((m) => `${path.relative(ROOT, f)}: ${m}`),
    );
    expect(bad).toEqual([]);
  });

  it('only lang/parsers.ts imports web-tree-sitter at run time', () => {
    const bad = files(SRC)
      .filter((f) => path.relative(SRC, f) !== path.join('lang', 'parsers.ts'))
      .filter((f) => /^import\s+(?!type)[^;]*from\s+['"]web-tree-sitter['"]/m.test(fs.readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
  });

  it('rules: one file each, registry lists exactly the files in src/rules', () => {
    const ruleFiles = fs
      .readdirSync(path.join(SRC, 'rules'))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts' && f !== 'util.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(allRules.map((r) => r.meta.id).sort()).toEqual(ruleFiles);
  });
});
