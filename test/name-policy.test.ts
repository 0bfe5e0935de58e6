/**
 * The policy for names prefixlint does not know, measured on the pinned SDK's own names: none
 * of them is reported as unknown, and with any one of them taken out of the table no safe fix
 * rewrites it into another name (which would turn a valid request into a different one).
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/core/diagnostic';
import type { KnownNames } from '../src/core/knownNames';
import { loadKnownNames, modelInfo } from '../src/core/knownNames';
import { canonicalSpelling, judgeUnknownName, parseDatedName } from '../src/core/namePolicy';
import { estimateRequest } from '../src/core/tokens';
import { readSdkNames, sdkPackageDir } from '../scripts/known-names/readSdk';
import { analyzer, ROOT } from './helpers';

const sdk = readSdkNames(sdkPackageDir(ROOT));
const table = loadKnownNames();
const dir = path.join(ROOT, 'test', 'fixtures', '_policy');

function pythonWith(betas: string[]): string {
  const list = betas.map((b) => JSON.stringify(b)).join(', ');
  return [
    'import anthropic',
    '',
    `client = anthropic.Anthropic(default_headers={"anthropic-beta": ${JSON.stringify(betas.join(','))}})`,
    '',
    '',
    'def ask(question: str):',
    `    return client.beta.messages.create(model="claude-sonnet-4-6", max_tokens=1024, betas=[${list}], messages=[{"role": "user", "content": question}])`,
    '',
  ].join('\n');
}

function typescriptWith(betas: string[]): string {
  const list = betas.map((b) => `'${b}'`).join(', ');
  return [
    "import Anthropic from '@anthropic-ai/sdk';",
    '',
    `const client = new Anthropic({ defaultHeaders: { 'anthropic-beta': '${betas.join(',')}' } });`,
    '',
    'export async function ask(question: string) {',
    `  return client.beta.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, betas: [${list}], messages: [{ role: 'user', content: question }] });`,
    '}',
    '',
  ].join('\n');
}

function typesFile(tool: string, edit: string, block: string): string {
  return [
    'import anthropic',
    '',
    'client = anthropic.Anthropic()',
    '',
    '',
    'def run(task: str):',
    '    return client.beta.messages.create(',
    '        model="claude-opus-4-7",',
    '        max_tokens=1024,',
    `        tools=[{"type": ${JSON.stringify(tool)}, "name": "t"}],`,
    `        context_management={"edits": [{"type": ${JSON.stringify(edit)}}]},`,
    `        messages=[{"role": "user", "content": [{"type": ${JSON.stringify(block)}, "text": task}]}],`,
    '    )',
    '',
  ].join('\n');
}

function without(known: KnownNames, name: string): KnownNames {
  const drop = <T>(m: Map<string, T>) => new Map([...m].filter(([k]) => k !== name));
  return { ...known, betas: drop(known.betas), toolTypes: drop(known.toolTypes), editTypes: drop(known.editTypes), contentBlockTypes: new Set([...known.contentBlockTypes].filter((k) => k !== name)) };
}

const of = (ds: Diagnostic[], id: string) => ds.filter((d) => d.ruleId === id);

describe("the pinned SDK's names", () => {
  const names = [...sdk.betas, ...sdk.sentBetas];

  it('every beta of the SDK, in betas lists and headers, raises no unknown-beta finding', async () => {
    const a = await analyzer();
    const py = a.analyze(path.join(dir, 'all_betas.py'), pythonWith(names));
    const ts = a.analyze(path.join(dir, 'all-betas.ts'), typescriptWith(names));
    expect(py.notice).toBeUndefined();
    expect(ts.notice).toBeUndefined();
    expect(py.calls.length).toBe(1);
    expect(of(py.diagnostics, 'unknown-beta').map((d) => d.message)).toEqual([]);
    expect(of(ts.diagnostics, 'unknown-beta').map((d) => d.message)).toEqual([]);
    // Stale ones are info, never errors.
    for (const d of [...py.diagnostics, ...ts.diagnostics]) expect(d.severity, d.message).not.toBe('error');
  });

  it('with any one beta taken out of the table, no safe fix rewrites it (leave-one-out over the SDK and the table)', async () => {
    const a = await analyzer();
    const all = [...new Set([...names, ...table.betas.keys()])];
    const report: Record<string, number> = { silent: 0, warning: 0, error: 0, unsafeFix: 0 };
    for (const name of all) {
      const known = without(table, name);
      for (const [file, text] of [[path.join(dir, 'one.py'), pythonWith([name])], [path.join(dir, 'one.ts'), typescriptWith([name])]] as const) {
        const found = of(a.analyze(file, text, undefined, { known }).diagnostics, 'unknown-beta');
        for (const d of found) {
          expect(d.fix?.applicability, `${name}: ${d.message}`).not.toBe('safe');
          report[d.severity === 'error' ? 'error' : 'warning']++;
          if (d.fix) report.unsafeFix++;
        }
        if (!found.length) report.silent++;
      }
    }
    // Names dated within the recent window become warnings; older ones errors (a misdating of a
    // known name is an unsafe suggestion at most). Both kinds must occur for the check to mean much.
    expect(report.warning).toBeGreaterThan(0);
    expect(report.error).toBeGreaterThan(0);
  });

  it('with any one tool, edit or block type taken out, no safe fix rewrites it', async () => {
    const a = await analyzer();
    const types: Array<[string, 'tool' | 'edit' | 'block']> = [
      ...new Set([...sdk.toolTypes, ...sdk.betaToolTypes]).values(),
    ].map((t) => [t, 'tool'] as [string, 'tool']);
    types.push(...sdk.editTypes.map((t) => [t, 'edit'] as [string, 'edit']));
    types.push(...[...new Set([...sdk.contentBlockTypes, ...sdk.betaContentBlockTypes])].map((t) => [t, 'block'] as [string, 'block']));
    let checked = 0;
    for (const [name, ns] of types) {
      const text = typesFile(ns === 'tool' ? name : 'bash_20250124', ns === 'edit' ? name : 'clear_tool_uses_20250919', ns === 'block' ? name : 'text');
      const found = of(a.analyze(path.join(dir, 'types.py'), text, undefined, { known: without(table, name) }).diagnostics, 'unknown-type');
      for (const d of found) expect(d.fix?.applicability, `${name}: ${d.message}`).not.toBe('safe');
      checked++;
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('an mcp_toolset is enabled by either MCP connector beta', async () => {
    const a = await analyzer();
    for (const beta of ['mcp-client-2025-11-20', 'mcp-client-2026-09-15']) {
      const text = [
        'import anthropic',
        'client = anthropic.Anthropic()',
        'def run(q: str, token: str):',
        '    return client.beta.messages.create(',
        '        model="claude-opus-4-7",',
        '        max_tokens=1024,',
        `        betas=["${beta}"],`,
        '        mcp_servers=[{"type": "url", "url": "https://mcp.example.com/mcp", "name": "docs", "authorization_token": token}],',
        '        tools=[{"type": "mcp_toolset", "mcp_server_name": "docs"}],',
        '        messages=[{"role": "user", "content": q}],',
        '    )',
        '',
      ].join('\n');
      expect(a.analyze(path.join(dir, 'mcp.py'), text).diagnostics.map((d) => d.ruleId)).toEqual([]);
    }
  });
});

describe('name verdicts', () => {
  const known = new Set(['compact-2026-01-12', 'interleaved-thinking-2025-05-14', 'fast-mode-2026-02-01', 'server-side-fallback-2026-06-01', 'server-side-fallback-2026-07-01']);
  const judge = (name: string) => judgeUnknownName(name, known, { spelling: 'beta', asOf: '2026-12-01', maxDistance: 3 });

  it('parses dates in any spelling and knows which are well formed', () => {
    expect(parseDatedName('interleaved-thinking-2025-05-14', 'beta')).toEqual({ feature: 'interleaved-thinking', date: '2025-05-14', wellFormed: true });
    expect(parseDatedName('interleaved-thinking-2025-5-14', 'beta')).toEqual({ feature: 'interleaved-thinking', date: '2025-05-14', wellFormed: false });
    expect(parseDatedName('claude-code-20250219', 'beta')).toEqual({ feature: 'claude-code', date: '2025-02-19', wellFormed: false });
    expect(parseDatedName('memory_2025_08_18', 'type')).toEqual({ feature: 'memory', date: '2025-08-18', wellFormed: false });
    expect(parseDatedName('fast-mode-2026-02-30', 'beta').date).toBeUndefined();
    expect(canonicalSpelling('interleaved-thinking-2025-5-14', 'beta')).toBe('interleaved-thinking-2025-05-14');
  });

  it('a fix is safe only when it keeps the feature and the date', () => {
    expect(judge('interleaved-thinkng-2025-05-14')).toMatchObject({ kind: 'misspelled', fix: 'safe' });
    expect(judge('interleaved-thinking-2025-5-14')).toMatchObject({ kind: 'respelled', fix: 'safe' });
    expect(judge('interleaved-thinking-2025-04-14')).toMatchObject({ kind: 'misdated', fix: 'unsafe' });
    expect(judge('fast-mode-2026-01-02')).toMatchObject({ kind: 'misdated', fix: 'unsafe' });
  });

  it('a well-formed name dated near or after the table is possibly new: no fix', () => {
    expect(judge('compact-2026-09-04')).toEqual({ kind: 'recent', suggestions: ['compact-2026-01-12'] });
    expect(judge('compact-2027-01-20').fix).toBeUndefined();
    expect(judge('server-side-fallback-2026-08-01')).toMatchObject({ kind: 'recent' });
    expect(judge('brand-new-feature-2026-11-30')).toEqual({ kind: 'recent', suggestions: [] });
    // Old and far from every known name: unknown, no fix.
    expect(judge('super-cache-2025-01-01')).toEqual({ kind: 'unknown', suggestions: [] });
  });
});

describe('models', () => {
  it('match exactly, with dated snapshots and platform spellings, never another model by prefix', () => {
    expect(modelInfo(table, 'claude-sonnet-5-5')?.family).toBe('Claude Sonnet 5.5');
    expect(modelInfo(table, 'claude-sonnet-5')?.family).toBe('Claude Sonnet 5');
    expect(modelInfo(table, 'claude-sonnet-4-5-20250929')?.id).toBe('claude-sonnet-4-5');
    expect(modelInfo(table, 'claude-sonnet-4-20250514')?.id).toBe('claude-sonnet-4');
    expect(modelInfo(table, 'claude-sonnet-4-6@20250929')?.id).toBe('claude-sonnet-4-6');
    expect(modelInfo(table, 'us.anthropic.claude-opus-4-1-20250805-v1:0')?.id).toBe('claude-opus-4-1');
    expect(modelInfo(table, 'claude-3-5-haiku-latest')?.id).toBe('claude-3-5-haiku');
    expect(modelInfo(table, 'claude-opus-4-9')).toBeUndefined();
    expect(modelInfo(table, 'claude-sonnet-5-6')).toBeUndefined();
  });

  it('claude-sonnet-5-5 with a ~613-token cached prefix is silent; the same prefix on claude-sonnet-5 is reported', async () => {
    const a = await analyzer();
    const sentence = 'The on-call runbook covers paging, triage, rollback and the incident review. ';
    const prompt = sentence.repeat(22);
    const file = (model: string) =>
      [
        'import anthropic',
        '',
        'client = anthropic.Anthropic()',
        `RUNBOOK = ${JSON.stringify(prompt)}`,
        '',
        '',
        'def ask(question: str):',
        '    return client.messages.create(',
        `        model="${model}",`,
        '        max_tokens=1024,',
        '        system=[{"type": "text", "text": RUNBOOK, "cache_control": {"type": "ephemeral"}}],',
        '        messages=[{"role": "user", "content": question}],',
        '    )',
        '',
      ].join('\n');
    const newer = a.analyze(path.join(dir, 'sonnet55.py'), file('claude-sonnet-5-5'));
    const estimate = estimateRequest(newer.calls[0], table);
    expect(estimate.prefix).toBeGreaterThan(590);
    expect(estimate.prefix).toBeLessThan(640);
    expect(estimate.minCacheable).toBe(512);
    expect(of(newer.diagnostics, 'prefix-below-minimum')).toEqual([]);
    const older = a.analyze(path.join(dir, 'sonnet5.py'), file('claude-sonnet-5'));
    expect(of(older.diagnostics, 'prefix-below-minimum').length).toBe(1);
  });

  it('prices a long prompt at the long-prompt band', async () => {
    const a = await analyzer();
    const long = 'word '.repeat(200_000);
    const text = ['import anthropic', 'client = anthropic.Anthropic()', `DOC = ${JSON.stringify(long)}`, 'def ask(q: str):', '    return client.messages.create(model="claude-haiku-5-5", max_tokens=64, messages=[{"role": "user", "content": DOC + q}])', ''].join('\n');
    const e = estimateRequest(a.analyze(path.join(dir, 'long.py'), text).calls[0], table);
    const info = modelInfo(table, 'claude-haiku-5-5')!;
    expect(e.total).toBeGreaterThan(info.longPrompt!.threshold);
    expect(e.costCold).toBeCloseTo((e.total * info.longPrompt!.input) / 1e6, 6);
  });
});
