/**
 * Requests kept between the analyses of an editor buffer (src/lang/requestReuse.ts) against the
 * oracle of reading them all again: after every change, the buffer's findings and requests must
 * be those an analyzer that keeps none reads from the same text. Hand-written changes that reach a request from
 * another statement (a constant assigned again, a helper's return, a new caller, a test that
 * decides a branch, a list changed in place), and seeded random changes to the editor
 * benchmark's 3,000-line files, where most requests are taken over.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editorFile, Rng as BenchRng } from '../bench/corpus';
import { editScript } from '../bench/editor';
import type { LanguageId } from '../src/core/model';
import { Analyzer } from '../src/engine/analyzer';
import type { FileResult } from '../src/engine/analyzer';
import { DiskHost } from '../src/host/source';
import { Rng } from './robustness/fuzz';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-reuse-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** What a result says: its findings and its requests (code lenses read those). */
function said(r: FileResult): string {
  return JSON.stringify({ diagnostics: r.diagnostics, calls: r.calls, notice: r.notice });
}

/** Where two texts first differ, with some context. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `at ${i}: …${a.slice(Math.max(0, i - 150), i + 100)}… vs …${b.slice(Math.max(0, i - 150), i + 100)}…`;
}

/**
 * Two editors' analyzers of one buffer, given the same changes: one takes requests over, the
 * other reads them all each time (both parse the buffer incrementally, so a statement with a
 * syntax error is read alike; the incremental tests compare that with a fresh parse).
 */
async function pair(file: string) {
  let text = '';
  const host = new DiskHost({ cache: false, overlay: (f) => (f === file ? text : undefined) });
  const editor = await Analyzer.create({ host });
  const reading = await Analyzer.create({ host, reuseRequests: false });
  return {
    editor,
    /** The results of both for `next`: `got` with requests taken over, `want` read afresh. */
    analyse(next: string, language: LanguageId): { got: FileResult; want: FileResult } {
      text = next;
      editor.edited(file, next, language);
      reading.edited(file, next, language);
      return { got: editor.analyze(file, next, language), want: reading.analyze(file, next, language) };
    },
  };
}

const PYTHON = `import anthropic
import time

client = anthropic.Anthropic()
SYSTEM = "You are the billing desk's assistant. Answer from the policy below."
HISTORY = []


def make_system():
    return SYSTEM


def dynamic():
    return False


def ask(question, note=""):
    system = make_system() + note
    if dynamic():
        system = system + " Now: " + str(time.time())
    return client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=512,
        system=[{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
        messages=HISTORY + [{"role": "user", "content": question}],
    )


def refund(order_id):
    return client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=256,
        system=[{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}],
        messages=[{"role": "user", "content": f"Refund {order_id}"}],
    )


def unrelated(rows):
    total = 0
    for r in rows:
        total += r
    return total
`;

const TYPESCRIPT = `import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
let SYSTEM = "You are the billing desk's assistant. Answer from the policy below.";
const HISTORY: Anthropic.MessageParam[] = [];

function makeSystem(): string {
  return SYSTEM;
}

function dynamic(): boolean {
  return false;
}

export async function ask(question: string, note = '') {
  let system = makeSystem() + note;
  if (dynamic()) system = system + ' Now: ' + Date.now();
  return client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 512,
    system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
    messages: [...HISTORY, { role: 'user', content: question }],
  });
}

export async function refund(orderId: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-5',
    max_tokens: 256,
    system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: \`Refund \${orderId}\` }],
  });
}

export function unrelated(rows: number[]): number {
  let total = 0;
  for (const r of rows) total += r;
  return total;
}
`;

/** Changes of one statement that reach a request elsewhere: [what, from, to]. */
const REACHING: Record<'python' | 'typescript', Array<[string, string, string]>> = {
  python: [
    ['a constant assigned again below', 'HISTORY = []\n', 'HISTORY = []\nSYSTEM = SYSTEM + time.ctime()\n'],
    ["a helper's return", '    return SYSTEM\n', '    return SYSTEM + str(time.time())\n'],
    ['a new caller', '    total = 0\n', '    total = 0\n    ask("q", time.ctime())\n'],
    ['a test that decides a branch', '    return False\n', '    return True\n'],
    ['a list changed in place elsewhere', '    total = 0\n', '    total = 0\n    HISTORY.append({"role": "user", "content": str(time.time())})\n'],
  ],
  typescript: [
    ['a constant assigned again below', 'const HISTORY', 'SYSTEM = SYSTEM + new Date().toISOString();\nconst HISTORY'],
    ["a helper's return", '  return SYSTEM;\n', '  return SYSTEM + Date.now();\n'],
    ['a new caller', '  let total = 0;\n', "  let total = 0;\n  void ask('q', new Date().toISOString());\n"],
    ['a test that decides a branch', '  return false;\n', '  return true;\n'],
    ['a list changed in place elsewhere', '  let total = 0;\n', "  let total = 0;\n  HISTORY.push({ role: 'user', content: String(Date.now()) });\n"],
  ],
};

