/**
 * The only module that imports web-tree-sitter. Loads the runtime and the grammar WASM
 * files once, from the folder next to the bundle (dist/) or from node_modules in development.
 */
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';
import type { LanguageId } from '../core/model';
import type { GrammarTables } from './syntaxTree';
import { SyntaxNode, SyntaxTree } from './syntaxTree';

/** The analysis works on trees read into JavaScript (see syntaxTree.ts), never on WASM nodes. */
export type Node = SyntaxNode;
export type Tree = SyntaxTree;

const GRAMMAR_FILES: Record<LanguageId, { pkg: string; file: string }> = {
  python: { pkg: 'tree-sitter-python', file: 'tree-sitter-python.wasm' },
  typescript: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-tsx.wasm' },
  javascript: { pkg: 'tree-sitter-javascript', file: 'tree-sitter-javascript.wasm' },
};

function packageDir(pkg: string): string | undefined {
  // Works in the CJS bundle (require) and under the test runner (resolution from the project).
  const requires = [...(typeof require === 'function' ? [require] : []), createRequire(path.join(process.cwd(), 'index.js'))];
  let entry: string | undefined;
  for (const req of requires) {
    try {
      entry = req.resolve(pkg);
      break;
    } catch {
      // try the next resolution base
    }
  }
  if (!entry) return undefined;
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json')) && path.basename(dir) === pkg.split('/').pop()) return dir;
  }
  return undefined;
}

function findWasm(pkg: string, file: string, wasmDir?: string): string {
  const candidates: string[] = [];
  if (wasmDir) candidates.push(path.join(wasmDir, file));
  if (typeof __dirname !== 'undefined') candidates.push(path.join(__dirname, file));
  const dir = packageDir(pkg);
  if (dir) candidates.push(path.join(dir, file));
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(`cannot find ${file} (looked in ${candidates.join(', ')})`);
}

export class Parsers {
  private readonly parsers = new Map<LanguageId, Parser>();
  private readonly tables = new Map<LanguageId, GrammarTables>();

  private constructor(private readonly languages: Map<LanguageId, Language>) {}

  private grammar(lang: LanguageId): GrammarTables {
    let t = this.tables.get(lang);
    if (!t) {
      const language = this.languages.get(lang)!;
      const types = language.types;
      const named = new Uint8Array(types.length);
      for (let id = 0; id < types.length; id++) named[id] = language.nodeTypeIsNamed(id) ? 1 : 0;
      const fieldIds = new Map<string, number>();
      language.fields.forEach((name, id) => {
        if (name) fieldIds.set(name, id);
      });
      t = { types, fields: language.fields, fieldIds, named };
      this.tables.set(lang, t);
    }
    return t;
  }

  static async load(wasmDir?: string): Promise<Parsers> {
    const runtime = findWasm('web-tree-sitter', 'web-tree-sitter.wasm', wasmDir);
    await Parser.init({ locateFile: () => runtime });
    const languages = new Map<LanguageId, Language>();
    for (const [id, g] of Object.entries(GRAMMAR_FILES) as Array<[LanguageId, { pkg: string; file: string }]>) {
      languages.set(id, await Language.load(findWasm(g.pkg, g.file, wasmDir)));
    }
    return new Parsers(languages);
  }

  parser(lang: LanguageId): Parser {
    let p = this.parsers.get(lang);
    if (!p) {
      p = new Parser();
      p.setLanguage(this.languages.get(lang)!);
      this.parsers.set(lang, p);
    }
    return p;
  }

  /** Parses text into a tree held in JavaScript; the WASM tree is freed before this returns. */
  parse(lang: LanguageId, text: string): Tree {
    // A lone \r ends a line for Python, JavaScript, editors and LineIndex, but the grammars
    // take it for a space (a file with old Mac line endings would be one comment line). The
    // same-length replacement keeps every offset.
    const source = text.includes('\r') ? text.replace(/\r(?!\n)/g, '\n') : text;
    const wasm = this.parser(lang).parse(source);
    if (!wasm) throw new Error(`the ${lang} parser gave no tree`);
    try {
      return new SyntaxTree(source, this.grammar(lang), wasm);
    } finally {
      wasm.delete();
    }
  }
}

export function languageForPath(file: string): LanguageId | undefined {
  const ext = path.extname(file).toLowerCase();
  switch (ext) {
    case '.py':
    case '.pyi':
      return 'python';
    case '.ts':
    case '.mts':
    case '.cts':
      return 'typescript';
    case '.tsx':
      return 'tsx';
    case '.js':
    case '.jsx':
    case '.mjs':
    case '.cjs':
      return 'javascript';
    default:
      return undefined;
  }
}
