/**
 * Layering: an allowed-imports table for the folders of src/, counting every import (relative
 * or not, type-only or not, `export ... from`, `require` and dynamic `import()`), read with the
 * TypeScript compiler's own import scanner. The engine never imports an editor API; only
 * lang/treeSitterRuntime.ts runs the parser's script, and only lang/parsers.ts loads its grammar files.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allRules } from '../src/rules';
import { ROOT } from './helpers';

const SRC = path.join(ROOT, 'src');

type Layer = 'core' | 'lang' | 'rules' | 'config' | 'engine' | 'host' | 'cli' | 'server' | 'client' | 'shared';

/**
 * The layers each layer may import (itself always). The two edges beyond the design's table,
 * and why the code needs them:
 * - server → shared: src/shared/protocol.ts is the protocol the server and the VS Code client
 *   agree on (request names, command ids, a diagnostic's data); it imports nothing.
 * - core → data: src/data/known-names.json, the names generated from the pinned SDK (data, not code).
 */
const LAYERS: Record<Layer, readonly string[]> = {
  core: ['data'],
  lang: ['core'],
  rules: ['core'],
  config: ['core'],
  engine: ['core', 'lang', 'rules', 'config'],
  host: ['core'],
  cli: ['engine', 'host', 'config', 'core'],
  server: ['engine', 'host', 'core', 'shared'],
  client: ['shared'],
  shared: [],
};

/**
 * Modules from outside src/ each layer may import: packages, Node's built-ins (`node:*` for all
 * of them), and package.json (the version and the repository's address).
 */
const EXTERNAL: Record<Layer, readonly string[]> = {
  core: ['package.json'],
  // Paths of imported modules are resolved in lang/workspace.ts; notebooks are JSON.
  lang: ['node:path', 'jsonc-parser'],
  rules: [],
  config: ['node:path', 'ignore', 'jsonc-parser', 'picomatch', 'smol-toml'],
  engine: [],
  host: ['node:*', 'ignore', 'tinyglobby'],
  cli: ['node:*', 'tinyglobby', 'sarif', 'package.json'],
  // count_tokens for exact token counts; the LSP library.
  server: ['node:*', '@anthropic-ai/sdk', 'vscode-languageserver', 'vscode-languageserver/node', 'vscode-languageserver-textdocument'],
  // The server runs in a worker thread of the extension host.
  client: ['node:path', 'node:worker_threads', 'vscode', 'vscode-languageclient/node'],
  shared: [],
};

/** One file runs the parser's script (a runtime per call), one loads its WASM modules and grammars from disk. */
const FILE_EXTERNAL: Record<string, readonly string[]> = {
  'lang/treeSitterRuntime.ts': ['node:fs', 'node:vm', 'node:module', 'web-tree-sitter'],
  'lang/parsers.ts': ['node:fs', 'node:module', 'web-tree-sitter'],
  // Its types only (a tree's edit API), never the runtime.
  'lang/syntaxTree.ts': ['web-tree-sitter'],
  // The prefilter reads the words a pattern's matches hold off the pattern's syntax tree.
  'core/literals.ts': ['@eslint-community/regexpp'],
};

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
}

/** Every module a file imports (as written), by the compiler's scanner: imports in strings and comments do not count. */
function importsOf(text: string): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

interface Edge {
  file: string;
  from: Layer;
  /** A layer of src/, or a module outside it. */
  to: { layer: string } | { external: string };
}

function layerOf(file: string): string {
  return path.relative(SRC, file).split(path.sep)[0];
}

function edges(): Edge[] {
  return files(SRC).flatMap((file) =>
    importsOf(fs.readFileSync(file, 'utf8')).map((spec): Edge => {
      const from = layerOf(file) as Layer;
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (!spec.startsWith('.')) return { file: rel, from, to: { external: spec } };
      const target = path.resolve(path.dirname(file), spec);
      const inside = path.relative(SRC, target);
      if (inside.startsWith('..')) return { file: rel, from, to: { external: path.relative(ROOT, target).split(path.sep).join('/') } };
      const layer = inside.split(path.sep)[0];
      // A folder's index (`../rules`) is in that layer; a file directly in src/ is in none.
      const inLayer = inside.includes(path.sep) || fs.statSync(path.join(SRC, layer), { throwIfNoEntry: false })?.isDirectory();
      return { file: rel, from, to: { layer: inLayer ? layer : `src/${layer}` } };
    }),
  );
}

function allowed(e: Edge): boolean {
  if ('layer' in e.to) return e.to.layer === e.from || LAYERS[e.from].includes(e.to.layer);
  const ext = e.to.external;
  const ok = [...EXTERNAL[e.from], ...(FILE_EXTERNAL[e.file] ?? [])];
  return ok.includes(ext) || (ext.startsWith('node:') && ok.includes('node:*'));
}

const describeEdge = (e: Edge) => `${e.file} -> ${'layer' in e.to ? e.to.layer + '/' : e.to.external}`;

describe('architecture', () => {
  it('reads every kind of import: relative, type-only, export-from, require, dynamic; not those in strings', () => {
    const text = [
      "import type { A } from '../lang/a';",
      "import { B } from './b';",
      "export * from '../rules/c';",
      "export type { D } from '../config/d';",
      "const e = require('node:fs');",
      "const f = await import('../cli/f');",
      "const g = `import x from '../server/g'`;",
      "// import y from '../client/h';",
    ].join('\n');
    expect(importsOf(text)).toEqual(['../lang/a', './b', '../rules/c', '../config/d', 'node:fs', '../cli/f']);
  });

  it('every folder of src/ is a layer of the table, and no file sits beside them', () => {
    const found = new Set(files(SRC).map((f) => (path.relative(SRC, f).includes(path.sep) ? layerOf(f) : path.relative(SRC, f))));
    expect([...found].sort()).toEqual(Object.keys(LAYERS).sort());
  });

  it('imports only what the layer table allows (counting every import)', () => {
    const all = edges();
    // Enough imports were read for the check to mean something (about 600 today).
    expect(all.length).toBeGreaterThan(400);
    expect(all.filter((e) => !allowed(e)).map(describeEdge)).toEqual([]);
  });

  it('no engine file imports vscode, and none imports web-tree-sitter at run time (treeSitterRuntime.ts runs its script; only it and the CLI\'s loader compile one)', () => {
    const offenders = files(SRC)
      .filter((f) => layerOf(f) !== 'client')
      .filter((f) => importsOf(fs.readFileSync(f, 'utf8')).some((m) => m === 'vscode' || m.startsWith('vscode-languageclient')));
    expect(offenders).toEqual([]);
    const bad = files(SRC).filter((f) => /^import\s+(?!type)[^;]*from\s+['"]web-tree-sitter['"]/m.test(fs.readFileSync(f, 'utf8')));
    expect(bad).toEqual([]);
    const compiling = files(SRC).filter((f) => /\bcompileFunction\(/.test(fs.readFileSync(f, 'utf8')));
    // The parser's script, and the CLI's bundle (its loader, cli/bin.ts).
    expect(compiling.map((f) => path.relative(SRC, f)).sort()).toEqual([path.join('cli', 'bin.ts'), path.join('lang', 'treeSitterRuntime.ts')]);
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
