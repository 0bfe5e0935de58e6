/**
 * Which files `prefixlint check` looks at: the paths and globs given (default: the current
 * folder), walked recursively, minus what .gitignore files and the default excludes leave out.
 *
 * - A file named explicitly is always checked (also when ignored), if its type is supported.
 * - Directories are walked; files and folders that a .gitignore ignores are skipped. The
 *   .gitignore files of the folders above a path count too, up to the repository root (the
 *   nearest folder with `.git`), or up to the current folder outside a repository.
 * - Globs (tinyglobby syntax) are matched from the current folder; their matches pass the same
 *   .gitignore and default-exclude filters as a walk.
 * - The configuration's `exclude` and `include` (an `excluded` callback) filter walks and globs
 *   like .gitignore does.
 * - A path that does not exist is a usage error; a glob that matches nothing is a warning.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { globSync, isDynamicPattern } from 'tinyglobby';

export const SOURCE_EXTENSIONS = ['.py', '.pyi', '.ts', '.mts', '.cts', '.tsx', '.js', '.jsx', '.mjs', '.cjs', '.ipynb'];

/** Folders never walked into (a path given explicitly inside one is still checked). */
export const DEFAULT_EXCLUDED_DIRS = ['node_modules', '.git', 'dist', '.venv', 'venv', '__pycache__', '.ipynb_checkpoints'];

/**
 * Files never picked up by a walk or a glob (one given explicitly is still checked): minified
 * bundles (`*.min.js`), which are build output, not source, as Semgrep's default ignores have it.
 */
export const DEFAULT_EXCLUDED_FILES = /\.min\.(?:js|mjs|cjs)$/i;

function excludedByDefault(abs: string): boolean {
  return DEFAULT_EXCLUDED_FILES.test(path.basename(abs));
}

export interface Discovery {
  /** Absolute paths, sorted, without duplicates. */
  files: string[];
  /** Paths given explicitly that are not checked, with the reason. */
  skipped: Array<{ file: string; reason: string }>;
  /** Usage errors: paths that do not exist. */
  errors: string[];
  /** Globs that matched no file. */
  warnings: string[];
  /** Whether the configuration left out any file or folder (its `exclude` / `include`). */
  configExcluded?: boolean;
}

export function isSourceFile(file: string): boolean {
  return SOURCE_EXTENSIONS.includes(path.extname(file).toLowerCase());
}

/** Whether a file or folder found by a walk or a glob is left out (the configuration's exclude/include). */
export type Excluded = (abs: string, isDir: boolean) => boolean;

/**
 * Called with the names of each folder the walk lists, before its entries are judged: what a
 * walk-long host can answer "does this file exist?" from (the configuration files looked for in
 * every folder), instead of asking the file system again.
 */
export type FolderListed = (folder: string, names: ReadonlySet<string>) => void;

/** The names of folders a walk listed, to answer "does this file exist?" from (see FolderListed). */
export class FolderListings {
  private readonly byFolder = new Map<string, ReadonlySet<string>>();

  note(folder: string, names: ReadonlySet<string>): void {
    this.byFolder.set(folder, names);
  }

  /** Whether `folder` holds `name`, by its listing; undefined for a folder not listed. */
  holds(folder: string, name: string): boolean | undefined {
    return this.byFolder.get(folder)?.has(name);
  }
}

/**
 * A part of a walk shared by several walkers (threads), each with its own discoverFiles: the
 * entries of each folder given are handed out one at a time, `claim(k)` giving the next entry of
 * the k-th folder argument (its index in name order) that no walker has taken. Only walker 0
 * (`first`) reads the arguments that are no folder (files, globs, errors). The union of the
 * walkers' files is the whole walk's.
 */
export interface WalkShare {
  claim(argument: number): number;
  first: boolean;
}

