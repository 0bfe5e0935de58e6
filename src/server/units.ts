/**
 * A unit is what the engine analyses in one go: an editor document, the code cells of a
 * notebook (the engine's CellsDocument), or a closed file that "lint workspace" reads. A unit
 * maps engine offsets to LSP positions and engine edits to LSP edits, per document: for a
 * notebook, each cell is its own document.
 */
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { LanguageId } from '../core/model';
import type { TextEdit } from '../core/span';
import { CellsDocument } from '../engine/document';
import type { SourceDocument } from '../engine/document';
import type { WireEdit } from '../shared/protocol';

export interface DocPosition {
  uri: string;
  line: number;
  character: number;
}

export interface Unit {
  /** The path the engine knows the unit by (the notebook's path for a notebook). */
  readonly file: string;
  /** The document or notebook URI. */
  readonly uri: string;
  readonly language: LanguageId;
  /** The analysed text. */
  readonly text: string;
  /** Versions of the documents the unit was built from. */
  readonly versions: Record<string, number>;
  /** Identifies the content: equal keys mean equal text. */
  readonly key: string;
  /** The text documents that carry this unit's diagnostics (the file, or each code cell). */
  readonly documents: readonly TextDocument[];
  /** Where an offset of `text` is. */
  position(offset: number): DocPosition | undefined;
  /** How messages name the line of an offset of `text` (a notebook's cell and line: FixableDocument.lineName). */
  lineName?(offset: number): string | undefined;
  /** The offset in `text` of a position in one of the unit's documents. */
  offsetAt(uri: string, line: number, character: number): number | undefined;
  /** Engine edits as LSP edits per document URI; undefined when they cannot be written back. */
  changes(edits: readonly TextEdit[]): Record<string, WireEdit[]> | undefined;
  /** The document a position-less, file-level edit goes into (a notebook's first code cell). */
  readonly firstDocument: TextDocument | undefined;
}

/** LSP language ids the server analyses, and what the engine calls them. */
export const LANGUAGES: Record<string, LanguageId> = {
  python: 'python',
  typescript: 'typescript',
  typescriptreact: 'tsx',
  javascript: 'javascript',
  javascriptreact: 'javascript',
};

const EXTENSIONS: Record<LanguageId, string> = { python: '.py', typescript: '.ts', tsx: '.tsx', javascript: '.js' };

