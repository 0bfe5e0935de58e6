/**
 * A file as the CLI handles it: the text the analyzer sees, where an offset of that text is in
 * the file, and how fixes turn into a new file text. A plain source file is analysed as it is;
 * a notebook is analysed as the virtual Python text of its code cells.
 */
import * as path from 'node:path';
import { applyFixes } from '../core/fix';
import type { Fix } from '../core/fix';
import type { LanguageId } from '../core/model';
import { LineIndex } from '../core/span';
import { Notebook } from '../lang/notebook';
import { languageForPath } from '../lang/parsers';

/** A 0-based position in the file, and in the notebook cell for notebooks. */
export interface Place {
  line: number;
  column: number;
  cell?: { index: number; line: number; column: number };
}

export interface SourceDocument {
  readonly file: string;
  /** The file's text. */
  readonly text: string;
  /** The text the analyzer sees: the file's text, or a notebook's virtual Python text. */
  readonly analysedText: string;
  readonly language: LanguageId;
  /** Where an offset of `analysedText` is. */
  locate(offset: number): Place;
  /** Applies fixes given in offsets of `analysedText`; returns the new file text. */
  applyFixes(fixes: readonly Fix[]): { text: string; applied: number };
  /** A fix as edits of the file's text, placed (empty when it cannot be applied). */
  fileEdits(fix: Fix): Array<{ start: Place; end: Place; newText: string }>;
  /** The source line a place is on, as the user reads it: the file's line, or the notebook cell's. */
  lineText(place: Place): string;
}

export function isNotebook(file: string): boolean {
  return path.extname(file).toLowerCase() === '.ipynb';
}

/** Opens a file's text, or says why it cannot be analysed. */
export function openDocument(file: string, text: string): SourceDocument | { notice: string } {
  if (isNotebook(file)) {
    const nb = Notebook.parse(text);
    return nb instanceof Notebook ? new NotebookDocument(file, nb) : nb;
  }
  const language = languageForPath(file);
  if (!language) return { notice: 'unsupported file type' };
  return new PlainDocument(file, text, language);
}

class PlainDocument implements SourceDocument {
  private index?: LineIndex;

  constructor(
    readonly file: string,
    readonly text: string,
    readonly language: LanguageId,
  ) {}

  get analysedText(): string {
    return this.text;
  }

  locate(offset: number): Place {
    return (this.index ??= new LineIndex(this.text)).position(offset);
  }

  applyFixes(fixes: readonly Fix[]): { text: string; applied: number } {
    return applyFixes(this.text, fixes);
  }

  fileEdits(fix: Fix) {
    return fix.edits.map((e) => ({ start: this.locate(e.start), end: this.locate(e.end), newText: e.newText }));
  }

  lineText(place: Place): string {
    return (this.index ??= new LineIndex(this.text)).lineText(place.line);
  }
}

class NotebookDocument implements SourceDocument {
  readonly language = 'python';
  private raw?: LineIndex;

  constructor(
    readonly file: string,
    private readonly notebook: Notebook,
  ) {}

  get text(): string {
    return this.notebook.text;
  }

  get analysedText(): string {
    return this.notebook.virtualText;
  }

  locate(offset: number): Place {
    const at = this.notebook.locate(offset);
    return { line: at.line, column: at.column, cell: { index: at.cell, line: at.cellLine, column: at.cellColumn } };
  }

  applyFixes(fixes: readonly Fix[]): { text: string; applied: number } {
    return this.notebook.applyFixes(fixes);
  }

  lineText(place: Place): string {
    const cell = place.cell && this.notebook.virtual.cells.find((c) => c.index === place.cell!.index);
    return cell ? cell.lines.lineText(place.cell!.line) : '';
  }

  /** The one replacement of the .ipynb text that the fix makes (its JSON escapes and layout included). */
  fileEdits(fix: Fix) {
    const next = this.notebook.applyFixes([fix]);
    if (!next.applied || next.text === this.text) return [];
    const old = this.text;
    let start = 0;
    while (start < old.length && start < next.text.length && old[start] === next.text[start]) start++;
    let end = 0;
    while (end < old.length - start && end < next.text.length - start && old[old.length - 1 - end] === next.text[next.text.length - 1 - end]) end++;
    const lines = (this.raw ??= new LineIndex(old));
    const place = (offset: number): Place => lines.position(offset);
    return [{ start: place(start), end: place(old.length - end), newText: next.text.slice(start, next.text.length - end) }];
  }
}