export function discoverFiles(args: readonly string[], cwd: string, excludedByConfig: Excluded = () => false, folderListed?: FolderListed, share?: WalkShare): Discovery {
  const found = new Set<string>();
  const out: Discovery = { files: [], skipped: [], errors: [], warnings: [], configExcluded: false };
  const configExcluded: Excluded = (abs, isDir) => {
    const left = excludedByConfig(abs, isDir);
    if (left) out.configExcluded = true;
    return left;
  };
  const filter = new GitIgnoreFilter(cwd, walkedFolders(args, cwd));
  const excluded = new Set(DEFAULT_EXCLUDED_DIRS);

  /** A folder's entries, told to the filter and to `folderListed` first; undefined when it cannot be read. */
  const list = (dir: string): fs.Dirent[] | undefined => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const names = new Set(entries.map((e) => e.name));
    filter.listings.note(dir, names);
    folderListed?.(dir, names);
    return entries;
  };
  const walk = (dir: string, entries: fs.Dirent[] | undefined = list(dir)): void => {
    if (!entries?.length) return;
    const ignored = filter.entriesIgnored(dir);
    for (const entry of entries) visit(dir, entry, ignored);
  };
  const visit = (dir: string, entry: fs.Dirent, ignored: EntriesIgnored): void => {
    // `dir` is resolved and a listed name holds no separator: what path.join gives, without normalising again.
    const abs = dir.endsWith(path.sep) ? dir + entry.name : dir + path.sep + entry.name;
    // Symbolic links to files are followed; links to folders are not (no cycles).
    const isDir = entry.isDirectory();
    const isFile = entry.isFile() || (entry.isSymbolicLink() && isSourceFile(abs));
    if (isDir) {
      if (excluded.has(entry.name) || ignored(entry.name, true)) return;
      // Listed before the configuration judges it: that asks which of its files are configuration files.
      const inner = list(abs);
      if (inner && !configExcluded(abs, true)) walk(abs, inner);
    } else if (isFile && isSourceFile(abs) && !excludedByDefault(abs) && !ignored(entry.name, false) && !configExcluded(abs, false)) {
      found.add(abs);
    }
  };

  const given = args.length ? args : ['.'];
  for (let k = 0; k < given.length; k++) {
    const arg = given[k];
    const abs = path.resolve(cwd, arg);
    const stat = statOrUndefined(abs);
    if (stat?.isDirectory()) {
      if (!share) walk(abs);
      else {
        // In name order, so that every walker numbers the entries alike.
        const entries = (list(abs) ?? []).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const ignored = filter.entriesIgnored(abs);
        for (let t = share.claim(k); t < entries.length; t = share.claim(k)) visit(abs, entries[t], ignored);
      }
    } else if (share && !share.first) {
      continue;
    } else if (stat) {
      if (isSourceFile(abs)) found.add(abs);
      else out.skipped.push({ file: abs, reason: 'unsupported file type' });
    } else if (isDynamicPattern(arg)) {
      const matches = globSync(arg, {
        cwd,
        absolute: true,
        onlyFiles: true,
        ignore: DEFAULT_EXCLUDED_DIRS.map((d) => `**/${d}/**`),
      });
      const kept = matches.map((m) => path.resolve(m)).filter((m) => isSourceFile(m) && !excludedByDefault(m) && !filter.ignored(m, false) && !excludedWithFolders(m, configExcluded));
      if (kept.length === 0) out.warnings.push(`${arg}: no files matched`);
      for (const m of kept) found.add(m);
    } else {
      out.errors.push(`${arg}: no such file or directory`);
    }
  }
  out.files = [...found].sort();
  return out;
}

/** A file found by a glob or in a change list is left out when it, or a folder above it, is excluded. */
function excludedWithFolders(abs: string, configExcluded: Excluded): boolean {
  if (configExcluded(abs, false)) return true;
  for (let dir = path.dirname(abs); path.dirname(dir) !== dir; dir = path.dirname(dir)) if (configExcluded(dir, true)) return true;
  return false;
}

/**
 * The changed files (absolute paths) that a check of `args` would look at: inside the folders,
 * among the files or matching the globs given (anything under the current folder without
 * arguments), and kept by the same filters as a walk.
 */
export function selectChanged(changed: readonly string[], args: readonly string[], cwd: string, configExcluded: Excluded = () => false): string[] {
  const filter = new GitIgnoreFilter(cwd, walkedFolders(args, cwd));
  const folders: string[] = [];
  const matched = new Set<string>();
  for (const arg of args.length ? args : ['.']) {
    if (isDynamicPattern(arg)) for (const m of globSync(arg, { cwd, absolute: true, onlyFiles: true })) matched.add(path.resolve(m));
    else folders.push(path.resolve(cwd, arg));
  }
  return [...new Set(changed)]
    .filter((f) => isSourceFile(f) && !excludedByDefault(f) && fs.existsSync(f) && (matched.has(f) || folders.some((d) => isInside(f, d))))
    .filter((f) => {
      const dirs = path.relative(cwd, f).split(path.sep).slice(0, -1);
      if (dirs.some((d) => DEFAULT_EXCLUDED_DIRS.includes(d))) return false;
      return !filter.ignored(f, false) && !excludedWithFolders(f, configExcluded);
    })
    .sort();
}

