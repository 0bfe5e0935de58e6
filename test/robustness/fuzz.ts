/**
 * The fuzzer of test/robustness.test.ts: seeded mutations of the fixture and example files
 * (byte flips, truncation, splices between files, random unicode, deleted brackets, ...) and
 * the checks every analysis of such an input must pass.
 *
 * A case is fully described by (seed, index): `makeCase(inputs, seed, index)` rebuilds it, so
 * a failure is reproduced with PREFIXLINT_FUZZ_SEED=<seed> PREFIXLINT_FUZZ_CASE=<index>.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Analyzer, FileResult } from '../../src/engine/analyzer';
import { openDocument } from '../../src/engine/document';
import { fixToFixpoint } from '../../src/engine/fixpoint';
import type { LanguageId } from '../../src/core/model';
import { Notebook } from '../../src/lang/notebook';
import { languageForPath } from '../../src/lang/parsers';

/** sfc32, seeded: the same cases on every machine. */
export class Rng {
  private s: [number, number, number, number];

  constructor(seed: number) {
    this.s = [0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0];
    for (let i = 0; i < 15; i++) this.next();
  }

  next(): number {
    let [a, b, c, d] = this.s;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    this.s = [a, b, c, d];
    return (t >>> 0) / 4294967296;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** One seed per case, from the run's seed and the case's index. */
export function caseSeed(seed: number, index: number): number {
  let h = (seed ^ 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ index, 0xcc9e2d51) >>> 0;
  h = Math.imul(h ^ (h >>> 15), 0x1b873593) >>> 0;
  return (h ^ (h >>> 13)) >>> 0;
}

export interface Input {
  /** Absolute path of the file the input came from. */
  file: string;
  ext: string;
  text: string;
}

const EXTENSIONS = new Set(['.py', '.ts', '.tsx', '.js', '.jsx', '.ipynb']);

/** Every source file under the given folders (fixtures, examples), sorted for a stable order. */
/** A file as an editor holds it: its text and language (a notebook's code cells, as Python). */
export interface EditorBuffer {
  file: string;
  language: LanguageId;
  text: string;
}

/** The inputs of `dirs` (collectInputs) as editor buffers. */
export function editorBuffers(dirs: readonly string[]): EditorBuffer[] {
  const out: EditorBuffer[] = [];
  for (const input of collectInputs(dirs)) {
    if (input.ext === '.ipynb') {
      const nb = Notebook.parse(input.text);
      if (nb instanceof Notebook) out.push({ file: input.file, language: 'python', text: nb.virtual.text });
    } else out.push({ file: input.file, language: languageForPath(input.file)!, text: input.text });
  }
  return out;
}

export function collectInputs(dirs: readonly string[]): Input[] {
  const out: Input[] = [];
  const visit = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '_fuzz' && e.name !== 'node_modules') visit(p);
      } else if (EXTENSIONS.has(path.extname(e.name))) {
        out.push({ file: p, ext: path.extname(e.name), text: fs.readFileSync(p, 'utf8') });
      }
    }
  };
  for (const d of dirs) visit(d);
  return out;
}

// ---- mutations -------------------------------------------------------------------------------

const UNICODE = [
  '\u{1F600}', '\u{1F469}\u200D\u{1F4BB}', 'é', 'e\u0301', '\u202E', '\u200B', '\uFEFF', '\0', '\uD800', '\uDFFF', '\u2028', '\u2029',
  '中文', 'ß', '\r', '\t', '\f', '\v', '\x1B[31m', '\\', '"""', '`', '${', '#{', '\u00A0', '\uFFFD', '\u{10FFFF}',
];
const BRACKETS = /[()[\]{}]/g;

type Mutation = (text: string, rng: Rng, inputs: readonly Input[]) => string;

function at(text: string, rng: Rng): number {
  return rng.int(0, text.length);
}

