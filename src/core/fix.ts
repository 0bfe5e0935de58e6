import type { TextEdit } from './span';

/**
 * safe: the edit keeps the program's meaning or only fixes what the rule reports, and is
 *   applied by `--fix` and fix-all.
 * unsafe: the edit changes what the model sees or what the call costs; applied only with
 *   `--unsafe-fixes` or by choosing the quick fix.
 */
export type Applicability = 'safe' | 'unsafe';

export interface Fix {
  title: string;
  applicability: Applicability;
  /** Edits to the file the diagnostic is in, non-overlapping. */
  edits: TextEdit[];
}

function overlaps(a: TextEdit, b: TextEdit): boolean {
  // Two insertions at one point conflict too: their order would be arbitrary.
  if (a.start === a.end && b.start === b.end) return a.start === b.start;
  return a.start < b.end && b.start < a.end;
}

/**
 * Applies as many fixes as can be applied together (first come first served, skipping a fix
 * whose edits overlap one already taken). Returns the new text and how many were applied.
 */
export function applyFixes(text: string, fixes: readonly Fix[]): { text: string; applied: number } {
  const taken: TextEdit[] = [];
  let applied = 0;
  for (const fix of fixes) {
    if (fix.edits.some((e) => taken.some((t) => overlaps(e, t)) || fix.edits.some((o) => o !== e && overlaps(e, o)))) {
      continue;
    }
    taken.push(...fix.edits);
    applied++;
  }
  taken.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of taken) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return { text: out, applied };
}
