/**
 * The known-names table follows the SDK it pins: every name the installed @anthropic-ai/sdk
 * declares is in it, and `npm run known-names` would change nothing.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { KnownNamesFile } from '../src/core/knownNames';
import { readSdkNames, sdkPackageDir } from '../scripts/known-names/readSdk';
import { formatTable, mergeSdkNames, missingFromTable } from '../scripts/known-names/update';
import type { HistoricalBeta } from '../scripts/known-names/update';
import { ROOT } from './helpers';

const TABLE_FILE = path.join(ROOT, 'src', 'data', 'known-names.json');
const tableText = fs.readFileSync(TABLE_FILE, 'utf8');
const table = JSON.parse(tableText) as KnownNamesFile;
const sdk = readSdkNames(sdkPackageDir(ROOT));
const historical = (JSON.parse(fs.readFileSync(path.join(ROOT, 'scripts', 'known-names', 'historical-betas.json'), 'utf8')) as { betas: HistoricalBeta[] }).betas;
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
// The bundle holds the SDK, so it is a development dependency that the package pins.
const pinned = manifest.devDependencies?.['@anthropic-ai/sdk'];

describe('known names from the pinned SDK', () => {
  it('reads the installed SDK, which is the pinned version', () => {
    expect(sdk.version).toBe(pinned);
    expect(table.sdk.version).toBe(pinned);
    // A reader that silently found nothing would pass every check below.
    expect(sdk.betas.length).toBeGreaterThan(40);
    expect(sdk.models.length).toBeGreaterThan(10);
    expect(sdk.betaToolTypes.length).toBeGreaterThan(20);
    expect(sdk.editTypes.length).toBeGreaterThan(0);
    expect(sdk.betaContentBlockTypes.length).toBeGreaterThan(15);
    expect(sdk.apiVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('the table has every name the installed SDK declares', () => {
    expect(missingFromTable(table, sdk), 'run `npm run known-names`, then fill in the facts it asks for').toEqual({});
  });

  it('the table is what `npm run known-names` writes', () => {
    expect(formatTable(mergeSdkNames(table, sdk, '@anthropic-ai/sdk', historical).table)).toBe(tableText);
  });

  it('historical betas: each has a source to open, none is in the SDK union, the table holds each as written', () => {
    expect(historical.length).toBeGreaterThan(0);
    const declared = new Set([...sdk.betas, ...sdk.sentBetas]);
    for (const h of historical) {
      expect(h.sources.some((s) => /^https:\/\/\S+$/.test(s)), h.name).toBe(true);
      expect(declared.has(h.name), `${h.name} is in the SDK union: take it out of historical-betas.json`).toBe(false);
      expect(table.betas.find((b) => b.name === h.name)).toEqual(h);
    }
  });

  it('the merge writes a historical beta into the table, and its list entry wins over an edited one', () => {
    const [first] = historical;
    const without = { ...table, betas: table.betas.filter((b) => b.name !== first.name) };
    expect(mergeSdkNames(without, sdk).table.betas.some((b) => b.name === first.name)).toBe(false);
    expect(mergeSdkNames(without, sdk, '@anthropic-ai/sdk', historical).table.betas.find((b) => b.name === first.name)).toEqual(first);
    const edited = { ...table, betas: table.betas.map((b) => (b.name === first.name ? { ...b, status: 'current' as const } : b)) };
    expect(mergeSdkNames(edited, sdk, '@anthropic-ai/sdk', historical).table.betas.find((b) => b.name === first.name)).toEqual(first);
  });

  it('the check sees a name taken out of the table', () => {
    const name = sdk.betas[sdk.betas.length - 1];
    const without = { ...table, betas: table.betas.filter((b) => b.name !== name) };
    expect(missingFromTable(without, sdk)).toEqual({ betas: [name] });
    const model = sdk.models[0];
    const noModel = { ...table, models: table.models.filter((m) => m.id !== model) };
    expect(missingFromTable(noModel, sdk)).toEqual({ models: [model] });
  });

  it('the merge adds what is missing and keeps the facts it cannot know', () => {
    const name = 'compact-2026-09-04';
    const without = { ...table, betas: table.betas.filter((b) => b.name !== name) };
    const merged = mergeSdkNames(without, sdk);
    expect(merged.table.betas.find((b) => b.name === name)).toMatchObject({ status: 'current' });
    expect(merged.notes.some((n) => n.includes(name))).toBe(true);
    // Docs-only facts stay: a GA date the SDK does not declare, a name outside the unions.
    expect(merged.table.betas.find((b) => b.name === 'prompt-caching-2024-07-31')?.gaSince).toBe('2024-12-17');
    expect(merged.table.betas.some((b) => b.name === 'experimental-cc-routine-2026-04-01')).toBe(true);
    expect(merged.table.models.find((m) => m.id === 'claude-haiku-5-5')?.longPrompt?.threshold).toBe(100000);
  });
});