export const MUTATIONS: Record<string, Mutation> = {
  /** Flips bits in the UTF-8 bytes; invalid sequences decode to U+FFFD, as an editor shows them. */
  'byte-flip': (text, rng) => {
    const bytes = Buffer.from(text, 'utf8');
    if (!bytes.length) return text;
    for (let i = rng.int(1, 8); i > 0; i--) bytes[rng.int(0, bytes.length - 1)] ^= 1 << rng.int(0, 7);
    return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  },
  /** Cuts the text anywhere (also inside a surrogate pair or a string). */
  truncate: (text, rng) => text.slice(0, at(text, rng)),
  /** The start of one file and the end of another (any language). */
  splice: (text, rng, inputs) => {
    const other = rng.pick(inputs).text;
    return text.slice(0, at(text, rng)) + other.slice(at(other, rng));
  },
  /** Odd characters at random places: astral, combining, bidi, zero-width, NUL, lone surrogates. */
  unicode: (text, rng) => {
    let out = text;
    for (let i = rng.int(1, 6); i > 0; i--) {
      const p = at(out, rng);
      out = out.slice(0, p) + rng.pick(UNICODE) + out.slice(p);
    }
    return out;
  },
  /** Deletes some brackets. */
  'delete-brackets': (text, rng) => {
    const positions = [...text.matchAll(BRACKETS)].map((m) => m.index);
    if (!positions.length) return text;
    const drop = new Set<number>();
    for (let i = rng.int(1, Math.min(8, positions.length)); i > 0; i--) drop.add(rng.pick(positions));
    return removeAt(text, drop);
  },
  /** Deletes or duplicates a range of lines. */
  lines: (text, rng) => {
    const lines = text.split('\n');
    const a = rng.int(0, lines.length - 1);
    const b = Math.min(lines.length, a + rng.int(1, 20));
    const chunk = lines.slice(a, b);
    if (rng.chance(0.5)) lines.splice(a, b - a);
    else lines.splice(rng.int(0, lines.length), 0, ...chunk);
    return lines.join('\n');
  },
  /** Wraps a range in a few hundred brackets (nesting, but within the analyser's depth limit). */
  nest: (text, rng) => {
    const a = at(text, rng);
    const b = a + rng.int(0, 200);
    const k = rng.int(1, 300);
    const [open, close] = rng.pick([['(', ')'], ['[', ']'], ['{', '}']]);
    return text.slice(0, a) + open.repeat(k) + text.slice(a, b) + close.repeat(k) + text.slice(b);
  },
  /** Line endings: all CRLF, all CR, or a mix. */
  'line-endings': (text, rng) => {
    const kind = rng.int(0, 2);
    if (kind === 0) return text.replace(/\r?\n/g, '\r\n');
    if (kind === 1) return text.replace(/\r?\n/g, '\r');
    return text.replace(/\n/g, () => rng.pick(['\n', '\r\n', '\r']));
  },
  /** Repeats a random slice many times (long lines, big literals). */
  repeat: (text, rng) => {
    const a = at(text, rng);
    const slice = text.slice(a, a + rng.int(1, 80));
    return text.slice(0, a) + slice.repeat(rng.int(2, 400)) + text.slice(a);
  },
};

function removeAt(text: string, drop: Set<number>): string {
  let out = '';
  for (let i = 0; i < text.length; i++) if (!drop.has(i)) out += text[i];
  return out;
}

/** A notebook whose cell sources are mutated (the JSON stays valid), so the Python gets fuzzed. */
function mutateCells(text: string, rng: Rng, inputs: readonly Input[], steps: string[]): string | undefined {
  let nb: { cells?: Array<{ cell_type?: string; source?: string | string[] }> };
  try {
    nb = JSON.parse(text);
  } catch {
    return undefined;
  }
  const code = (nb.cells ?? []).filter((c) => c.cell_type === 'code');
  if (!code.length) return undefined;
  const cell = rng.pick(code);
  const source = Array.isArray(cell.source) ? cell.source.join('') : (cell.source ?? '');
  const name = rng.pick(Object.keys(MUTATIONS));
  steps.push(`cell:${name}`);
  const mutated = MUTATIONS[name](source, rng, inputs);
  cell.source = rng.chance(0.5) ? mutated : mutated.split(/(?<=\n)/);
  return JSON.stringify(nb, null, 1);
}

export interface Case {
  seed: number;
  index: number;
  base: Input;
  /** The mutations applied, in order. */
  steps: string[];
  text: string;
}

export function makeCase(inputs: readonly Input[], seed: number, index: number): Case {
  const rng = new Rng(caseSeed(seed, index));
  const base = rng.pick(inputs);
  const steps: string[] = [];
  let text = base.text;
  if (base.ext === '.ipynb' && rng.chance(0.7)) {
    for (let i = rng.int(1, 2); i > 0; i--) text = mutateCells(text, rng, inputs, steps) ?? text;
  } else {
    for (let i = rng.int(1, 3); i > 0; i--) {
      const name = rng.pick(Object.keys(MUTATIONS));
      steps.push(name);
      text = MUTATIONS[name](text, rng, inputs);
    }
  }
  return { seed, index, base, steps, text };
}

// ---- checks ----------------------------------------------------------------------------------

export interface Outcome {
  ms: number;
  result?: FileResult;
  /** What went wrong: an exception, a broken invariant, or a time over the limit. */
  problem?: string;
}

export const TIME_LIMIT_MS = 1000;

/** The path the case is analysed under: beside its base file, so relative imports resolve. */
export function casePath(c: Pick<Case, 'base'>): string {
  return path.join(path.dirname(c.base.file), `__fuzz_case__${c.base.ext}`);
}

/**
 * Analyses a text (a notebook as the engine's document) and checks: nothing throws, the result
 * has diagnostics or a one-line notice, no internal error, every range is inside the text, and
 * (with `fix`) fixing through the fix loop never throws and never makes a cleanly parsing file
 * parse with errors.
 */