/** The folders among a walk's arguments (absolute; none given: the current folder); globs and files are none. */
export function walkedFolders(args: readonly string[], cwd: string): string[] {
  return (args.length ? args : ['.']).filter((a) => !isDynamicPattern(a)).map((a) => path.resolve(cwd, a)).filter((abs) => statOrUndefined(abs)?.isDirectory());
}

function statOrUndefined(abs: string): fs.Stats | undefined {
  try {
    return fs.statSync(abs);
  } catch {
    // A dangling symbolic link given explicitly still exists; reading it reports why it fails.
    try {
      return fs.lstatSync(abs);
    } catch {
      return undefined;
    }
  }
}

/**
 * Answers "does git ignore this path?" from the .gitignore files between a path and its root,
 * loading each folder's rules once. Deeper files override shallower ones (`!pattern` works
 * across files), and nothing inside an ignored folder is seen.
 */
export class GitIgnoreFilter {
  private readonly rules = new Map<string, GatedIgnore | null>();
  private readonly roots = new Map<string, string>();
  private readonly verdicts = new Map<string, boolean>();

  /** The folders the walk listed: a folder without `.gitignore` (most) is not read for one, nor asked for `.git`. */
  readonly listings = new FolderListings();

  constructor(
    private readonly cwd: string,
    /** The folders given to the walk (absolute): outside the current folder and any repository, the root of what is below them. */
    private readonly walked: readonly string[] = [],
  ) {}

  /** Whether `dir` holds `name`: from the walk's listing when it has one, else from the file system. */
  private holds(dir: string, name: string): boolean {
    return this.listings.holds(dir, name) ?? fs.existsSync(path.join(dir, name));
  }

  /**
   * Whether git ignores each entry of folder `dir`, by name: what the entries share (the folder's
   * rules, whether the folder itself is ignored, its path below each rules file) is found once
   * for all of them. A walk asks this of every folder it lists; asking `ignored` of each entry
   * looked its folder up again for each (~40% of a walk's time on the real-code corpus).
   */
  entriesIgnored(dir: string): EntriesIgnored {
    const folder = this.folder(dir);
    if (!folder.inside) return () => false;
    if (dir !== folder.root && this.ignored(dir, true)) return () => true;
    const tests = folder.rules.map(({ dir: d, ig }) => ig.entryTest(relativeBelow(d, dir)));
    return (name, isDir) => {
      let ignored = false;
      for (const test of tests) {
        const r = test(name, isDir);
        if (r.ignored) ignored = true;
        else if (r.unignored) ignored = false;
      }
      return ignored;
    };
  }

  ignored(abs: string, isDir: boolean): boolean {
    const key = isDir ? abs + path.sep : abs;
    let v = this.verdicts.get(key);
    if (v === undefined) {
      v = this.compute(abs, isDir);
      this.verdicts.set(key, v);
    }
    return v;
  }

  private compute(abs: string, isDir: boolean): boolean {
    const parent = path.dirname(abs);
    if (abs === this.folder(parent).root) return false;
    return this.entriesIgnored(parent)(path.basename(abs), isDir);
  }

  /** What the entries of a folder are judged by: its root, and the rules from the root down to it (asked once per folder). */
  private folder(dir: string): { root: string; inside: boolean; rules: Array<{ dir: string; ig: GatedIgnore }> } {
    let f = this.folders.get(dir);
    if (!f) {
      const root = this.rootOf(dir);
      const rules: Array<{ dir: string; ig: GatedIgnore }> = [];
      for (const d of chain(root, dir)) {
        const ig = this.rulesOf(d, d === root);
        if (ig) rules.push({ dir: d, ig });
      }
      // An entry of `dir` is inside the root when `dir` is (the root is `dir` or above it).
      f = { root, inside: isInside(dir, root), rules };
      this.folders.set(dir, f);
    }
    return f;
  }

