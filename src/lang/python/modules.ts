/** Python imports: where `import a.b` and `from .c import d` find their module among the workspace's files. */
import * as path from 'node:path';
import type { ImportedName, ModuleHost, ModuleSyntax } from '../frontEnd';
import { answersPerHost, inFolder } from '../moduleHost';
import { pythonFunctionSpans } from '../../core/pythonFunctionSpans';

/** Folders above a file that are looked in for an absolute import. */
const MAX_LEVELS = 6;

/** A `def` from `at` to the next line indented no deeper than `indent` that starts a statement (a `def`, a `class`, a decorator, code). */
function defBody(text: string, at: number, indent: number, from: number): string {
  const rest = new RegExp(`\\n[ \\t]{0,${indent}}[A-Za-z_@]`, 'g');
  rest.lastIndex = from;
  const end = rest.exec(text);
  return text.slice(at, end ? end.index : text.length);
}

/**
 * The folders of `dir`'s absolute imports, per host: the same for every import of every file in
 * the folder, and asked for each import not resolved yet (tens of thousands in a repository's
 * run, most of them the standard library's and other packages', each probing up to MAX_LEVELS
 * folders). They are read from what the host says exists, so they are kept with the host: the
 * workspace gives a new host when what exists may have changed.
 */
const basesOf = answersPerHost<readonly string[]>();

function absoluteBases(host: ModuleHost, dir: string): readonly string[] {
  const byDir = basesOf(host);
  const known = byDir.get(dir);
  if (known) return known;
  // An absolute import is looked up where Python's path can hold it: folders that are not
  // packages themselves (the top package's parent, a script's folder), from the file's
  // folder up, and their `src/` folders (the src layout, for tests and scripts beside it). A
  // package folder is never on the path, so a sibling named like a library (`llms/openai.py`
  // beside `llms/deepseek.py`) is not what `from openai import OpenAI` imports.
  const bases: string[] = [];
  let base = dir;
  for (let i = 0; i < MAX_LEVELS; i++) {
    if (!host.exists(path.join(base, '__init__.py'))) {
      bases.push(base);
      const src = path.join(base, 'src');
      if (src !== dir && !dir.startsWith(src + path.sep) && host.exists(src)) bases.push(src);
    }
    const up = path.dirname(base);
    if (up === base) break;
    base = up;
  }
  byDir.set(dir, bases);
  return bases;
}

/** A place name per list of folders of absolute imports (answerPlace), per host; names are never reused. */
const basesNames = answersPerHost<string>();
const nameOfBases = new WeakMap<readonly string[], string>();
let basesCount = 0;

/**
 * The place of the absolute imports of `dir`'s files: one for every folder with the same list of
 * folders to look in (all the folders of a package below its top, most of a project), so that
 * an import resolved for one is resolved for all. On the real-code corpus (one thread) the
 * imports resolved (Python's and TypeScript's) went from 39,790 to 30,264.
 */
function basesPlace(host: ModuleHost, dir: string): string {
  const bases = absoluteBases(host, dir);
  let name = nameOfBases.get(bases);
  if (name === undefined) {
    const byList = basesNames(host);
    const list = bases.join('\u0000');
    name = byList.get(list);
    if (name === undefined) byList.set(list, (name = `\u0000python-bases:${basesCount++}`));
    nameOfBases.set(bases, name);
  }
  return name;
}

