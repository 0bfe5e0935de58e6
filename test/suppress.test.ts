/**
 * Suppression comments in the engine (the fixture table in rules.test.ts covers the
 * unused-suppression rule file by file): the comments the editor writes are the comments the
 * engine reads, a rule that did not run is not judged, the unused-suppression finding itself
 * can be silenced and configured, and every spelling of the syntax parses.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Analyzer } from '../src/engine/analyzer';
import type { LanguageId } from '../src/core/model';
import { applySuppressions, removeUnit } from '../src/core/suppress';
import { commentAnchor, findSuppressions, suppressionComment } from '../src/lang/comments';
import type { SuppressionScope } from '../src/lang/comments';
import { allRules } from '../src/rules';
import { analyzer } from './helpers';

const PY = `import anthropic
from datetime import datetime

client = anthropic.Anthropic()


def ask(question: str) -> str:
    resp = client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        cache_control={"type": "ephemeral"},
        system=f"You are a helpful assistant. Current time: {datetime.now()}",
        messages=[{"role": "user", "content": question}],
    )
    return resp.content[0].text
`;

const TS = `import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function ask(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 512,
    cache_control: { type: 'ephemeral' },
    system: \`You are a helpful assistant. Now: \${new Date().toISOString()}\`,
    messages: [{ role: 'user', content: question }],
  });
}
`;

const SOURCES: Array<{ language: LanguageId; file: string; text: string; marker: string }> = [
  { language: 'python', file: 'ask.py', text: PY, marker: '        system=' },
  { language: 'typescript', file: 'ask.ts', text: TS, marker: '    system: ' },
  { language: 'tsx', file: 'ask.tsx', text: TS, marker: '    system: ' },
  { language: 'javascript', file: 'ask.js', text: TS.replace('(question: string)', '(question)'), marker: '    system: ' },
];

const ids = (a: Analyzer, file: string, text: string, opts = {}) => a.analyze(path.join('/virtual', file), text, undefined, opts).diagnostics.map((d) => d.ruleId);

/** The text with `comment` inserted as its own line before the line starting with `marker`, or at the end of that line. */
function withComment(text: string, marker: string, comment: string, where: 'above' | 'trailing' | 'top'): string {
  if (where === 'top') return `${comment}\n${text}`;
  const at = text.indexOf(marker);
  if (where === 'above') return text.slice(0, at) + ' '.repeat(marker.length - marker.trimStart().length) + comment + '\n' + text.slice(at);
  const end = text.indexOf('\n', at);
  return text.slice(0, end) + '  ' + comment + text.slice(end);
}

