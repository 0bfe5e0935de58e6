/**
 * The document model every surface analyses and fixes: the text the analyzer sees, where an
 * offset of that text is, and how fixes turn into a new document. A plain source file is
 * analysed as it is; a notebook (an .ipynb file, or an editor's code cells) as the virtual
 * Python text of its code cells.
 */
import { applyFixes } from '../core/fix';
import type { Fix } from '../core/fix';
import type { LanguageId } from '../core/model';
import { LineIndex } from '../core/span';
import type { TextEdit } from '../core/span';
import { Notebook, VirtualPython, isNotebook } from '../lang/notebook';
import { languageForPath } from '../lang/parsers';

/** A 0-based position in the file, and in the notebook cell for notebooks. */
export interface Place {
  line: number;
  column: number;
  cell?: { index: number; line: number; column: number };
}

export interface PlacedEdit {
  start: Place;
  end: Place;
  newText: string;
}

/** What analysing and fixing needs of a document (engine/fixpoint.ts). */
export interface FixableDocument<D> {
  readonly file: string;
  readonly language: LanguageId;
  /** The text the analyzer sees: the file's text, or a notebook's virtual Python text. */
  readonly analysedText: string;
  /**
   * Applies fixes given in offsets of `analysedText` (non-overlapping ones, first come first
   * served): the document they make, or why it cannot be read any more.
   */
  applyFixes(fixes: readonly Fix[]): { document: D; applied: number } | { notice: string };
  /**
   * How a message names the line of an offset of `analysedText` when that is not the text's own
   * line: a notebook's code cell and its line (`cell index 3, line 2`). Absent for a plain file.
   */
  lineName?(offset: number): string | undefined;
}

/** The options of an analysis of `doc`: `opts`, with the document's names for lines (FixableDocument.lineName). */
export function analyzeOptionsFor<O extends object>(doc: { lineName?(offset: number): string | undefined }, opts: O | undefined): (O & { lineName?: (offset: number) => string | undefined }) | undefined {
  return doc.lineName ? ({ ...opts, lineName: (offset: number) => doc.lineName!(offset) } as O & { lineName: (offset: number) => string | undefined }) : opts;
}

/** The name messages give a cell's line (as the report's `cell index K, line N`): `cell` is its index in the notebook's cells, `line` 0-based. */
function cellLineName(cell: number, line: number): string {
  return `cell index ${cell}, line ${line + 1}`;
}

/** A file as the command line reads and writes it. */
export interface SourceDocument extends FixableDocument<SourceDocument> {
  /** The file's text. */
  readonly text: string;
  /** Where an offset of `analysedText` is. */
  locate(offset: number): Place;
  /** A fix as edits of the file's text, placed (empty when it cannot be applied). */
  fileEdits(fix: Fix): PlacedEdit[];
  /** The source line a place is on, as the user reads it: the file's line, or the notebook cell's. */
  lineText(place: Place): string;
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

/**
 * The language of a file whose text is its source as it is: undefined for a notebook (its code
 * is read out of JSON) and for a file of no supported language.
 */
export function plainSourceLanguage(file: string): LanguageId | undefined {
  return isNotebook(file) ? undefined : languageForPath(file);
}

/** A source text whose language the caller knows (an editor's document has a language id). */
export function sourceDocument(file: string, text: string, language: LanguageId): SourceDocument {
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

  applyFixes(fixes: readonly Fix[]): { document: SourceDocument; applied: number } {
    const next = applyFixes(this.text, fixes);
    return { document: next.text === this.text ? this : new PlainDocument(this.file, next.text, this.language), applied: next.applied };
  }

  fileEdits(fix: Fix): PlacedEdit[] {
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

  applyFixes(fixes: readonly Fix[]): { document: SourceDocument; applied: number } | { notice: string } {
    const next = this.notebook.applyFixes(fixes);
    if (next.text === this.text) return { document: this, applied: next.applied };
    const opened = openDocument(this.file, next.text);
    return 'notice' in opened ? opened : { document: opened, applied: next.applied };
  }

  lineText(place: Place): string {
    const cell = place.cell && this.notebook.virtual.cells.find((c) => c.index === place.cell!.index);
    return cell ? cell.lines.lineText(place.cell!.line) : '';
  }

  lineName(offset: number): string | undefined {
    const at = this.notebook.virtual.cellPosition(offset);
    return at && cellLineName(at.cell, at.line);
  }

  /** The one replacement of the .ipynb text that the fix makes (its JSON escapes and layout included). */
  fileEdits(fix: Fix): PlacedEdit[] {
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

/** A notebook's code cell as an editor holds it: its index in the notebook's cell list (markdown cells counted) and its text. */
export interface CellSource {
  index: number;
  source: string;
}

/**
 * A notebook as an editor holds it: one text per code cell, analysed as one Python text (cells
 * share one namespace when they run, so a value defined in cell 1 resolves in cell 3).
 */
export class CellsDocument implements FixableDocument<CellsDocument> {
  readonly language = 'python';
  private readonly virtual: VirtualPython;

  constructor(
    /** The notebook's path. */
    readonly file: string,
    readonly cells: readonly CellSource[],
  ) {
    this.virtual = VirtualPython.build(cells);
  }

  get analysedText(): string {
    return this.virtual.text;
  }

  lineName(offset: number): string | undefined {
    const at = this.virtual.cellPosition(offset);
    return at && cellLineName(at.cell, at.line);
  }

  /** The cell an offset of the analysed text is in, and the offset within that cell's text. */
  cellOffset(offset: number): { index: number; offset: number } | undefined {
    const at = this.virtual.cellOffset(offset);
    return at && { index: at.cell.index, offset: at.offset };
  }

  /** The offset in the analysed text of an offset in a cell's text. */
  offsetOf(index: number, offsetInCell: number): number | undefined {
    const cell = this.virtual.cells.find((c) => c.index === index);
    return cell && cell.start + offsetInCell;
  }

  /**
   * Edits of the analysed text as edits of cell texts, by cell index; undefined when one crosses
   * a cell boundary or touches IPython syntax (such a fix cannot be written back).
   */
  cellEdits(edits: readonly TextEdit[]): Map<number, TextEdit[]> | undefined {
    return this.virtual.toCellEdits(edits);
  }

  applyFixes(fixes: readonly Fix[]): { document: CellsDocument; applied: number } {
    const chosen: Fix[] = [];
    for (const fix of fixes) {
      if (!this.cellEdits(fix.edits)) continue;
      // The same choice as for a plain text: a fix that overlaps one taken before it waits.
      if (applyFixes(this.analysedText, [...chosen, fix]).applied === chosen.length + 1) chosen.push(fix);
    }
    if (!chosen.length) return { document: this, applied: 0 };
    const byCell = this.cellEdits(chosen.flatMap((f) => f.edits))!;
    const cells = this.cells.map((c) => {
      const edits = byCell.get(c.index);
      return edits ? { index: c.index, source: applyFixes(c.source, [{ title: '', applicability: 'safe', edits }]).text } : c;
    });
    return { document: new CellsDocument(this.file, cells), applied: chosen.length };
  }
}