export const pythonModules: ModuleSyntax = {
  isTestFile(file) {
    // What pytest and unittest collect: `test_*.py`, `*_test.py`, and pytest's `conftest.py`.
    const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
    return /^(test_.*|.*_test|conftest)\.pyi?$/.test(name);
  },
  modulePath(host: ModuleHost, file: string, spec: string): string | undefined {
    const dir = path.dirname(file);
    const m = /^(\.*)(.*)$/.exec(spec)!;
    const dots = m[1].length;
    const rest = m[2] ? m[2].split('.') : [];
    let bases: readonly string[];
    if (dots > 0) {
      let base = dir;
      for (let i = 1; i < dots; i++) base = path.dirname(base);
      bases = [base];
    } else {
      bases = absoluteBases(host, dir);
    }
    // The names of a dotted specifier are plain names, and the bases absolute folders: the
    // candidates are joined as strings (inFolder), path.join only for anything else.
    const plain = path.isAbsolute(dir) && rest.every((r) => r !== '' && !/[\\/]/.test(r));
    const below = rest.join(path.sep);
    for (const base of bases) {
      const p = !plain ? path.join(base, ...rest) : below ? inFolder(base, below) : base;
      const init = plain ? inFolder(p, '__init__.py') : path.join(p, '__init__.py');
      for (const candidate of rest.length ? [p + '.py', init] : [init]) {
        // An absolute import never names the importing module itself (`typing.py` importing
        // `typing` means the standard library).
        if (dots === 0 && candidate === file) continue;
        if (host.exists(candidate)) return candidate;
      }
    }
    return undefined;
  },
  // modulePath leaves out the importing module itself only for an absolute import whose last
  // name is the module's own (`typing.py` importing `typing`, `hud/__init__.py` importing `hud`):
  // its answer is the file's own; the other absolute imports depend only on the folders looked in.
  answerPlace(host, file, spec) {
    if (spec.startsWith('.')) return path.dirname(file);
    const last = spec.slice(spec.lastIndexOf('.') + 1);
    const base = path.basename(file);
    if (base === `${last}.py` || (base === '__init__.py' && path.basename(path.dirname(file)) === last)) return file;
    return path.isAbsolute(file) ? basesPlace(host, path.dirname(file)) : path.dirname(file);
  },
  submodule: (module, name) => `${module}${module.endsWith('.') ? '' : '.'}${name}`,
  definitions(text) {
    // Every function's extent, found in one pass (a module is asked for many names): read with
    // strings, brackets and continuations in mind (pythonFunctionSpans) when the text is plain
    // enough for that, else from each `def` to the next line indented no deeper (defBody).
    // The functions of one name are joined, one after the other.
    let bodies: Map<string, string> | undefined;
    return (name) => {
      if (!bodies) {
        const found = new Map<string, string>();
        const keep = (fn: string, body: string) => found.set(fn, found.has(fn) ? `${found.get(fn)}\n${body}` : body);
        const spans = pythonFunctionSpans(text);
        if (spans) {
          for (const s of spans) keep(s.name, text.slice(s.start, s.end));
        } else {
          for (const m of text.matchAll(/^([ \t]{0,200})(?:async[ \t]{1,8})?def[ \t]{1,8}(\w{1,200})[ \t]{0,8}\(/gm)) keep(m[2], defBody(text, m.index!, m[1].length, m.index! + m[0].length));
        }
        bodies = found;
      }
      return bodies.get(name);
    };
  },
  importedNames(text) {
    const froms: ImportedName[] = [];
    const plain: ImportedName[] = [];
    // Both statements have the word `import` on their first line, close to its start: the lines
    // are found from the word (a fast search of the text), and each is matched from its start.
    // The same matches as the patterns run over the whole text in multiline mode (`^`), which
    // tried every character of a file and was the larger part of reading a module's imports.
    let fromEnd = 0;
    let plainEnd = 0;
    let lastLine = -1;
    for (let at = text.indexOf('import'); at !== -1; at = text.indexOf('import', at + 6)) {
      const line = lineStartNear(text, at);
      if (line < 0 || line === lastLine) continue;
      lastLine = line;
      if (line >= fromEnd) {
        FROM_IMPORT.lastIndex = line;
        const m = FROM_IMPORT.exec(text);
        if (m) {
          fromEnd = line + m[0].length;
          for (const part of m[2].replace(/[()\\]/g, ' ').split(',')) {
            const n = /^\s*(\w+)(?:\s+as\s+(\w+))?/.exec(part);
            if (n && n[1] !== '*') froms.push({ spec: m[1], name: n[1], local: n[2] ?? n[1] });
          }
        }
      }
      if (line >= plainEnd) {
        PLAIN_IMPORT.lastIndex = line;
        const m = PLAIN_IMPORT.exec(text);
        if (m) {
          plainEnd = line + m[0].length;
          for (const part of m[1].split(',')) {
            const n = /^\s*([\w.]+)(?:\s+as\s+(\w+))?/.exec(part);
            if (n) plain.push({ spec: n[1], local: n[2] ?? n[1].split('.')[0] });
          }
        }
      }
    }
    return froms.concat(plain);
  },

};

// Bounded repetitions only (an import statement is short): linear in the text, whatever it holds.
const FROM_IMPORT = /[ \t]{0,80}from[ \t]{1,8}(\.{0,8}[\w.]{0,300})[ \t]{1,8}import[ \t]{1,8}(\([^)]{0,4000}\)|[^\n#]{0,4000})/y;
const PLAIN_IMPORT = /[ \t]{0,80}import[ \t]{1,8}([\w., \t]{1,4000})/y;
/** How far the word `import` of an import statement's first line can be from the line's start (FROM_IMPORT: 80 + 4 + 8 + 308 + 8). */
const IMPORT_WORD_REACH = 420;

/** Where the line holding `at` starts (after \n, \r, U+2028 or U+2029, as `^` in multiline mode), or -1 when that is farther back than IMPORT_WORD_REACH. */
function lineStartNear(text: string, at: number): number {
  for (let i = at - 1; i >= 0 && at - i <= IMPORT_WORD_REACH; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) return i + 1;
  }
  return at <= IMPORT_WORD_REACH ? 0 : -1;
}
