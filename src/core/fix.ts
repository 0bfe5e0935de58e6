import type { TextEdit } from './span';

/**
 * Whether `--fix` and fix-all may apply a fix without asking. The one definition every rule's
 * fix follows; README.md ("Fix safety") says the same to users.
 *
 * safe: the fix keeps what the model sees, or the request would be rejected without it.
 *   1. Keeps what the model sees: on every run the fixed code sends the model the same input
 *      as before — the same tools, system text, messages (their text, blocks and order), model
 *      and sampling parameters — or one the code could already send (an order the language or
 *      the file system leaves undefined, such as a directory listing, becomes a fixed one).
 *      What the model does not read may change — `cache_control` markers, beta names the
 *      request does not need, the client namespace — as long as every request the API accepted
 *      before is still accepted; so may comments.
 *   2. Rejected without it: the request fails on every run as written (the API answers 400, or
 *      the SDK raises before sending), and the fix changes only what the failure is about, in
 *      the one way the failure leaves (put the strategy first, the one known name a misspelling
 *      is close to). A fix that picks among repairs — a number, one of two betas, another
 *      date — is not this.
 *   And the file still parses, nothing outside the request changes (the response's types, what
 *   is written to disk and when), and code that other requests share (a module-level constant,
 *   a helper's dict) is changed only when the same fix is safe for each of them.
 * unsafe: anything else, for example moving a value from the system prompt into the user turn,
 *   sorting keys the code wrote in an order of its own, or keeping messages a trim dropped.
 *   Applied only with `--unsafe-fixes` or by choosing the quick fix. When in doubt, unsafe.
 */
export type Applicability = 'safe' | 'unsafe';

/** Edits of one file, in offsets of its text as the analysis read it. */
export interface FileEdits {
  file: string;
  edits: TextEdit[];
}

export interface Fix {
  title: string;
  applicability: Applicability;
  /** Edits to the file the diagnostic is in, non-overlapping. */
  edits: TextEdit[];
  /**
   * Edits to other files, when the cause of the finding is written there (a prompt built in
   * another module): the fix is one change over all of them, applied whole or not at all.
   */
  otherFiles?: FileEdits[];
}

/** Whether a fix changes files besides the diagnostic's own. */
export function isCrossFile(fix: Fix): boolean {
  return !!fix.otherFiles?.some((f) => f.edits.length > 0);
}

/** Whether a fix changes anything. */
export function hasEdits(fix: Fix): boolean {
  return fix.edits.length > 0 || isCrossFile(fix);
}

/** Every file a fix changes with its edits, the diagnostic's file (`file`) first. */
export function fixFiles(fix: Fix, file: string): FileEdits[] {
  const own = fix.edits.length ? [{ file, edits: fix.edits }] : [];
  return [...own, ...(fix.otherFiles ?? []).filter((f) => f.edits.length > 0)];
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
