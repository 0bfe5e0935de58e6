/** Test helpers: an Analyzer that reads the workspace from disk, and the fixture annotations. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Analyzer } from '../src/engine/analyzer';
import type { Diagnostic } from '../src/core/diagnostic';
import { LineIndex } from '../src/core/span';
import { analyzeOptionsFor, openDocument } from '../src/engine/document';
import type { Tree } from '../src/lang/parsers';

export const ROOT = path.resolve(__dirname, '..');
export const FIXTURES = path.join(ROOT, 'test', 'fixtures');

let shared: Promise<Analyzer> | undefined;

export function diskHost() {
  return {
    readFile(p: string) {
      try {
        return fs.readFileSync(p, 'utf8');
      } catch {
        return undefined;
      }
    },
  };
}

export function analyzer(): Promise<Analyzer> {
  shared ??= Analyzer.create({ host: diskHost() });
  return shared;
}

/** The diagnostics of a fixture, with offsets into `text` (a notebook's: the text of its code cells). */
export function analyseFixture(a: Analyzer, file: string): { text: string; diagnostics: Diagnostic[] } {
  const doc = openDocument(file, fs.readFileSync(file, 'utf8'));
  if ('notice' in doc) throw new Error(`${file}: ${doc.notice}`);
  return { text: doc.analysedText, diagnostics: a.analyze(doc.file, doc.analysedText, doc.language, analyzeOptionsFor(doc, {})).diagnostics };
}

export interface Expectation {
  kind: 'expect' | 'todo-expect' | 'todo-ok';
  ruleId: string;
  /** 1-based line/column, end exclusive. */
  key: string;
  line: number;
  /** A part of the message the user reads (`"changes on every call"` after the range): the finding's message must contain it. */
  message?: string;
}

const ANNOTATION = /(?:#|\/\/|\/\*)\s*(todo-expect|todo-ok|expect):\s*\[([\w-]+)\]\s*`([^`]*)`(?:#(\d+))?(?:\s+"([^"]+)")?/g;
const ANNOTATION_ONLY = /^\s*(?:\{\s*)?(?:#|\/\/|\/\*)\s*(?:todo-expect|todo-ok|expect):/;

export function rangeKey(index: LineIndex, start: number, end: number): string {
  const s = index.position(start);
  const e = index.position(end);
  return `${s.line + 1}:${s.column + 1}-${e.line + 1}:${e.column + 1}`;
}

export function diagnosticKey(index: LineIndex, d: Diagnostic): string {
  return `${d.ruleId}@${rangeKey(index, d.at.start, d.at.end)}`;
}

/**
 * Parses `expect: [rule] \`text\`` annotations (see test/fixtures/README.md): trailing ones
 * apply to their line, own-line ones to the next line that is not an annotation.
 */
export function parseExpectations(text: string): Expectation[] {
  const index = new LineIndex(text);
  const out: Expectation[] = [];
  const pending: Array<Annotation> = [];
  for (let line = 0; line < index.lineCount; line++) {
    const lineText = index.lineText(line);
    const found = [...lineText.matchAll(ANNOTATION)].map((m) => ({
      kind: m[1] as Expectation['kind'],
      ruleId: m[2],
      snippet: m[3],
      nth: m[4] ? Number(m[4]) : 1,
      message: m[5],
      line,
    }));
    if (ANNOTATION_ONLY.test(lineText)) {
      pending.push(...found);
      continue;
    }
    for (const a of [...pending.splice(0), ...found]) {
      out.push(resolve(text, index, line, a));
    }
  }
  if (pending.length) throw new Error(`annotation at line ${pending[0].line + 1} has no line after it`);
  return out;
}

interface Annotation {
  kind: Expectation['kind'];
  ruleId: string;
  snippet: string;
  nth: number;
  message?: string;
  line: number;
}

function resolve(text: string, index: LineIndex, line: number, a: Annotation): Expectation {
  const lineStart = index.lineStart(line);
  const lineText = index.lineText(line);
  const [startText, endText] = a.snippet.includes('...') ? a.snippet.split('...') : [a.snippet, undefined];
  let col = -1;
  for (let i = 0; i < a.nth; i++) {
    col = lineText.indexOf(startText, col + 1);
    if (col < 0) throw new Error(`line ${line + 1}: \`${startText}\` (#${a.nth}) not found for [${a.ruleId}] (annotation on line ${a.line + 1})`);
  }
  const start = lineStart + col;
  let end = start + startText.length;
  if (endText !== undefined) {
    const e = text.indexOf(endText, end);
    if (e < 0) throw new Error(`line ${line + 1}: end text \`${endText}\` not found`);
    end = e + endText.length;
  }
  return { kind: a.kind, ruleId: a.ruleId, key: `${a.ruleId}@${rangeKey(index, start, end)}`, line: line + 1, ...(a.message ? { message: a.message } : {}) };
}

const SOURCE = /\.(py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|ipynb)$/;

/** Every source file below `dir` (fixtures, examples, robustness workspaces), depth first. */
export function sources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) sources(p, out);
    else if (SOURCE.test(entry.name)) out.push(p);
  }
  return out;
}

/** Every node of a tree: its type, range and parent, in pre-order (to compare two parses of one text). */
export function treeNodes(tree: Tree): string[] {
  const out: string[] = [];
  for (let i = 0; i < tree.length; i++) out.push(`${tree.typeId[i]} ${tree.start[i]}-${tree.end[i]} ^${tree.parentOf[i]}`);
  return out;
}