/** The path of a document as the engine sees it (untitled buffers get a made-up path). */
export function pathOf(uri: string, language?: LanguageId): string {
  if (uri.startsWith('file:')) {
    try {
      return fileURLToPath(uri);
    } catch {
      // falls through to a made-up path
    }
  }
  const parsed = uri.replace(/^[a-z-]+:\/*/i, '').replace(/[?#].*$/, '');
  const p = path.posix.join('/', uri.split(':')[0], decodeURIComponent(parsed));
  return language && !path.extname(p) ? p + EXTENSIONS[language] : p;
}

export function uriOf(file: string): string {
  return pathToFileURL(file).toString();
}

function wire(doc: TextDocument, start: number, end: number, newText: string): WireEdit {
  return { range: { start: doc.positionAt(start), end: doc.positionAt(end) }, newText };
}

export class DocumentUnit implements Unit {
  readonly file: string;
  readonly uri: string;
  readonly text: string;
  readonly versions: Record<string, number>;
  readonly key: string;
  readonly documents: readonly TextDocument[];

  constructor(
    readonly doc: TextDocument,
    readonly language: LanguageId,
  ) {
    this.uri = doc.uri;
    this.file = pathOf(doc.uri, language);
    this.text = doc.getText();
    this.versions = { [doc.uri]: doc.version };
    this.key = `${doc.uri}@${doc.version}`;
    this.documents = [doc];
  }

  get firstDocument(): TextDocument {
    return this.doc;
  }

  position(offset: number): DocPosition {
    return { uri: this.uri, ...this.doc.positionAt(offset) };
  }

  offsetAt(uri: string, line: number, character: number): number | undefined {
    return uri === this.uri ? this.doc.offsetAt({ line, character }) : undefined;
  }

  changes(edits: readonly TextEdit[]): Record<string, WireEdit[]> {
    return { [this.uri]: edits.map((e) => wire(this.doc, e.start, e.end, e.newText)) };
  }
}

export interface NotebookCellInput {
  /** Index in the notebook's cell list (markdown cells counted), as in the .ipynb file. */
  index: number;
  document: TextDocument;
}

export class NotebookUnit implements Unit {
  readonly file: string;
  readonly language = 'python';
  readonly text: string;
  readonly versions: Record<string, number>;
  readonly key: string;
  readonly documents: readonly TextDocument[];
  /** The cells as the engine analyses and fixes them. */
  readonly cells: CellsDocument;
  private readonly byIndex: Map<number, TextDocument>;

  constructor(
    readonly uri: string,
    cells: readonly NotebookCellInput[],
  ) {
    this.file = pathOf(uri).replace(/(\.ipynb)?$/i, '.ipynb');
    this.cells = new CellsDocument(
      this.file,
      cells.map((c) => ({ index: c.index, source: c.document.getText() })),
    );
    this.text = this.cells.analysedText;
    this.documents = cells.map((c) => c.document);
    this.byIndex = new Map(cells.map((c) => [c.index, c.document]));
    this.versions = Object.fromEntries(cells.map((c) => [c.document.uri, c.document.version]));
    this.key = `${uri}@${cells.map((c) => `${c.index}:${c.document.uri}:${c.document.version}`).join(',')}`;
  }

  lineName(offset: number): string | undefined {
    return this.cells.lineName(offset);
  }

  get firstDocument(): TextDocument | undefined {
    return this.documents[0];
  }

  /** The cell document of a cell index. */
  document(index: number): TextDocument | undefined {
    return this.byIndex.get(index);
  }

  position(offset: number): DocPosition | undefined {
    const at = this.cells.cellOffset(offset);
    const doc = at && this.byIndex.get(at.index);
    return doc && at ? { uri: doc.uri, ...doc.positionAt(at.offset) } : undefined;
  }

  offsetAt(uri: string, line: number, character: number): number | undefined {
    const cell = this.cells.cells.find((c) => this.byIndex.get(c.index)?.uri === uri);
    return cell ? this.cells.offsetOf(cell.index, this.byIndex.get(cell.index)!.offsetAt({ line, character })) : undefined;
  }

  changes(edits: readonly TextEdit[]): Record<string, WireEdit[]> | undefined {
    const byCell = this.cells.cellEdits(edits);
    if (!byCell) return undefined;
    const out: Record<string, WireEdit[]> = {};
    for (const [index, list] of byCell) {
      const doc = this.byIndex.get(index)!;
      out[doc.uri] = list.map((e) => wire(doc, e.start, e.end, e.newText));
    }
    return out;
  }
}

/**
 * A file that is not open, as "lint workspace" reads it from disk: positions are in the file
 * (for a notebook, in its .ipynb text), and a fix is the edit of the file's text.
 */
export class ClosedFileUnit implements Unit {
  readonly uri: string;
  readonly text: string;
  readonly lineName?: (offset: number) => string | undefined;
  readonly versions: Record<string, number> = {};
  readonly key: string;
  readonly documents: readonly TextDocument[];

  constructor(
    private readonly doc: SourceDocument,
    fileDocument: TextDocument,
  ) {
    this.uri = fileDocument.uri;
    this.text = doc.analysedText;
    if (doc.lineName) this.lineName = (offset) => doc.lineName!(offset);
    this.key = `${this.uri}@disk`;
    this.documents = [fileDocument];
  }

  get file(): string {
    return this.doc.file;
  }

  get language(): LanguageId {
    return this.doc.language;
  }

  get firstDocument(): TextDocument {
    return this.documents[0];
  }

  position(offset: number): DocPosition {
    const p = this.doc.locate(offset);
    return { uri: this.uri, line: p.line, character: p.column };
  }

  offsetAt(): undefined {
    return undefined;
  }

  changes(edits: readonly TextEdit[]): Record<string, WireEdit[]> {
    const placed = this.doc.fileEdits({ title: '', applicability: 'safe', edits: [...edits] });
    return { [this.uri]: placed.map((e) => ({ range: { start: { line: e.start.line, character: e.start.column }, end: { line: e.end.line, character: e.end.column } }, newText: e.newText })) };
  }
}
