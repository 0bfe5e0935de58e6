/**
 * Jupyter notebooks (.ipynb) as one Python text.
 *
 * The code cells of a notebook share one namespace when they run, so a value defined in cell 1
 * and used in cell 3 must resolve: all code cells are joined, in order, into one virtual Python
 * text. IPython syntax (line magics `%x`, shell escapes `!x`, `name = !x`, help `x?`, and cell
 * magics `%%x`) is replaced by blanks of the same length (or `...`, so that an indented block
 * keeps a statement), which keeps every offset inside a cell stable.
 *
 * Offsets of the virtual text map back to a cell (its index in the notebook's `cells` list,
 * markdown cells counted, as an editor numbers them) and to the raw .ipynb text. The raw
 * mapping decodes the JSON string escapes of each `source` string, so it is exact: an offset on
 * an escaped character (`\"`, `\n`, `\u00e9`) maps to the start of its escape.
 *
 * Fix edits (virtual offsets) are applied to the cell sources and written back by replacing
 * only the `source` value of each changed cell, in the layout the file already uses; the rest
 * of the file stays byte for byte. For a file in Jupyter's own layout (`JSON.stringify(nb,
 * null, 1)` + newline, `source` as a list of lines) the result is exactly what Jupyter writes.
 *
 * No file system, no editor: text in, text out. Bad input gives a one-line notice, never a throw.
 */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Node as JsonNode, ParseError } from 'jsonc-parser';
import { applyFixes as applyTextFixes } from '../core/fix';
import type { Fix } from '../core/fix';
import { LineIndex } from '../core/span';
import type { Position, TextEdit } from '../core/span';

/** Whether a file is a notebook (analysed as the Python text of its code cells). */
export function isNotebook(file: string): boolean {
  return /\.ipynb$/i.test(file);
}

// ---------------------------------------------------------------------------------------------
// The virtual Python text
// ---------------------------------------------------------------------------------------------

/** A half-open range of UTF-16 offsets. */
export interface Range {
  start: number;
  end: number;
}

/** IPython syntax replaced in a cell; `wholeCell` for a cell magic whose body is not Python. */
export interface BlankedRange extends Range {
  wholeCell?: boolean;
}

/** One code cell inside the virtual text. */
export interface VirtualCell {
  /** Index of the cell in the notebook's `cells` list (0-based, all cell kinds counted). */
  index: number;
  /** The cell's source, as written. */
  source: string;
  /** Offset of the cell's first character in the virtual text. */
  start: number;
  /** Ranges of `source` (cell-relative) that were blanked because they are IPython syntax. */
  blanked: BlankedRange[];
  readonly lines: LineIndex;
}

/** A position inside a cell: 0-based line and UTF-16 column of the cell's source. */
export interface CellPosition {
  cell: number;
  line: number;
  column: number;
}

/** Cell magics whose body is Python, run as usual: only their first line is blanked. */
const PYTHON_BODY_CELL_MAGICS = new Set(['time', 'timeit', 'capture', 'prun']);

/**
 * The code cells of a notebook joined into one Python text. A newline is added after a cell
 * whose source does not end with one, so that cells never run into each other.
 */
export class VirtualPython {
  private constructor(
    readonly text: string,
    readonly cells: readonly VirtualCell[],
  ) {}

  /** Builds the virtual text from code cells in execution order. */
  static build(cells: ReadonlyArray<{ index: number; source: string }>): VirtualPython {
    let text = '';
    const out: VirtualCell[] = [];
    for (const c of cells) {
      const { text: python, blanked } = blankIpython(c.source);
      out.push({ index: c.index, source: c.source, start: text.length, blanked, lines: new LineIndex(c.source) });
      text += python;
      if (!python.endsWith('\n')) text += '\n';
    }
    return new VirtualPython(text, out);
  }

  /**
   * The cell an offset belongs to. An offset on the newline that separates two cells belongs to
   * the cell before it (the end of its source).
   */
  cellAt(offset: number): VirtualCell | undefined {
    let lo = 0;
    let hi = this.cells.length - 1;
    if (hi < 0) return undefined;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.cells[mid].start <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.cells[lo];
  }

