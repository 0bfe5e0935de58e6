/**
 * Source positions. Offsets are UTF-16 code units into the file text, which is what
 * web-tree-sitter reports for JavaScript strings and what LSP uses by default.
 */
export interface Loc {
  file: string;
  start: number;
  end: number;
}

/** 0-based line and UTF-16 column. */
export interface Position {
  line: number;
  column: number;
}

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** Maps offsets to line/column and back for one text. Handles \n, \r\n and lone \r. */
export class LineIndex {
  private readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (ch === 10) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= clamped) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, column: clamped - this.lineStarts[lo] };
  }

  offset(pos: Position): number {
    const line = Math.max(0, Math.min(pos.line, this.lineStarts.length - 1));
    const next = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.text.length;
    return Math.min(this.lineStarts[line] + pos.column, next);
  }

  lineStart(line: number): number {
    return this.lineStarts[Math.max(0, Math.min(line, this.lineStarts.length - 1))];
  }

  /** The text of a line without its line terminator. */
  lineText(line: number): string {
    const start = this.lineStart(line);
    const end = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.text.length;
    return this.text.slice(start, end).replace(/\r?\n$|\r$/, '');
  }
}

export function contains(outer: { start: number; end: number }, inner: { start: number; end: number }): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

export function sameLoc(a: Loc, b: Loc): boolean {
  return a.file === b.file && a.start === b.start && a.end === b.end;
}

/** A place as a map key: equal keys for the same place, found along different paths. */
export function locKey(at: Loc): string {
  return `${at.file}\u0000${at.start}\u0000${at.end}`;
}

/** `inner` lies within `outer`, in the same file. */
export function locWithin(inner: Loc, outer: Loc): boolean {
  return inner.file === outer.file && outer.start <= inner.start && inner.end <= outer.end;
}
