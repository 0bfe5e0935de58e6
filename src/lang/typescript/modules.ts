/**
 * TypeScript and JavaScript imports: relative specifiers (with the extensions and `index` files
 * Node and bundlers try, and ESM's `./x.js` for `./x.ts`), and the path aliases of the nearest
 * tsconfig.json / jsconfig.json (`compilerOptions.paths` from `baseUrl`, `@/lib/x` for
 * `./src/lib/x`). Any other specifier names a package: not a workspace file.
 */
import * as path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import type { ImportedName, ModuleHost, ModuleSyntax } from '../frontEnd';
import { answersPerHost, inFolder } from '../moduleHost';
import type { Node } from '../parsers';
import { languageForPath } from '../parsers';
import { isIdentifierChar } from '../../core/chars';

const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];
/** Folders climbed to find a tsconfig.json, and `extends` followed. */
const MAX_LEVELS = 12;
const MAX_EXTENDS = 4;

interface Aliases {
  /** The folder `paths` are relative to. */
  base: string;
  paths: Array<{ pattern: string; targets: string[] }>;
  /** `baseUrl` is set: a bare specifier may also name a file under it. */
  baseUrl: boolean;
}

/** Parsed configurations by file, kept while their text is the same. */
const parsed = new Map<string, { text: string; aliases: Aliases | undefined }>();

function readAliases(host: ModuleHost, file: string, depth = 0): Aliases | undefined {
  const text = host.readFile(file);
  if (text === undefined) return undefined;
  const hit = parsed.get(file);
  if (hit && hit.text === text) return hit.aliases;
  let aliases: Aliases | undefined;
  try {
    const json = parseJsonc(text, [], { allowTrailingComma: true }) as { extends?: unknown; compilerOptions?: { baseUrl?: unknown; paths?: unknown } } | undefined;
    const dir = path.dirname(file);
    const options = json?.compilerOptions;
    const inherited = typeof json?.extends === 'string' && json.extends.startsWith('.') && depth < MAX_EXTENDS ? readAliases(host, resolveExtends(dir, json.extends), depth + 1) : undefined;
    const base = typeof options?.baseUrl === 'string' ? path.resolve(dir, options.baseUrl) : (inherited?.base ?? dir);
    const baseUrl = typeof options?.baseUrl === 'string' || !!inherited?.baseUrl;
    if (options?.paths && typeof options.paths === 'object') {
      const paths = Object.entries(options.paths as Record<string, unknown>)
        .filter((e): e is [string, string[]] => Array.isArray(e[1]) && e[1].every((t) => typeof t === 'string'))
        .map(([pattern, targets]) => ({ pattern, targets }));
      aliases = { base, paths, baseUrl };
    } else if (inherited || baseUrl) aliases = { paths: inherited?.paths ?? [], base, baseUrl };
  } catch {
    aliases = undefined;
  }
  parsed.set(file, { text, aliases });
  return aliases;
}

function resolveExtends(dir: string, spec: string): string {
  const p = path.resolve(dir, spec);
  return p.endsWith('.json') ? p : p + '.json';
}

/**
 * The configuration file nearest to each folder, per host: asked for every import not resolved
 * yet (each probing up to MAX_LEVELS folders for each configuration name), and found from what
 * exists alone, which stays the same for the life of a host (a new host is made when what exists
 * may have changed). Its text is read again on each question (readAliases keeps what it parsed).
 */
const configsOf = answersPerHost<string | null>();

function nearestConfig(host: ModuleHost, dir: string): string | undefined {
  const byDir = configsOf(host);
  const known = byDir.get(dir);
  if (known !== undefined) return known ?? undefined;
  let found: string | undefined;
  let d = dir;
  for (let i = 0; i < MAX_LEVELS && found === undefined; i++) {
    for (const name of CONFIG_NAMES) {
      const f = path.join(d, name);
      if (host.exists(f)) {
        found = f;
        break;
      }
    }
    const up = path.dirname(d);
    if (up === d) break;
    d = up;
  }
  byDir.set(dir, found ?? null);
  return found;
}

/** The aliases of the configuration nearest to `dir`. */
function aliasesFor(host: ModuleHost, dir: string): Aliases | undefined {
  const config = nearestConfig(host, dir);
  return config === undefined ? undefined : readAliases(host, config);
}

/** `@/*` against `@/lib/x` gives `lib/x`; an exact pattern gives ''. */
function matchPattern(pattern: string, spec: string): string | undefined {
  const star = pattern.indexOf('*');
  if (star < 0) return pattern === spec ? '' : undefined;
  const head = pattern.slice(0, star);
  const tail = pattern.slice(star + 1);
  return spec.startsWith(head) && spec.endsWith(tail) && spec.length >= head.length + tail.length ? spec.slice(head.length, spec.length - tail.length) : undefined;
}