  /** The offset within its cell's source, clamped to the source (the separator maps to its end). */
  cellOffset(offset: number): { cell: VirtualCell; offset: number } | undefined {
    const cell = this.cellAt(offset);
    if (!cell) return undefined;
    return { cell, offset: Math.max(0, Math.min(offset - cell.start, cell.source.length)) };
  }

  cellPosition(offset: number): CellPosition | undefined {
    const at = this.cellOffset(offset);
    if (!at) return undefined;
    const p = at.cell.lines.position(at.offset);
    return { cell: at.cell.index, line: p.line, column: p.column };
  }

  /** The virtual offset of a position inside a cell (for editors that address cells). */
  offsetOf(pos: CellPosition): number | undefined {
    const cell = this.cells.find((c) => c.index === pos.cell);
    return cell ? cell.start + cell.lines.offset({ line: pos.line, column: pos.column }) : undefined;
  }

  /**
   * Maps edits of the virtual text to edits of cell sources, keyed by cell index. Undefined when
   * an edit spans two cells or touches blanked IPython syntax: such a fix cannot be written back.
   */
  toCellEdits(edits: readonly TextEdit[]): Map<number, TextEdit[]> | undefined {
    const byCell = new Map<number, TextEdit[]>();
    for (const e of edits) {
      const cell = this.cellAt(e.start);
      if (!cell || e.start < cell.start || e.end > cell.start + cell.source.length || e.end < e.start) return undefined;
      const edit = { start: e.start - cell.start, end: e.end - cell.start, newText: e.newText };
      if (cell.blanked.some((b) => edit.start < b.end && b.start < edit.end)) return undefined;
      // Nothing may be inserted into a cell whose body is not Python (`%%bash`, `%%html`).
      if (cell.blanked.some((b) => b.wholeCell && b.start <= edit.start && edit.end <= b.end)) return undefined;
      const list = byCell.get(cell.index) ?? [];
      list.push(edit);
      byCell.set(cell.index, list);
    }
    return byCell;
  }
}

/**
 * Replaces IPython syntax in one cell by Python of the same length. Only the start of a logical
 * line can hold a magic: lines inside strings, brackets and backslash continuations are left as
 * they are, so a prompt line that starts with `%` or `!` inside a triple-quoted string is kept.
 */
