/**
 * The fixture table: every file under test/fixtures/<rule-id>/ is analysed and its
 * diagnostics must equal its `expect:` annotations exactly (rule id and range); bad files'
 * fixes, through the fix loop that `prefixlint check --fix` and the editor run
 * (engine/fixpoint.ts), must produce the `.fixed` / `.unsafe-fixed` files byte for byte, still
 * parse, and leave no fixable diagnostic of that rule behind.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/core/diagnostic';
import { LineIndex } from '../src/core/span';
import type { Analyzer, FileResult } from '../src/engine/analyzer';
import { analyzeOptionsFor, openDocument } from '../src/engine/document';
import type { SourceDocument } from '../src/engine/document';
import { fixToFixpoint } from '../src/engine/fixpoint';
import { allRules } from '../src/rules';
import { analyzer, diagnosticKey, FIXTURES, parseExpectations } from './helpers';

const SOURCE = /^(bad|good)(-[\w-]+)?\.(py|ts|tsx|js|jsx|mjs|ipynb)$/;

interface Case {
  rule: string;
  name: string;
  file: string;
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const rule of fs.readdirSync(FIXTURES).sort()) {
    const dir = path.join(FIXTURES, rule);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const name of fs.readdirSync(dir).sort()) if (SOURCE.test(name)) out.push({ rule, name, file: path.join(dir, name) });
  }
  return out;
}

function open(file: string, raw: string): SourceDocument {
  const doc = openDocument(file, raw);
  if ('notice' in doc) throw new Error(`${file}: ${doc.notice}`);
  return doc;
}

/** Analysis of a source file or a notebook: diagnostics with offsets into `text` (a notebook's virtual Python text). */
function analyse(a: Analyzer, file: string, raw: string): { text: string; result: FileResult } {
  const doc = open(file, raw);
  // As the command line and the editor analyse a document: a notebook's messages name cells' lines.
  return { text: doc.analysedText, result: a.analyze(doc.file, doc.analysedText, doc.language, analyzeOptionsFor(doc, {})) };
}

/** The file after its fixes, through the fix loop that `prefixlint check --fix` runs. */
function fixTo(a: Analyzer, file: string, raw: string, unsafe: boolean): string {
  return fixToFixpoint(a, open(file, raw), { unsafe }).document.text;
}

function fixedPath(file: string, kind: 'fixed' | 'unsafe-fixed'): string {
  const ext = path.extname(file);
  return file.slice(0, -ext.length) + `.${kind}${ext}`;
}

function parses(a: Analyzer, file: string, text: string): boolean {
  const doc = openDocument(file, text);
  return !('notice' in doc) && a.parsesCleanly(file, doc.analysedText, doc.language);
}

const ALL = cases();
const UPDATE = process.env.PREFIXLINT_UPDATE_FIXTURES === '1';
const KNOWN = new Set(allRules.map((r) => r.meta.id));

describe('fixtures', () => {
  it('exist for every rule', () => {
    const dirs = new Set(ALL.map((c) => c.rule));
    for (const id of KNOWN) expect(dirs.has(id), `test/fixtures/${id}/ is missing`).toBe(true);
  });

  for (const c of ALL) {
    it(`${c.rule}/${c.name}`, async () => {
      const a = await analyzer();
      const raw = fs.readFileSync(c.file, 'utf8');
      const { text, result } = analyse(a, c.file, raw);
      expect(result.notice).toBeUndefined();
      const index = new LineIndex(text);
      const expectations = parseExpectations(text);
      if (c.name.startsWith('good')) expect(expectations.filter((e) => e.kind === 'expect')).toEqual([]);
      for (const e of expectations) expect(KNOWN.has(e.ruleId), `unknown rule in annotation: ${e.ruleId}`).toBe(true);

      const actual = result.diagnostics.map((d) => diagnosticKey(index, d)).sort();
      const expected = expectations.filter((e) => e.kind === 'expect').map((e) => e.key).sort();
      const todoExpect = new Set(expectations.filter((e) => e.kind === 'todo-expect').map((e) => e.key));
      const todoOk = new Set(expectations.filter((e) => e.kind === 'todo-ok').map((e) => e.key));
      // A known gap that closes must be re-annotated: todo-expect found, or todo-ok silent, fails.
      for (const k of todoExpect) expect(actual, `todo-expect ${k} is now reported: change it to expect`).not.toContain(k);
      for (const k of todoOk) expect(actual, `todo-ok ${k} is no longer reported: remove it`).toContain(k);
      expect(actual.filter((k) => !todoOk.has(k))).toEqual(expected);
      // A message written after the range (`"changes on every call"`) is part of what the user reads.
      for (const e of expectations.filter((x) => x.kind === 'expect' && x.message)) {
        const found = result.diagnostics.filter((d) => diagnosticKey(index, d) === e.key).map((d) => d.message);
        expect(found.some((m) => m.includes(e.message!)), `${e.key}: no message contains "${e.message}" (${found.join(' | ')})`).toBe(true);
      }

      if (!c.name.startsWith('bad')) return;
      await checkFixes(a, c, raw, result.diagnostics);
    });
  }
});

async function checkFixes(a: Analyzer, c: Case, raw: string, diagnostics: Diagnostic[]) {
  const hasSafe = diagnostics.some((d) => d.fix?.applicability === 'safe');
  const hasUnsafe = diagnostics.some((d) => d.fix?.applicability === 'unsafe');
  for (const [kind, unsafe, has] of [['fixed', false, hasSafe], ['unsafe-fixed', true, hasUnsafe]] as const) {
    const expectedFile = fixedPath(c.file, kind);
    // `PREFIXLINT_UPDATE_FIXTURES=1 npx vitest run test/rules.test.ts` writes the fixed outputs; review their diff.
    if (UPDATE) {
      if (has) fs.writeFileSync(expectedFile, fixTo(a, c.file, raw, unsafe));
      else fs.rmSync(expectedFile, { force: true });
    }
    const exists = fs.existsSync(expectedFile);
    if (!has) {
      expect(exists, `${path.basename(expectedFile)} exists but no ${unsafe ? 'unsafe' : 'safe'} fix is offered`).toBe(false);
      continue;
    }
    expect(exists, `a ${unsafe ? 'unsafe' : 'safe'} fix is offered: ${path.basename(expectedFile)} is missing`).toBe(true);
    const fixed = fixTo(a, c.file, raw, unsafe);
    expect(fixed).toBe(fs.readFileSync(expectedFile, 'utf8'));
    expect(parses(a, c.file, fixed), `${kind} output no longer parses`).toBe(true);
    // Nothing the fix could repair is left for this rule.
    const again = analyse(a, c.file, fixed).result.diagnostics.filter((d) => d.ruleId === c.rule);
    const leftFixable = again.filter((d) => d.fix && (unsafe || d.fix.applicability === 'safe'));
    expect(leftFixable.map((d) => d.message)).toEqual([]);
    // Applying the fixes again changes nothing.
    expect(fixTo(a, c.file, fixed, unsafe)).toBe(fixed);
  }
  // Leave the workspace with the original text (other fixtures may import this file).
  analyse(a, c.file, raw);
}