/** The file a path without (or with a swapped) extension names, trying what Node and bundlers try. */
function fileFor(host: ModuleHost, target: string): string | undefined {
  // `target` is absolute and resolved (path.resolve): its index files are joined as strings.
  const index = inFolder(target, 'index');
  const candidates = [target, ...EXTENSIONS.map((e) => target + e), ...EXTENSIONS.map((e) => index + e)];
  // ESM TypeScript writes './x.js' for './x.ts'.
  const ext = path.extname(target);
  if (ext === '.js' || ext === '.mjs' || ext === '.cjs' || ext === '.jsx') {
    const stem = target.slice(0, -ext.length);
    candidates.push(...EXTENSIONS.map((e) => stem + e));
  }
  return candidates.find((c) => languageForPath(c) !== undefined && host.exists(c));
}

/**
 * The text of every function, method or arrow function named `name` in a module's text, to its
 * closing brace (an arrow function with an expression body: to the end of its line).
 */
function definitionText(text: string, name: string): string | undefined {
  const parts: string[] = [];
  const closing = (from: number, open: string, close: string) => {
    let depth = 0;
    for (let i = from; i < text.length; i++) {
      if (text[i] === open) depth++;
      else if (text[i] === close && --depth === 0) return i;
    }
    return text.length - 1;
  };
  for (const m of definitionHeads(text, name)) {
    let at = m.index + m.head.length;
    // Past the parameters (which may hold braces of their own: `{ prompt, system = '' }`).
    if (m.head.endsWith('(')) at = closing(at - 1, '(', ')') + 1;
    const arrow = m.head.includes('=>') ? at : text.indexOf('=>', at);
    const open = text.indexOf('{', at);
    const lineEnd = text.indexOf('\n', at);
    if (open < 0) continue;
    // A method's parameters are followed by its body, or a return type and its body; a line that
    // calls the name (`  send(prompt);`) is no definition of it.
    if (m.method !== undefined && (open - at > 320 || !/^\s*(?::[^;{}]*)?$/.test(text.slice(at, open)))) continue;
    if (arrow >= 0 && arrow < open && lineEnd >= 0 && lineEnd < open) {
      parts.push(text.slice(m.index, lineEnd));
      continue;
    }
    parts.push(text.slice(m.index, closing(open, '{', '}') + 1));
  }
  return parts.length ? parts.join('\n') : undefined;
}

/** A definition head of a name (definitionHeads): where it starts, its text, and a method's modifiers (when it is a method's). */
export interface DefinitionHead {
  index: number;
  head: string;
  method?: string;
}

/**
 * The heads of the definitions of `name` in a module's text, in order, as the global, multiline
 * pattern below would find them (without overlapping), `name` standing for itself:
 *
 *     \bfunction[ \t]{0,8}\*?[ \t]{0,8}NAME[ \t]{0,8}\(                           a function
 *   | (?<![\w$.])NAME[ \t]{0,8}(?:=|:)[ \t]{0,8}(?:async[ \t]{0,8})?
 *       (?:function\b|\([^)]{0,400}\)[ \t]{0,8}(?::[^=\n]{0,200})?=>|[\w$]{1,80}[ \t]{0,8}=>)   a function or an arrow function assigned
 *   | ^[ \t]{0,80}(?<method>(?:(?:public|...|readonly)[ \t]{1,8}){0,6})NAME
 *       [ \t]{0,8}(?:<[^>\n]{0,200}>)?[ \t]{0,8}\(                                   a method
 *
 * That pattern was made for each name, and each compiled to machine code (see core/words.ts).
 * Here each place the name is written is tried with the three alternatives: the part before the
 * name and the part after it do not depend on the name (expressions compiled once). Bounded
 * repetitions only: each place is tried in a bounded number of steps, whatever the text.
 */
