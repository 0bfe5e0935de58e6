/**
 * The fix loop (engine/fixpoint.ts) as `prefixlint check --fix` runs it, against a scripted
 * engine: fixpoint, the pass cap, and never writing a text that parses worse.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkFile } from '../src/cli/check';
import type { AnalysisEngine, FileResult } from '../src/engine/analyzer';
import { MAX_FIX_PASSES } from '../src/engine/fixpoint';
import { DiskHost } from '../src/host/source';
import type { Diagnostic } from '../src/core/diagnostic';
import type { Applicability } from '../src/core/fix';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-check-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

/**
 * Reports every `word` in the text with a fix that replaces it by `replacement` (or only the
 * first one with `firstOnly`). A text containing `BROKEN` gets a syntax-error notice.
 */
function engine(opts: { word: string; replacement: string; applicability?: Applicability; firstOnly?: boolean; notice?: string; noticeKind?: FileResult['noticeKind'] }): AnalysisEngine & {
  calls: number;
} {
  const e = {
    calls: 0,
    invalidate() {},
    analyze(f: string, text: string): FileResult {
      e.calls++;
      const diagnostics: Diagnostic[] = [];
      for (let i = text.indexOf(opts.word); i >= 0; i = text.indexOf(opts.word, i + 1)) {
        diagnostics.push({
          ruleId: 'fake-rule',
          severity: 'warning',
          message: `found ${opts.word}`,
          at: { file: f, start: i, end: i + opts.word.length },
          fix: {
            title: `replace ${opts.word}`,
            applicability: opts.applicability ?? 'safe',
            edits: [{ start: i, end: i + opts.word.length, newText: opts.replacement }],
          },
          related: [],
        });
        if (opts.firstOnly) break;
      }
      const broken = text.includes('BROKEN');
      const notice = opts.notice ?? (broken ? 'has syntax errors; analysed what could be parsed' : undefined);
      const noticeKind = opts.noticeKind ?? (broken ? 'syntax' : undefined);
      return { file: f, language: 'python', diagnostics, calls: [], notice, noticeKind };
    },
  };
  return e;
}

describe('checkFile --fix', () => {
  it('repeats fix passes until nothing is left, then writes once', () => {
    const p = file('fixpoint.py', 'a a a\n');
    const out = checkFile(engine({ word: 'a', replacement: 'b', firstOnly: true }), new DiskHost(), p, { fix: true, unsafeFixes: false });
    expect(fs.readFileSync(p, 'utf8')).toBe('b b b\n');
    expect(out.fixed).toBe(3);
    expect(out.findings).toEqual([]);
    expect(out.notices).toEqual([]);
  });

  it(`stops after ${MAX_FIX_PASSES} passes`, () => {
    const p = file('capped.py', 'a '.repeat(MAX_FIX_PASSES + 2) + '\n');
    const out = checkFile(engine({ word: 'a', replacement: 'b', firstOnly: true }), new DiskHost(), p, { fix: true, unsafeFixes: false });
    expect(out.fixed).toBe(MAX_FIX_PASSES);
    expect(out.findings).toHaveLength(1); // the engine reports the first one left
    expect(fs.readFileSync(p, 'utf8').match(/a/g)).toHaveLength(2);
  });

  it('never writes a fix that makes the text parse worse, and says so', () => {
    const p = file('breaks.py', 'x = 1\n');
    const e = engine({ word: 'x', replacement: 'BROKEN' });
    const out = checkFile(e, new DiskHost(), p, { fix: true, unsafeFixes: false });
    expect(fs.readFileSync(p, 'utf8')).toBe('x = 1\n');
    expect(out.fixed).toBe(0);
    expect(out.findings).toHaveLength(1);
    expect(out.notices).toHaveLength(1);
    expect(out.notices[0]).toMatch(/^1:1: fix for fake-rule not applied .*would not parse$/);
  });

  it('keeps the good fixes of a pass when together they break the text', () => {
    const inner = engine({ word: 'ok', replacement: 'fine' });
    const q = file('pair.py', 'ok ok\n');
    const pairBreaks: AnalysisEngine = {
      invalidate() {},
      analyze(f, text) {
        const r = inner.analyze(f, text);
        return text.includes('fine fine') ? { ...r, notice: 'has syntax errors', noticeKind: 'syntax' } : r;
      },
    };
    const out2 = checkFile(pairBreaks, new DiskHost(), q, { fix: true, unsafeFixes: false });
    // The first fix alone is fine; the second then breaks and is skipped.
    expect(fs.readFileSync(q, 'utf8')).toBe('fine ok\n');
    expect(out2.fixed).toBe(1);
    expect(out2.notices.filter((n) => n.includes('would not parse'))).toHaveLength(1);
  });

  it('does not fix a file that already has syntax errors', () => {
    const p = file('already.py', 'a BROKEN\n');
    const out = checkFile(engine({ word: 'a', replacement: 'b' }), new DiskHost(), p, { fix: true, unsafeFixes: false });
    expect(fs.readFileSync(p, 'utf8')).toBe('a BROKEN\n');
    expect(out.notices).toContain('fixes not applied: the file did not parse cleanly before fixing');
  });

  it('applies unsafe fixes only when asked', () => {
    const p = file('unsafe.py', 'a\n');
    const e = engine({ word: 'a', replacement: 'b', applicability: 'unsafe' });
    checkFile(e, new DiskHost(), p, { fix: true, unsafeFixes: false });
    expect(fs.readFileSync(p, 'utf8')).toBe('a\n');
    checkFile(e, new DiskHost(), p, { fix: true, unsafeFixes: true });
    expect(fs.readFileSync(p, 'utf8')).toBe('b\n');
  });

  it('keeps a byte order mark when it writes', () => {
    const p = file('bom.py', '\ufeffa = 1\n');
    const out = checkFile(engine({ word: 'a', replacement: 'b' }), new DiskHost(), p, { fix: true, unsafeFixes: false });
    expect(out.fixed).toBe(1);
    expect(fs.readFileSync(p, 'utf8')).toBe('\ufeffb = 1\n');
  });

  it('marks an analyzer failure as an internal error without stopping', () => {
    const p = file('crash.py', 'a\n');
    const out = checkFile(engine({ word: 'zzz', replacement: '', notice: 'internal error while analysing: boom', noticeKind: 'internal' }), new DiskHost(), p, {
      fix: false,
      unsafeFixes: false,
    });
    expect(out.crashed).toBe(true);
    expect(out.notices).toEqual(['internal error while analysing: boom']);
  });
});