describe('suppression comments', () => {
  for (const src of SOURCES) {
    it(`${src.language}: the comments the editor writes silence the finding, and nothing is left over`, async () => {
      const a = await analyzer();
      expect(ids(a, src.file, src.text)).toEqual(['volatile-system-prompt']);
      const cases: Array<[SuppressionScope, 'above' | 'trailing' | 'top']> = [
        ['next-line', 'above'],
        ['line', 'trailing'],
        ['file', 'top'],
      ];
      for (const [scope, where] of cases) {
        const comment = suppressionComment(src.language, scope, ['volatile-system-prompt']);
        const text = withComment(src.text, src.marker, comment, where);
        expect(ids(a, src.file, text), `${scope}: ${comment}`).toEqual([]);
        // Naming another rule too: only that name is reported, and the fix keeps the used one.
        const two = withComment(src.text, src.marker, suppressionComment(src.language, scope, ['volatile-system-prompt', 'unknown-beta']), where);
        const [d, ...rest] = a.analyze(path.join('/virtual', src.file), two).diagnostics;
        expect(rest).toEqual([]);
        expect(d.ruleId).toBe('unused-suppression');
        expect(two.slice(d.at.start, d.at.end)).toBe('unknown-beta');
        expect(d.fix?.applicability).toBe('safe');
        expect(d.fix?.edits.map((e) => e.newText)).toEqual(['volatile-system-prompt']);
      }
    });
  }

  it('reads a reason after " -- ", stacked comments, and a comment that shares its line with another one', async () => {
    const a = await analyzer();
    const py = (comment: string, where: 'above' | 'trailing') => ids(a, 'ask.py', withComment(PY, '        system=', comment, where));
    expect(py('# prefixlint: disable-next-line=volatile-system-prompt -- the time is shown to the user', 'above')).toEqual([]);
    expect(py('# type: ignore  # prefixlint: disable=volatile-system-prompt', 'trailing')).toEqual([]);
    expect(py('# prefixlint: disable=volatile-system-prompt  # noqa: E501', 'trailing')).toEqual([]);
    const stacked = withComment(withComment(PY, '        system=', '# prefixlint: disable-next-line=unknown-type', 'above'), '        system=', '# prefixlint: disable-next-line=volatile-system-prompt', 'above');
    // The second comment sits between the first and the line: both apply to that line.
    expect(a.analyze('/virtual/ask.py', stacked).diagnostics.map((d) => [d.ruleId, d.message.split(':')[0]])).toEqual([['unused-suppression', 'Unused suppression']]);
    const ts = (comment: string, where: 'above' | 'trailing') => ids(a, 'ask.ts', withComment(TS, '    system: ', comment, where));
    expect(ts('/* prefixlint-disable-next-line volatile-system-prompt -- shown to the user */', 'above')).toEqual([]);
    expect(ts('/* prefixlint-disable-line volatile-system-prompt */', 'trailing')).toEqual([]);
  });

  it('reports malformed comments without a fix, and leaves other comments alone', async () => {
    const a = await analyzer();
    for (const [file, text, comment] of [
      ['ask.py', PY, '# prefixlint: disable-line=volatile-system-prompt'],
      ['ask.py', PY, '# prefixlint: disable='],
      ['ask.py', PY, '# prefixlint: disable=volatile-system-prompt because'],
      ['ask.ts', TS, '// prefixlint-disable volatile-system-prompt'],
      ['ask.ts', TS, '// prefixlint-disable-line'],
    ] as const) {
      const marker = file.endsWith('.py') ? '        system=' : '    system: ';
      const ds = a.analyze(`/virtual/${file}`, withComment(text, marker, comment, 'trailing')).diagnostics;
      const unused = ds.filter((d) => d.ruleId === 'unused-suppression');
      expect(unused, comment).toHaveLength(1);
      expect(unused[0].message).toMatch(/^Malformed suppression comment: /);
      expect(unused[0].fix).toBeUndefined();
      expect(ds.map((d) => d.ruleId)).toContain('volatile-system-prompt');
    }
    // Prose that mentions prefixlint is not a directive.
    expect(ids(a, 'ask.py', '# Checked by prefixlint in CI.\n' + PY)).toEqual(['volatile-system-prompt']);
    expect(ids(a, 'ask.ts', '// see the prefixlint-disable-line docs\n' + TS)).toEqual(['volatile-system-prompt']);
  });

  it('does not judge a rule that did not run, and obeys the configured severity and selection', async () => {
    const a = await analyzer();
    const text = withComment(PY, '        system=', '# prefixlint: disable=volatile-system-prompt,unknown-beta', 'trailing');
    const only = (...names: string[]) => allRules.filter((r) => names.includes(r.meta.id));
    // unknown-beta did not run: its name is not judged; volatile-system-prompt is silenced.
    expect(ids(a, 'ask.py', text, { rules: only('volatile-system-prompt', 'unused-suppression') })).toEqual([]);
    // unused-suppression did not run: suppressions still silence, nothing is reported.
    expect(ids(a, 'ask.py', text, { rules: only('volatile-system-prompt', 'unknown-beta') })).toEqual([]);
    const all = a.analyze('/virtual/ask.py', text, undefined, { severity: { 'unused-suppression': 'error' } }).diagnostics;
    expect(all.map((d) => [d.ruleId, d.severity])).toEqual([['unused-suppression', 'error']]);
  });

  it('lets a suppression silence unused-suppression itself, and never reports that one as unused', async () => {
    const a = await analyzer();
    const text = '# prefixlint: disable-file=unused-suppression -- generated code\n' + withComment(PY, '        system=', '# prefixlint: disable=unknown-beta', 'trailing');
    expect(ids(a, 'ask.py', text)).toEqual(['volatile-system-prompt']);
  });

  it('anchors a finding inside a multi-line literal to the literal: above its first line, or after its last', async () => {
    const a = await analyzer();
    const multi = PY.replace(
      'system=f"You are a helpful assistant. Current time: {datetime.now()}",',
      'system=f"""You are a helpful assistant.\nCurrent time: {datetime.now()}""",',
    );
    expect(ids(a, 'ask.py', multi)).toEqual(['volatile-system-prompt']);
    expect(ids(a, 'ask.py', withComment(multi, '        system=', '# prefixlint: disable-next-line=volatile-system-prompt', 'above'))).toEqual([]);
    expect(ids(a, 'ask.py', multi.replace('{datetime.now()}""",', '{datetime.now()}""",  # prefixlint: disable=volatile-system-prompt'))).toEqual([]);
    // The editor asks where a "disable for this line" comment goes: above the literal.
    const tree = a.parsers.parse('python', multi);
    const offset = multi.indexOf('datetime.now()');
    expect(commentAnchor('python', tree.rootNode.descendantForIndex(offset), offset)).toBe(multi.indexOf('f"""'));
    const plain = multi.indexOf('max_tokens');
    expect(commentAnchor('python', tree.rootNode.descendantForIndex(plain), plain)).toBe(plain);
    expect(findSuppressions(tree, multi, 'python')).toEqual([]);
  });
});