export function definitionHeads(text: string, name: string): DefinitionHead[] {
  /** Each alternative that matches at a place of the name: where it starts and ends, and a method's modifiers. */
  const found: Array<{ index: number; end: number; alternative: number; method?: string }> = [];
  if (!name) return [];
  const after = (pattern: RegExp, at: number): number => {
    pattern.lastIndex = at;
    return pattern.test(text) ? pattern.lastIndex : -1;
  };
  for (let i = text.indexOf(name); i !== -1; i = text.indexOf(name, i + 1)) {
    const nameEnd = i + name.length;
    // The keyword `function` before the name (its `\b` is read inside the window: the longest prefix is 25 characters).
    const windowStart = Math.max(0, i - 32);
    const keyword = FUNCTION_KEYWORD_BEFORE.exec(text.slice(windowStart, i));
    if (keyword) {
      const end = after(CALL_AFTER_NAME, nameEnd);
      if (end >= 0) found.push({ index: windowStart + keyword.index, end, alternative: 0 });
    }
    const c = i > 0 ? text.charCodeAt(i - 1) : -1;
    if (c === -1 || !(isIdentifierChar(c) || c === 0x2e)) {
      const end = after(ASSIGNED_FUNCTION_AFTER_NAME, nameEnd);
      if (end >= 0) found.push({ index: i, end, alternative: 1 });
    }
    const lineStart = lineStartWithin(text, i, METHOD_PREFIX_MAX);
    if (lineStart >= 0) {
      const modifiers = METHOD_PREFIX.exec(text.slice(lineStart, i));
      if (modifiers) {
        const end = after(METHOD_AFTER_NAME, nameEnd);
        if (end >= 0) found.push({ index: lineStart, end, alternative: 2, method: modifiers[1] });
      }
    }
  }
  // The search goes on from the end of each head found; at one place, the first alternative found wins.
  found.sort((a, b) => a.index - b.index || a.alternative - b.alternative);
  const out: DefinitionHead[] = [];
  let searchFrom = 0;
  for (const f of found) {
    if (f.index < searchFrom) continue;
    out.push(f.method === undefined ? { index: f.index, head: text.slice(f.index, f.end) } : { index: f.index, head: text.slice(f.index, f.end), method: f.method });
    searchFrom = f.end;
  }
  return out;
}