export function check(analyzer: Analyzer, file: string, text: string, opts: { fix?: boolean } = {}): Outcome {
  const t0 = performance.now();
  let result: FileResult;
  let analysed = text;
  try {
    if (file.endsWith('.ipynb')) {
      const doc = openDocument(file, text);
      if ('notice' in doc) {
        result = { file, language: 'python', diagnostics: [], calls: [], notice: doc.notice };
      } else {
        result = analyzer.analyze(file, doc.analysedText, doc.language);
        analysed = doc.analysedText;
        for (const d of result.diagnostics) doc.locate(d.at.start);
      }
    } else {
      result = analyzer.analyze(file, text);
    }
  } catch (err) {
    return { ms: performance.now() - t0, problem: `threw: ${describe(err)}` };
  }
  const ms = performance.now() - t0;
  const problem = invariants(result, analysed) ?? (opts.fix ? fixProblem(analyzer, file, text) : undefined);
  return { ms, result, problem };
}

function invariants(result: FileResult, text: string): string | undefined {
  if (!result || !Array.isArray(result.diagnostics)) return 'no result';
  if (result.notice !== undefined) {
    if (!result.notice.trim() || /[\r\n]/.test(result.notice)) return `notice is not one line: ${JSON.stringify(result.notice)}`;
    if (result.noticeKind === 'internal' || /internal error/i.test(result.notice)) return `internal error: ${result.notice}`;
  }
  for (const d of result.diagnostics) {
    const bad = (s: number, e: number) => !(Number.isInteger(s) && Number.isInteger(e) && 0 <= s && s <= e && e <= text.length);
    if (bad(d.at.start, d.at.end)) return `${d.ruleId}: range ${d.at.start}-${d.at.end} outside the text (${text.length})`;
    for (const e of d.fix?.edits ?? []) if (bad(e.start, e.end)) return `${d.ruleId}: fix edit ${e.start}-${e.end} outside the text (${text.length})`;
  }
  return undefined;
}

function fixProblem(analyzer: Analyzer, file: string, text: string): string | undefined {
  const doc = openDocument(file, text);
  if ('notice' in doc) return undefined;
  try {
    const before = analyzer.parsesCleanly(file, doc.analysedText, doc.language);
    for (const unsafe of [false, true]) {
      const fixed = fixToFixpoint(analyzer, doc, { unsafe }).document;
      if (before && !analyzer.parsesCleanly(file, fixed.analysedText, fixed.language)) return `${unsafe ? 'unsafe' : 'safe'} fixes made a clean file parse with errors`;
    }
  } catch (err) {
    return `fixing threw: ${describe(err)}`;
  }
  return undefined;
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message.split('\n')[0]}` : String(err);
}

/** Where failing inputs are kept, as regression fixtures. */
export const FUZZ_FIXTURES = path.resolve(__dirname, '..', 'fixtures', '_fuzz');

/** Saves a failing case as a fixture (its text, byte for byte) and a note of how it was made. */
export function saveFailure(c: Case, problem: string): string {
  fs.mkdirSync(FUZZ_FIXTURES, { recursive: true });
  const name = `seed-${c.seed}-case-${c.index}`;
  const file = path.join(FUZZ_FIXTURES, name + c.base.ext);
  fs.writeFileSync(file, c.text);
  const note = {
    seed: c.seed,
    case: c.index,
    base: path.relative(path.resolve(__dirname, '..', '..'), c.base.file),
    steps: c.steps,
    problem,
    reproduce: `PREFIXLINT_FUZZ_SEED=${c.seed} PREFIXLINT_FUZZ_CASE=${c.index} npx vitest run test/robustness.test.ts`,
  };
  fs.writeFileSync(path.join(FUZZ_FIXTURES, name + '.json'), JSON.stringify(note, null, 2) + '\n');
  return file;
}

/** The saved failing inputs (regression fixtures), with the path they are analysed under. */
export function savedFailures(): Array<{ file: string; text: string; note?: { base?: string } }> {
  if (!fs.existsSync(FUZZ_FIXTURES)) return [];
  return fs
    .readdirSync(FUZZ_FIXTURES)
    .filter((n) => EXTENSIONS.has(path.extname(n)))
    .sort()
    .map((n) => {
      const file = path.join(FUZZ_FIXTURES, n);
      const notePath = file.slice(0, -path.extname(n).length) + '.json';
      const note = fs.existsSync(notePath) ? JSON.parse(fs.readFileSync(notePath, 'utf8')) : undefined;
      return { file, text: fs.readFileSync(file, 'utf8'), note };
    });
}

/** A notebook's parse check for fix safety. */
export function notebookParses(analyzer: Analyzer, file: string, text: string): boolean {
  const nb = Notebook.parse(text);
  return nb instanceof Notebook && analyzer.parsesCleanly(file + '.py', nb.virtualText, 'python');
}