describe('removing a suppression', () => {
  const remove = (text: string, unit: string) => {
    const start = text.indexOf(unit);
    const [e] = removeUnit(text, { start, end: start + unit.length });
    return text.slice(0, e.start) + e.newText + text.slice(e.end);
  };

  it('takes the whole line when the comment is alone on it, else only the comment and its spacing', () => {
    expect(remove('a = 1\n  # prefixlint: disable-next-line=x\nb = 2\n', '# prefixlint: disable-next-line=x')).toBe('a = 1\nb = 2\n');
    expect(remove('a = 1  # prefixlint: disable=x\nb = 2\n', '# prefixlint: disable=x')).toBe('a = 1\nb = 2\n');
    expect(remove('a = 1\r\n# prefixlint: disable-file=x\r\nb = 2\r\n', '# prefixlint: disable-file=x')).toBe('a = 1\r\nb = 2\r\n');
    expect(remove('a = 1\n# prefixlint: disable-file=x', '# prefixlint: disable-file=x')).toBe('a = 1');
    expect(remove('f(/* prefixlint-disable-line x */ a);\n', '/* prefixlint-disable-line x */')).toBe('f(a);\n');
    expect(remove('x = 1  # prefixlint: disable=x  # type: ignore\n', '# prefixlint: disable=x')).toBe('x = 1  # type: ignore\n');
  });

  it('reports a name given twice, with a fix that keeps one', () => {
    const text = 'x = 1  # prefixlint: disable=a,a\n';
    const start = text.indexOf('a,a');
    const directive = {
      scope: 'line' as const,
      unit: { start: text.indexOf('#'), end: text.length - 1 },
      text: '# prefixlint: disable=a,a',
      names: [
        { name: 'a', start, end: start + 1 },
        { name: 'a', start: start + 2, end: start + 3 },
      ],
      list: { start, end: start + 3 },
      separator: ',',
    };
    const diagnostic = { ruleId: 'a', severity: 'error' as const, message: 'm', at: { file: 'f', start: 0, end: 1 }, related: [] };
    const r = applySuppressions(text, [directive], [diagnostic], { ran: new Set(['a']), ruleIds: new Set(['a']), groups: new Set() });
    expect(r.kept).toEqual([]);
    expect(r.suppressed).toBe(1);
    expect(r.problems.map((p) => [p.kind, p.at.start])).toEqual([['duplicate', start + 2]]);
    expect(r.problems[0].kind !== 'malformed' && r.problems[0].fix).toEqual([{ start, end: start + 3, newText: 'a' }]);
  });
});