  private readonly folders = new Map<string, { root: string; inside: boolean; rules: Array<{ dir: string; ig: GatedIgnore }> }>();

  /**
   * The nearest folder holding `.git`; outside a repository the current folder, else the
   * outermost folder given to the walk that holds `dir` (or the folder itself): a folder checked
   * from elsewhere is read as from inside it, its nested `.gitignore` files applying to every
   * folder below them. (With each folder its own root, a `.gitignore` ruled only its own entries.)
   */
  private rootOf(dir: string): string {
    const repository = this.gitRoot(dir);
    if (repository) return repository;
    if (isInside(dir, this.cwd)) return this.cwd;
    let root = dir;
    for (const f of this.walked) if (isInside(dir, f) && isInside(root, f)) root = f;
    return root;
  }

  private gitRoot(dir: string): string {
    let root = this.roots.get(dir);
    if (root === undefined) {
      const up = path.dirname(dir);
      if (this.holds(dir, '.git')) root = dir;
      else root = up === dir ? '' : this.gitRoot(up);
      this.roots.set(dir, root);
    }
    return root;
  }

  private rulesOf(dir: string, isRoot: boolean): GatedIgnore | null {
    let ig = this.rules.get(dir);
    if (ig === undefined) {
      const texts = [this.holds(dir, '.gitignore') ? readText(path.join(dir, '.gitignore')) : undefined];
      if (isRoot && this.holds(dir, '.git')) texts.unshift(readText(path.join(dir, '.git', 'info', 'exclude')));
      const present = texts.filter((t): t is string => t !== undefined);
      ig = present.length ? new GatedIgnore(present) : null;
      this.rules.set(dir, ig);
    }
    return ig;
  }
}

/** Whether git ignores an entry of one folder, by its name (GitIgnoreFilter.entriesIgnored). */
export type EntriesIgnored = (name: string, isDir: boolean) => boolean;

type Verdict = { ignored: boolean; unignored: boolean };

/**
 * A folder's ignore rules (the `ignore` package's), with a quick test in front: a path that
 * holds none of the words its patterns require matches none of them, nor does any folder above
 * it (a prefix of it), so the package's regular expressions need not run. A pattern of plain
 * names (`build/`, `/docs/_build`, `.env`) requires a whole name of the path (requiredName);
 * another one a word anywhere in it (requiredWord). A repository's `.gitignore` holds ~100
 * patterns, and each path of a walk was tested against every one: on the real-code corpus that
 * was half of a walk's time (~240 ms of ~450 on one thread). With words alone, 61% of its paths
 * held none; whole names are rarer (a `lib/` pattern is no longer held by every path under `libs`).
 */
export class GatedIgnore {
  private readonly ig: Ignore = ignore();
  /** One word of each pattern that requires one anywhere, lower-cased (none of which holds another). */
  private readonly words: string[] = [];
  /** One name of each pattern of plain names, lower-cased. */
  private readonly names = new Set<string>();
  /** Every pattern requires a word or a name: the quick test can tell. */
  private readonly gated: boolean = true;

  constructor(texts: readonly string[]) {
    const words: string[] = [];
    for (const text of texts) {
      this.ig.add(text);
      for (const line of text.split(/\r?\n/)) {
        const name = requiredName(line);
        const required = name === undefined ? requiredWords(line) : [];
        if (name) this.names.add(name);
        else if (required) words.push(...required);
        else this.gated = false;
      }
    }
    // A word that holds another one adds nothing: a path that holds it holds the other.
    this.words = [...new Set(words)].filter((w, _, all) => !all.some((o) => o !== w && w.includes(o)));
  }

  /** The rules' verdict on a path below this rules file's folder (`/` at the end for a folder). */
  test(relative: string): Verdict {
    const isDir = relative.endsWith('/');
    const entry = isDir ? relative.slice(0, -1) : relative;
    const cut = entry.lastIndexOf('/');
    return this.entryTest(cut < 0 ? '' : entry.slice(0, cut))(entry.slice(cut + 1), isDir);
  }

