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
}

class NotebookDocument implements SourceDocument {
  readonly language = 'python';

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
}