/**
 * Functions whose own names hide a name of the module (a local `messages`, a parameter
 * `messages`), one that reads a name before it binds its own (the evaluator then reads the
 * module's), and one whose body binds `messages` at the module's level once its keyword is broken.
 */
const HIDING = {
  python: `import time

import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are the billing desk's assistant. Answer from the policy below."


def ask(question):
    messages = [{"role": "user", "content": question}]
    resp = client.messages.create(model="claude-sonnet-4-5", max_tokens=512, system=SYSTEM, messages=messages)
    return resp


def refund(order_id, messages):
    return client.messages.create(model="claude-sonnet-4-5", max_tokens=256, system=SYSTEM, messages=messages)


def late(question):
    out = client.messages.create(
        model="claude-sonnet-4-5",
        max_tokens=64,
        system=[{"type": "text", "text": PROMPT, "cache_control": {"type": "ephemeral"}}],
        messages=[{"role": "user", "content": question}],
    )
    PROMPT = "unused"
    return out


def tally(rows):
    messages = [{"role": "user", "content": str(r)} for r in rows]
    return len(messages)
`,
  typescript: `import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();
const SYSTEM = "You are the billing desk's assistant. Answer from the policy below.";

export async function ask(question: string) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: question }];
  const resp = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 512, system: SYSTEM, messages });
  return resp;
}

export async function refund(orderId: string, messages: Anthropic.MessageParam[]) {
  return client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 256, system: SYSTEM, messages });
}

export function tally(rows: number[]): number {
  const messages = rows.map((r) => ({ role: 'user', content: String(r) }));
  return messages.length;
}
`,
};

/** Changes to HIDING's text: [what, from, to, requests taken over, whether the findings change]. */
const HIDDEN_CHANGES: Record<'python' | 'typescript', Array<[string, string, string, number, boolean]>> = {
  python: [
    ['a module name the functions hide', '\n\ndef tally', '\n\nmessages = [{"role": "user", "content": time.ctime()}]\n\n\ndef tally', 3, false],
    ['a keyword broken in a function that binds the hidden name', 'def tally', 'drefundef tally', 3, false],
    ['a name a function reads before binding its own', '\n\ndef tally', '\n\nPROMPT = "Now: " + time.ctime()\n\n\ndef tally', 2, true],
    ['a name the other requests read', 'Answer from the policy below."', 'Answer from the policy below. " + time.ctime()', 1, true],
  ],
  typescript: [
    ['a module name the functions hide', '\nexport function tally', "\nlet messages = [{ role: 'user', content: String(Date.now()) }];\n\nexport function tally", 2, false],
    ['a keyword broken in a function that binds the hidden name', 'export function tally', 'export functionrefund tally', 2, false],
    ['a name the requests read', 'Answer from the policy below.";', 'Answer from the policy below. " + Date.now();', 0, true],
  ],
};