  /**
   * The test of each entry of one folder, by its name: `prefix` is the folder's path below this
   * rules file's folder ('' for that folder itself). Whether the prefix holds a word or name is
   * found once: none spans a `/`, so the path holds one when the prefix or the name does.
   */
  entryTest(prefix: string): (name: string, isDir: boolean) => Verdict {
    const base = prefix ? `${prefix}/` : '';
    const always = !this.gated || (prefix !== '' && this.holds(prefix.toLowerCase()));
    return (name, isDir) => {
      if (!always && !this.holds(name.toLowerCase())) return NO_MATCH;
      return this.ig.test(base + name + (isDir ? '/' : ''));
    };
  }

  /** Whether a lower-cased path (a folder's, or one name) holds a word or a name of the patterns. */
  private holds(lower: string): boolean {
    if (this.words.some((w) => lower.includes(w))) return true;
    if (!this.names.size) return false;
    for (const part of lower.split('/')) if (this.names.has(part)) return true;
    return false;
  }
}

const NO_MATCH: Verdict = { ignored: false, unignored: false };

/**
 * For a pattern of plain names only (letters, digits, `.`, `_`, `-`, separated by `/`, with an
 * optional `!` and leading or trailing `/`): one name that every path it matches holds whole, as
 * one of its folders or as its file name (the longest, lower-cased: the package ignores case by
 * default, and only ASCII letters match one another across case). Undefined for any other line.
 */
export function requiredName(line: string): string | undefined {
  const m = /^!?\/?((?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+)\/?$/.exec(line);
  if (!m) return undefined;
  let best = '';
  for (const part of m[1].split('/')) if (part.length > best.length && !/^\.+$/.test(part)) best = part;
  return best ? best.toLowerCase() : undefined;
}

/**
 * A word that every path a gitignore pattern matches holds (a file or folder name, a part of
 * one), lower-cased: the longest run of letters, digits, `.`, `_` and `-` in the pattern's plain
 * parts, each run being matched as it is written (or in any case: the package ignores case by
 * default). Plain: outside bracket expressions (one of them matches one character of a set), so
 * before the first `[` and after the last `]` (a bracket that holds the last `]` never closes,
 * and then the pattern matches nothing), and cut at every other character (`*`, `?`, a
 * backslash's escape, `/`, a space). `''` for a line that is no pattern (blank, a comment);
 * undefined for a pattern with no such word (`*`).
 */
export function requiredWord(line: string): string | undefined {
  if (!line.trim() || line.startsWith('#')) return '';
  const open = line.indexOf('[');
  const close = line.lastIndexOf(']');
  const plain = open < 0 ? [line] : [line.slice(0, open), close > open ? line.slice(close + 1).split('[', 1)[0] : ''];
  let best = '';
  for (const part of plain) for (const run of part.split(/[^A-Za-z0-9._-]+/)) if (run.length > best.length) best = run;
  return best ? best.toLowerCase() : undefined;
}

/**
 * requiredWord as a list ([] for a line that is no pattern), or, for a pattern with one set of
 * plain characters in brackets (`*.py[cod]`), the words it requires through that set when they
 * are longer: one for each character of the set (`.pyc`, `.pyo`, `.pyd`), of which every path
 * it matches holds one. (`*.py[cod]` required only `.py`, which every Python file holds.)
 */
export function requiredWords(line: string): string[] | undefined {
  const word = requiredWord(line);
  if (word === '') return [];
  const m = /^([^[\]\\]*)\[([A-Za-z0-9._]+)\]([^[\]\\]*)$/.exec(line);
  if (m) {
    const before = /[A-Za-z0-9._-]*$/.exec(m[1])![0];
    const after = /^[A-Za-z0-9._-]*/.exec(m[3])![0];
    const each = [...new Set([...m[2].toLowerCase()].map((c) => (before + c + after).toLowerCase()))];
    if (each.every((w) => w.length > (word?.length ?? 0))) return each;
  }
  return word === undefined ? undefined : [word];
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The path of `abs` below its folder `dir`, with forward slashes (path.relative, without resolving both paths again). */
function relativeBelow(dir: string, abs: string): string {
  const rel = abs.slice(dir.endsWith(path.sep) ? dir.length : dir.length + 1);
  return path.sep === '/' ? rel : toPosix(rel);
}

/** Folders from `root` down to `dir`, both included. */
function chain(root: string, dir: string): string[] {
  const dirs: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    dirs.push(d);
    if (d === root || path.dirname(d) === d) break;
  }
  return dirs.reverse();
}

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
