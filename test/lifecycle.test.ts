/**
 * Models the pinned SDK no longer lists: the table keeps the retired models with their dates
 * and sources (the generator never drops them), their ids match exactly, and a retirement
 * without a documented date is reported without one.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/core/diagnostic';
import type { KnownNamesFile } from '../src/core/knownNames';
import { loadKnownNames, modelInfo } from '../src/core/knownNames';
import { readSdkNames, sdkPackageDir } from '../scripts/known-names/readSdk';
import { mergeSdkNames } from '../scripts/known-names/update';
import data from '../src/data/known-names.json';
import { analyzer, ROOT } from './helpers';

const sdk = readSdkNames(sdkPackageDir(ROOT));
const known = loadKnownNames();
const table = data as unknown as KnownNamesFile;
const dir = path.join(ROOT, 'test', 'fixtures', '_lifecycle');
const of = (ds: Diagnostic[], id: string) => ds.filter((d) => d.ruleId === id);

/** A Python request for `model`, with `tools` written as Python source. */
function request(model: string, tools = '[]'): string {
  return ['import anthropic', '', 'client = anthropic.Anthropic()', '', '', 'def ask(question: str):', `    return client.messages.create(model=${JSON.stringify(model)}, max_tokens=1024, tools=${tools}, messages=[{"role": "user", "content": question}])`, ''].join('\n');
}

describe('models the pinned SDK no longer lists', () => {
  const sdkModels = new Set(sdk.models);
  const older = table.models.filter((m) => ![m.id, ...(m.aliases ?? [])].some((id) => sdkModels.has(id)));

  it('are in the table, each retired or deprecated, with sources', () => {
    const ids = older.flatMap((m) => [m.id, ...(m.aliases ?? [])]);
    for (const id of ['claude-3-opus-20240229', 'claude-3-sonnet-20240229', 'claude-3-haiku-20240307', 'claude-3-5-sonnet-20240620', 'claude-3-5-sonnet-20241022', 'claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219', 'claude-2.1', 'claude-2.0', 'claude-instant-1.2']) expect(ids, id).toContain(id);
    for (const m of older) {
      expect(!!m.retired || !!m.retires || !!m.deprecated, m.id).toBe(true);
      expect(m.sources?.length, m.id).toBeGreaterThan(0);
      // A date in the table is one a source gives: never both "retired, no date" and a date.
      expect(!!m.retired && !!m.retires, m.id).toBe(false);
    }
  });

  it('are kept by `npm run known-names`, unchanged', () => {
    const merged = mergeSdkNames(table, sdk).table;
    for (const m of older) expect(merged.models.find((x) => x.id === m.id), m.id).toEqual(m);
  });

  it('match by their exact ids and aliases, never by prefix onto another model', () => {
    const id = (model: string) => modelInfo(known, model)?.id;
    expect(id('claude-3-5-sonnet-20240620')).toBe('claude-3-5-sonnet-20240620');
    expect(id('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-20241022');
    expect(id('claude-3-5-sonnet-latest')).toBe('claude-3-5-sonnet-20241022');
    expect(id('claude-3-opus-latest')).toBe('claude-3-opus-20240229');
    expect(id('claude-3-7-sonnet-latest')).toBe('claude-3-7-sonnet-20250219');
    expect(id('claude-3-5-haiku-latest')).toBe('claude-3-5-haiku');
    expect(id('claude-sonnet-4-0')).toBe('claude-sonnet-4');
    expect(id('claude-4-opus-20250514')).toBe('claude-opus-4');
    // Not ids the API ever had: no entry stands for them.
    for (const other of ['claude-3-opus', 'claude-3-opus-20250101', 'claude-3-5-sonnet', 'claude-3-haiku', 'claude-3-haiku-latest', 'claude-2', 'claude-3-5-sonnet-20240621']) expect(id(other), other).toBeUndefined();
  });

  it('are reported with the retirement date the sources give, and without one when they give none', async () => {
    const a = await analyzer();
    const message = (model: string) => of(a.analyze(path.join(dir, 'ask.py'), request(model)).diagnostics, 'retired-model').map((d) => [d.severity, d.message]);
    expect(message('claude-3-opus-20240229')).toEqual([['error', expect.stringContaining('(Claude Opus 3) was retired on 2026-01-05: the Claude API rejects every request for it')]]);
    expect(message('claude-3-5-sonnet-latest')).toEqual([['error', expect.stringContaining('(Claude Sonnet 3.5) was retired on 2025-10-28')]]);
    const [[severity, text]] = message('claude-3-haiku-20240307');
    expect(severity).toBe('error');
    expect(text).toContain('(Claude Haiku 3) was retired: the Claude API rejects every request for it');
    expect(text).not.toMatch(/retired on|\b2026-04-/);
    expect(message('claude-sonnet-4-6')).toEqual([]);
  });

  it('set in another file, are reported where the request uses the id, with the place it is set', async () => {
    const a = await analyzer();
    const file = path.join(ROOT, 'test', 'fixtures', 'retired-model', 'bad-crossfile.py');
    const [d, ...rest] = of(a.analyze(file, fs.readFileSync(file, 'utf8')).diagnostics, 'retired-model');
    expect(rest).toEqual([]);
    expect(d.at.file).toBe(file);
    expect(d.related.map((r) => [path.basename(r.at.file), r.message])).toEqual([['_settings.py', '`claude-3-5-sonnet-20241022` is set here']]);
  });
});