describe('requests kept between keystrokes', () => {
  for (const language of ['python', 'typescript'] as const) {
    const base = language === 'python' ? PYTHON : TYPESCRIPT;
    const file = () => path.join(dir, language === 'python' ? 'billing.py' : 'billing.ts');

    it(`reads again a request that a change of another statement reaches (${language})`, async () => {
      const p = await pair(file());
      const first = p.analyse(base, language);
      expect(said(first.got)).toBe(said(first.want));
      let changedFindings = 0;
      for (const [what, from, to] of REACHING[language]) {
        expect(base.includes(from), what).toBe(true);
        const { got, want } = p.analyse(base.replace(from, to), language);
        expect(said(got), what).toBe(said(want));
        if (JSON.stringify(want.diagnostics.map((d) => d.ruleId)) !== JSON.stringify(first.want.diagnostics.map((d) => d.ruleId))) changedFindings++;
        // Back to the base text, which must read as it did.
        const back = p.analyse(base, language);
        expect(said(back.got), `${what}, undone`).toBe(said(first.want));
      }
      // The changes do change what is found (else they would test nothing).
      expect(changedFindings).toBeGreaterThanOrEqual(3);
    });

    it(`takes over the requests a change cannot reach (${language})`, async () => {
      const p = await pair(file());
      p.analyse(base, language);
      const before = p.editor.requestsReused;
      const edited = language === 'python' ? base.replace('    total = 0\n', '    total = 1\n') : base.replace('  let total = 0;\n', '  let total = 1;\n');
      const { got, want } = p.analyse(edited, language);
      expect(said(got)).toBe(said(want));
      // Both requests, at their places moved by nothing, and the same again one character later.
      expect(p.editor.requestsReused - before).toBe(2);
      const longer = p.analyse(edited.replace(language === 'python' ? 'total = 1' : 'total = 1;', language === 'python' ? 'total = 10' : 'total = 10;'), language);
      expect(said(longer.got)).toBe(said(longer.want));
      expect(p.editor.requestsReused - before).toBe(4);
    });

    it(`takes over the requests whose functions hide the module's names a change binds, and reads again those it reaches (${language})`, async () => {
      const text = HIDING[language];
      const p = await pair(file());
      const first = p.analyse(text, language);
      expect(said(first.got)).toBe(said(first.want));
      for (const [what, from, to, taken, changesFindings] of HIDDEN_CHANGES[language]) {
        expect(text.includes(from), what).toBe(true);
        const before = p.editor.requestsReused;
        const { got, want } = p.analyse(text.replace(from, to), language);
        expect(said(got), what).toBe(said(want));
        expect(p.editor.requestsReused - before, what).toBe(taken);
        expect(JSON.stringify(want.diagnostics) !== JSON.stringify(first.want.diagnostics), what).toBe(changesFindings);
        const back = p.analyse(text, language);
        expect(said(back.got), `${what}, undone`).toBe(said(first.want));
      }
    });

    it(`reports what reading every request reports, change after change, on the editor benchmark file (${language})`, async () => {
      const original = editorFile(language, 20261204);
      const p = await pair(file());
      let text = original;
      p.analyse(text, language);
      const rng = new Rng(language === 'python' ? 7101 : 7102);
      const typing = editScript(original, new BenchRng(7103), 60);
      const failures: string[] = [];
      const CHANGES = 90;
      /** The text before a change that is undone next (a slip of the keyboard, then its undo). */
      let undo: string | undefined;
      for (let k = 0; k < CHANGES && failures.length < 3; k++) {
        if (undo !== undefined) {
          text = undo;
          undo = undefined;
        } else if (k % 3 === 0) {
          // Typing as the benchmark does.
          const t = typing[k / 3];
          text = text.slice(0, t.start) + t.text + text.slice(t.end);
        } else if (k % 6 === 1) {
          // One letter for another anywhere (a name, a string, a keyword): no offset moves.
          undo = text;
          const letters = [...text.matchAll(/[a-z]/g)].map((m) => m.index);
          const at = letters[rng.int(0, letters.length - 1)];
          text = text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1);
        } else {
          // A line added or removed somewhere: a new statement, or one gone.
          undo = text;
          const lines = text.split('\n');
          const i = rng.int(0, lines.length - 1);
          if (rng.chance(0.5)) lines.splice(i, 1);
          else lines.splice(i, 0, lines[rng.int(0, lines.length - 1)]);
          text = lines.join('\n');
        }
        const { got, want } = p.analyse(text, language);
        if (said(got) !== said(want)) failures.push(`after change ${k + 1}: ${firstDifference(said(got), said(want))}`);
      }
      expect(failures).toEqual([]);
      // Requests were taken over (40 per text; none across a change that leaves a syntax error, nor from the statement changed).
      expect(p.editor.requestsReused).toBeGreaterThan(CHANGES * 8);
    }, 120_000);

    it(`reports what reading every request reports while a keyword or a bracket is broken (${language})`, async () => {
      // Syntax errors that stay in one statement: a word typed into a keyword (`def` -> `drefundef`),
      // a bracket or a colon dropped, a stray `(` or `=`; typed a character at a time, then undone.
      const original = editorFile(language, 20261205);
      const p = await pair(file());
      p.analyse(original, language);
      const rng = new Rng(language === 'python' ? 7201 : 7202);
      const keywords = [...original.matchAll(language === 'python' ? /\b(def|class|return|if|for|with|import|from|else|try)\b/g : /\b(function|class|return|if|for|const|let|import|export|async|else)\b|[{}();:]/g)].map((m) => m.index);
      const failures: string[] = [];
      let before = p.editor.requestsReused;
      let taken = 0;
      for (let k = 0; k < 24 && failures.length < 3; k++) {
        const at = keywords[rng.int(0, keywords.length - 1)] + rng.int(0, 1);
        const typed = ['refund', '(', '=', ':', ' x', '"'][rng.int(0, 5)];
        for (let n = 1; n <= typed.length; n++) {
          const text = original.slice(0, at) + typed.slice(0, n) + original.slice(at);
          const { got, want } = p.analyse(text, language);
          if (said(got) !== said(want)) failures.push(`typing ${JSON.stringify(typed.slice(0, n))} at ${at}: ${firstDifference(said(got), said(want))}`);
        }
        const { got, want } = p.analyse(original, language);
        if (said(got) !== said(want)) failures.push(`undoing ${JSON.stringify(typed)} at ${at}: ${firstDifference(said(got), said(want))}`);
        taken += p.editor.requestsReused - before;
        before = p.editor.requestsReused;
      }
      expect(failures).toEqual([]);
      expect(taken).toBeGreaterThan(0);
    }, 120_000);
  }
});