export function blankIpython(source: string): { text: string; blanked: BlankedRange[] } {
  const blanked: BlankedRange[] = [];
  const lead = /^(?:[ \t]*(?:\r\n|\n|\r))*[ \t]*/.exec(source)![0].length;
  if (source.startsWith('%%', lead)) {
    const name = /^%%(\w+)/.exec(source.slice(lead))?.[1] ?? '';
    if (PYTHON_BODY_CELL_MAGICS.has(name)) {
      const lineEnd = endOfLine(source, lead);
      blanked.push({ start: lead, end: lineEnd });
      const rest = blankIpython(source.slice(lineEnd));
      for (const r of rest.blanked) blanked.push({ ...r, start: r.start + lineEnd, end: r.end + lineEnd });
      return { text: source.slice(0, lead) + statementFiller(lineEnd - lead) + rest.text, blanked };
    }
    blanked.push({ start: lead, end: source.length, wholeCell: true });
    return { text: source.slice(0, lead) + source.slice(lead).replace(/[^\r\n]/g, ' '), blanked };
  }

  let text = '';
  let copied = 0;
  scanLogicalLines(source, (start) => {
    const line = source.slice(start, endOfLine(source, start));
    const indent = /^[ \t]*/.exec(line)![0].length;
    const body = line.slice(indent);
    let from = -1;
    if (/^[%!]/.test(body) || /^\?{1,2}[\w.]+\s*$/.test(body) || /^[\w.]+\?{1,2}\s*$/.test(body)) {
      from = start + indent;
    } else {
      const assign = /^[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*(?=[!%])/.exec(body);
      if (assign) from = start + indent + assign[0].length;
    }
    if (from < 0) return undefined;
    // A magic continues over lines that end with a backslash.
    let end = endOfLine(source, start);
    while (source[end - 1] === '\\' && end < source.length) end = endOfLine(source, skipNewline(source, end));
    blanked.push({ start: from, end });
    const firstLineEnd = endOfLine(source, from);
    const filler = from === start + indent ? statementFiller(firstLineEnd - from) : expressionFiller(firstLineEnd - from);
    text += source.slice(copied, from) + filler + source.slice(firstLineEnd, end).replace(/[^\r\n]/g, ' ');
    copied = end;
    return end;
  });
  text += source.slice(copied);
  return { text, blanked };
}

/** `...` padded to `length` (a statement that fits an indented block), or spaces when shorter. */
function statementFiller(length: number): string {
  return length >= 3 ? '...'.padEnd(length, ' ') : ' '.repeat(length);
}

/** An expression of exactly `length` characters (the right side of `x = !cmd`). */
function expressionFiller(length: number): string {
  return length >= 3 ? '...'.padEnd(length, ' ') : '0'.padEnd(length, ' ');
}

function endOfLine(s: string, from: number): number {
  let i = from;
  while (i < s.length && s[i] !== '\n' && s[i] !== '\r') i++;
  return i;
}

function skipNewline(s: string, at: number): number {
  if (s[at] === '\r' && s[at + 1] === '\n') return at + 2;
  return at < s.length ? at + 1 : at;
}

/**
 * Calls `atLineStart` at every offset where a logical Python line starts: outside strings and
 * brackets, and not after a backslash continuation. When it returns an offset, scanning resumes
 * there (the caller took the line as IPython syntax, which is not tokenized as Python). A light
 * tokenizer: quotes, triple quotes, escapes, comments and brackets.
 */
function scanLogicalLines(s: string, atLineStart: (start: number) => number | undefined): void {
  let depth = 0;
  let quote = '';
  let i = atLineStart(0) ?? 0;
  while (i < s.length) {
    const ch = s[i];
    if (quote) {
      if (ch === '\\') {
        i += 2;
        continue;
      }
      if (s.startsWith(quote, i)) {
        i += quote.length;
        quote = '';
        continue;
      }
      // A single-quoted string ends at the line end (unterminated: the parser reports it).
      if (quote.length > 1 || (ch !== '\n' && ch !== '\r')) {
        i++;
        continue;
      }
      quote = '';
    }
    if (ch === '#') {
      i = endOfLine(s, i);
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = s.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
      i += quote.length;
      continue;
    }
    if (ch === '\\' && (s[i + 1] === '\n' || s[i + 1] === '\r')) {
      i = skipNewline(s, i + 1);
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if ((ch === ')' || ch === ']' || ch === '}') && depth > 0) depth--;
    else if (ch === '\n' || ch === '\r') {
      i = skipNewline(s, i);
      if (depth === 0 && i < s.length) i = atLineStart(i) ?? i;
      continue;
    }
    i++;
  }
}

// ---------------------------------------------------------------------------------------------
// The .ipynb file
// ---------------------------------------------------------------------------------------------

/** A position in a notebook: in the raw .ipynb text and in the cell, all 0-based. */
export interface NotebookLocation extends Position {
  /** Index of the cell in the notebook's `cells` list. */
  cell: number;
  cellLine: number;
  cellColumn: number;
}

/** One JSON string of a cell's `source` and where its value starts in the joined source. */
interface SourcePiece {
  node: JsonNode;
  valueStart: number;
}

interface CodeCellSource {
  index: number;
  source: string;
  /** The `source` value node: an array of strings or one string. */
  node: JsonNode;
  pieces: SourcePiece[];
}

export interface NotebookNotice {
  notice: string;
}

/**
 * Kernel languages whose code cells are Python: Python itself (`python`, `python3`), and Coconut,
 * a superset of Python 3 whose kernel some notebooks of plain Python code were saved with (three
 * of Anthropic's own cookbook notebooks); a cell in syntax of its own is a parse error there, as
 * any other.
 */
const PYTHON_KERNEL_LANGUAGES = /^(?:i?python[23]?|coconut)$/i;

/**
 * Whether a notebook's `language_info` says its cells are edited as Python (CodeMirror's Python
 * mode, a `text/x-python` MIME type), whatever the kernel calls its language.
 */
function editedAsPython(info: unknown): boolean {
  if (typeof info !== 'object' || info === null) return false;
  const { codemirror_mode: mode, mimetype } = info as { codemirror_mode?: unknown; mimetype?: unknown };
  const modeName = typeof mode === 'object' && mode !== null ? (mode as { name?: unknown }).name : mode;
  return (typeof modeName === 'string' && /^i?python$/i.test(modeName)) || (typeof mimetype === 'string' && /^text\/x-python[23]?$/i.test(mimetype));
}

export class Notebook {
  private lineIndex?: LineIndex;

  private constructor(
    /** The raw .ipynb text. */
    readonly text: string,
    readonly virtual: VirtualPython,
    private readonly sources: ReadonlyMap<number, CodeCellSource>,
  ) {}

  /** Reads a notebook; a one-line notice when the text is not a (Python) Jupyter notebook. */
  static parse(text: string): Notebook | NotebookNotice {
    try {
      return Notebook.read(text);
    } catch (err) {
      // jsonc-parser recurses once per nesting level: thousands of nested arrays overflow the stack.
      if (err instanceof RangeError) return { notice: 'not a notebook: the JSON nests too deeply to read' };
      throw err;
    }
  }

  private static read(text: string): Notebook | NotebookNotice {
    const errors: ParseError[] = [];
    const root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
    if (errors.length > 0 || !root) {
      const e = errors[0];
      if (!e) return { notice: 'not a notebook: empty file' };
      const p = new LineIndex(text).position(e.offset);
      return { notice: `not a notebook: invalid JSON at ${p.line + 1}:${p.column + 1} (${printParseErrorCode(e.error)})` };
    }
    if (root.type !== 'object') return { notice: 'not a notebook: the JSON is not an object' };
    const value = (path: Array<string | number>, at: JsonNode = root): unknown => {
      const n = findNodeAtLocation(at, path);
      return n ? getNodeValue(n) : undefined;
    };
    const major = value(['nbformat']);
    if (typeof major === 'number' && major < 4) return { notice: `unsupported notebook format ${major} (4 or later is needed)` };
    const cells = findNodeAtLocation(root, ['cells']);
    if (!cells || cells.type !== 'array') return { notice: 'not a notebook: no "cells" list' };

    const kernel = value(['metadata', 'kernelspec', 'language']) ?? value(['metadata', 'language_info', 'name']);
    if (typeof kernel === 'string' && !PYTHON_KERNEL_LANGUAGES.test(kernel) && !editedAsPython(value(['metadata', 'language_info']))) {
      return { notice: `not a Python notebook (kernel language: ${kernel})` };
    }

    const sources = new Map<number, CodeCellSource>();
    const code: Array<{ index: number; source: string }> = [];
    for (const [index, cell] of (cells.children ?? []).entries()) {
      if (cell.type !== 'object') return { notice: `not a notebook: cell ${index} is not an object` };
      if (value(['cell_type'], cell) !== 'code') continue;
      // VS Code records a per-cell language; a code cell in another language is not Python.
      const cellLanguage = value(['metadata', 'vscode', 'languageId'], cell);
      if (typeof cellLanguage === 'string' && cellLanguage !== 'python') continue;
      const node = findNodeAtLocation(cell, ['source']);
      const read = node && readSource(node);
      if (!node || !read) return { notice: `not a notebook: cell ${index} has no valid "source"` };
      sources.set(index, { index, node, ...read });
      code.push({ index, source: read.source });
    }
    return new Notebook(text, VirtualPython.build(code), sources);
  }

  /** The Python text the analyzer sees. */
  get virtualText(): string {
    return this.virtual.text;
  }

  private get lines(): LineIndex {
    return (this.lineIndex ??= new LineIndex(this.text));
  }

  /** The offset in the raw .ipynb text of a virtual offset. */
  rawOffset(offset: number): number {
    const at = this.virtual.cellOffset(offset);
    if (!at) return 0;
    const src = this.sources.get(at.cell.index)!;
    if (src.pieces.length === 0) return src.node.offset + 1;
    let piece = src.pieces[0];
    for (const p of src.pieces) if (p.valueStart <= at.offset) piece = p;
    return rawOffsetInString(this.text, piece.node, at.offset - piece.valueStart);
  }

  /** Where a virtual offset is, in the raw file and in its cell. */
  locate(offset: number): NotebookLocation {
    const raw = this.lines.position(this.rawOffset(offset));
    const cell = this.virtual.cellPosition(offset) ?? { cell: 0, line: 0, column: 0 };
    return { line: raw.line, column: raw.column, cell: cell.cell, cellLine: cell.line, cellColumn: cell.column };
  }

  /**
   * Applies fixes given in virtual offsets and returns the new .ipynb text. A fix whose edits
   * cross a cell boundary or touch blanked IPython syntax is skipped, and so is one that
   * overlaps a fix taken before it (first come, first served, as for a plain file).
   */
  applyFixes(fixes: readonly Fix[]): { text: string; applied: number } {
    const chosen: Fix[] = [];
    for (const fix of fixes) {
      if (!this.virtual.toCellEdits(fix.edits)) continue;
      // The core's rule decides which fixes go together; a fix that it would skip is dropped.
      if (applyTextFixes(this.virtual.text, [...chosen, fix]).applied === chosen.length + 1) chosen.push(fix);
    }
    if (chosen.length === 0) return { text: this.text, applied: 0 };

    const byCell = this.virtual.toCellEdits(chosen.flatMap((f) => f.edits))!;
    const replacements: Array<{ node: JsonNode; raw: string }> = [];
    for (const [index, edits] of byCell) {
      const src = this.sources.get(index)!;
      const next = applyTextFixes(src.source, [{ title: '', applicability: 'safe', edits }]).text;
      if (next !== src.source) replacements.push({ node: src.node, raw: this.serializeSource(src.node, next) });
    }
    let text = this.text;
    replacements.sort((a, b) => b.node.offset - a.node.offset);
    for (const r of replacements) text = text.slice(0, r.node.offset) + r.raw + text.slice(r.node.offset + r.node.length);
    return { text, applied: chosen.length };
  }

  /** A new `source` value in the layout of the old one: a list of lines, or one string. */
  private serializeSource(old: JsonNode, source: string): string {
    if (old.type === 'string') return JSON.stringify(source);
    const lines = splitLines(source);
    const children = old.children ?? [];
    const first = children[0];
    const last = children[children.length - 1];
    const before = first ? this.text.slice(old.offset + 1, first.offset) : '';
    const after = last ? this.text.slice(last.offset + last.length, old.offset + old.length - 1) : '';
    const itemBreak = /^\s*?(\r?\n[ \t]*)$/.exec(before)?.[1];
    const closeBreak = /^\s*?(\r?\n[ \t]*)$/.exec(after)?.[1];
    if (lines.length === 0) return '[]';
    if (itemBreak !== undefined && closeBreak !== undefined) {
      return `[${lines.map((l) => itemBreak + JSON.stringify(l)).join(',')}${closeBreak}]`;
    }
    return `[${lines.map((l) => JSON.stringify(l)).join(', ')}]`;
  }
}

/** Jupyter's line list: every line keeps its newline; the last one may have none. */
export function splitLines(source: string): string[] {
  return source === '' ? [] : source.split(/(?<=\n)/);
}

function readSource(node: JsonNode): { source: string; pieces: SourcePiece[] } | undefined {
  if (node.type === 'string') return { source: node.value as string, pieces: [{ node, valueStart: 0 }] };
  if (node.type !== 'array') return undefined;
  let source = '';
  const pieces: SourcePiece[] = [];
  for (const child of node.children ?? []) {
    if (child.type !== 'string') return undefined;
    pieces.push({ node: child, valueStart: source.length });
    source += child.value as string;
  }
  return { source, pieces };
}

/**
 * The raw offset of the `index`-th UTF-16 unit of a JSON string's value. Escapes are decoded
 * as they are walked, so the result is exact; an index past the end maps to the closing quote.
 */
function rawOffsetInString(text: string, node: JsonNode, index: number): number {
  const close = node.offset + node.length - 1;
  let raw = node.offset + 1;
  let decoded = 0;
  while (raw < close && decoded < index) {
    if (text[raw] === '\\') raw += text[raw + 1] === 'u' ? 6 : 2;
    else raw += 1;
    decoded++;
  }
  return Math.min(raw, close);
}