/** `\bfunction[ \t]{0,8}\*?[ \t]{0,8}` right before the name (`\b` before a word character: no word character before it). */
const FUNCTION_KEYWORD_BEFORE = /(?<!\w)function[ \t]{0,8}\*?[ \t]{0,8}$/;
/** After the name of `function NAME`: its parameters open. */
const CALL_AFTER_NAME = /[ \t]{0,8}\(/y;
/** After `NAME` assigned (or given as a property) a function or an arrow function. */
const ASSIGNED_FUNCTION_AFTER_NAME = /[ \t]{0,8}(?:=|:)[ \t]{0,8}(?:async[ \t]{0,8})?(?:function\b|\([^)]{0,400}\)[ \t]{0,8}(?::[^=\n]{0,200})?=>|[\w$]{1,80}[ \t]{0,8}=>)/y;
/** From the start of a line to a method's name: indentation and modifiers. */
const METHOD_PREFIX = /^[ \t]{0,80}((?:(?:public|private|protected|static|async|override|readonly)[ \t]{1,8}){0,6})$/;
/** The longest text METHOD_PREFIX accepts: 80 + 6 × (9 + 8). */
const METHOD_PREFIX_MAX = 80 + 6 * 17;
/** After a method's name: type parameters, then its parameters open. */
const METHOD_AFTER_NAME = /[ \t]{0,8}(?:<[^>\n]{0,200}>)?[ \t]{0,8}\(/y;

/**
 * Where the line of `at` starts, as `^` of a multiline pattern reads lines (after \n, \r,
 * U+2028 or U+2029), when that is at most `within` characters before it; else -1.
 */
function lineStartWithin(text: string, at: number, within: number): number {
  for (let j = at - 1; j >= at - within - 1; j--) {
    if (j < 0) return 0;
    const c = text.charCodeAt(j);
    if (c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029) return j + 1;
  }
  return -1;
}

/**
 * The text of the function a module exports as its default, read without parsing it: a named
 * function (`export default async function complete(...) {...}`, `module.exports = function
 * complete(...)`) or a name exported so (`export default complete;`, `module.exports = complete`,
 * `export = complete`), found by that name. An anonymous one is not read.
 */
function defaultDefinitionText(text: string): string | undefined {
  const m = /^[ \t]{0,80}(?:export[ \t]{1,8}default[ \t]{1,8}|module\.exports[ \t]{0,8}=[ \t]{0,8}|export[ \t]{0,8}=[ \t]{0,8})(?:(?:async[ \t]{1,8})?function[ \t]{0,8}\*?[ \t]{0,8}([A-Za-z_$][\w$]{0,200})[ \t]{0,8}\(|([A-Za-z_$][\w$]{0,200})[ \t]{0,8};?[ \t]{0,80}$)/m.exec(text);
  const name = m?.[1] ?? m?.[2];
  return name === undefined ? undefined : definitionText(text, name);
}

export const typescriptModules: ModuleSyntax = {
  definitions: (text) => (name) => (name === 'default' ? defaultDefinitionText(text) : definitionText(text, name)),
  importedNames(text) {
    const out: ImportedName[] = [];
    const names = (list: string, spec: string) => {
      for (const part of list.split(',')) {
        const n = /^\s*(?:type\s+)?([\w$]+)(?:\s*(?:as|:)\s*([\w$]+))?/.exec(part);
        if (n) out.push({ spec, name: n[1], local: n[2] ?? n[1] });
      }
    };
    // `import a, { b as c } from 'm'`, `import * as m from 'm'`, `export { a } from 'm'`.
    // Bounded repetitions only (an import clause is short): linear in the text, whatever it holds.
    for (const m of text.matchAll(/\b(?:import|export)\s{1,8}(?:type\s{1,8})?([^;'"]{0,2000}?)\s{0,8}from\s{0,8}['"]([^'"\n]{1,300})['"]/g)) {
      const clause = m[1];
      const spec = m[2];
      const star = /\*\s*as\s+([\w$]+)/.exec(clause);
      if (star) out.push({ spec, local: star[1] });
      const braces = /\{([^}]*)\}/.exec(clause);
      if (braces) names(braces[1], spec);
      const def = /^\s*([\w$]+)\s*(?:,|$)/.exec(clause);
      if (def && def[1] !== 'type') out.push({ spec, name: 'default', local: def[1] });
      if (!star && !braces && !def) out.push({ spec, local: '' });
    }
    // `const m = require('m')`, `const { a } = require('m')`, `import('m')`, a bare `import 'm'`.
    for (const m of text.matchAll(/(?:\b(?:const|let|var)\s{1,8}(\{[^}]{0,400}\}|[\w$]{1,80})\s{0,8}=\s{0,8})?\brequire\s{0,8}\(\s{0,8}['"]([^'"\n]{1,300})['"]\s{0,8}\)/g)) {
      if (m[1]?.startsWith('{')) names(m[1].slice(1, -1), m[2]);
      else out.push({ spec: m[2], local: m[1] ?? '' });
    }
    for (const m of text.matchAll(/\bimport\s{0,8}\(\s{0,8}['"]([^'"\n]{1,300})['"]|^[ \t]{0,80}import[ \t]{0,8}['"]([^'"\n]{1,300})['"]/gm)) out.push({ spec: m[1] ?? m[2], local: '' });
    return out;
  },

  isTestFile(file) {
    // What Jest, Vitest and Playwright collect: `*.test.ts`, `*.spec.js`, files in `__tests__/`.
    const parts = file.split(/[\\/]/);
    return /\.(test|spec|e2e)\.[cm]?[jt]sx?$/.test(parts[parts.length - 1]) || parts.includes('__tests__') || parts.includes('__mocks__');
  },
  modulePath(host: ModuleHost, file: string, spec: string): string | undefined {
    if (spec.startsWith('.')) return fileFor(host, path.resolve(path.dirname(file), spec));
    const aliases = aliasesFor(host, path.dirname(file));
    if (!aliases) return undefined;
    for (const { pattern, targets } of aliases.paths) {
      const rest = matchPattern(pattern, spec);
      if (rest === undefined) continue;
      for (const t of targets) {
        const found = fileFor(host, path.resolve(aliases.base, t.replace('*', rest)));
        if (found) return found;
      }
    }
    return aliases.baseUrl ? fileFor(host, path.resolve(aliases.base, spec)) : undefined;
  },
  defaultExport(root: Node): Node | undefined {
    for (const s of root.namedChildren) {
      if (s?.type !== 'export_statement' || !s.children.some((c) => c?.type === 'default')) continue;
      const v = s.childForFieldName('value') ?? s.childForFieldName('declaration');
      if (v) return v;
    }
    return undefined;
  },
  reexports(root: Node) {
    const out: Array<{ spec: string; names?: Array<{ name: string; alias: string }> }> = [];
    for (const s of root.namedChildren) {
      if (s?.type !== 'export_statement') continue;
      const source = s.childForFieldName('source');
      if (!source) continue;
      const spec = source.text.slice(1, -1);
      const clause = s.namedChildren.find((c) => c?.type === 'export_clause');
      if (!clause) {
        out.push({ spec });
        continue;
      }
      const names: Array<{ name: string; alias: string }> = [];
      for (const sp of clause.namedChildren) {
        if (sp?.type !== 'export_specifier') continue;
        const name = sp.childForFieldName('name')?.text;
        if (name) names.push({ name, alias: sp.childForFieldName('alias')?.text ?? name });
      }
      out.push({ spec, names });
    }
    return out;
  },
};
