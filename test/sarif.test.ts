/**
 * Machine output for CI, from the built CLI over the bundled examples and every rule fixture:
 * the SARIF log validates against the official SARIF 2.1.0 schema (test/data, draft-07) and
 * agrees with the JSON output finding by finding; `--format github` gives one workflow command
 * per finding, escaped as the Actions toolkit does.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type * as Sarif from 'sarif';
import { describe, expect, it, vi } from 'vitest';
import { escapeData, escapeProperty } from '../src/cli/github';
import { docsUrl } from '../src/core/rule';
import { allRules } from '../src/rules';
import { json, project, ROOT, run, useCli } from './cli-harness';
import type { JsonFinding } from './cli-harness';

useCli();
// Every test runs the CLI, several times; a busy machine makes that slow.
vi.setConfig({ testTimeout: 180_000 });

const SOURCES = ['examples', 'test/fixtures'].filter((p) => fs.existsSync(path.join(ROOT, p)));
const TARGETS = SOURCES.map((p) => path.basename(p));

/** A copy of the examples and the fixtures, so that both runs see the same files. */
function corpus(): string {
  const dir = project({});
  for (const p of SOURCES) fs.cpSync(path.join(ROOT, p), path.join(dir, path.basename(p)), { recursive: true });
  return dir;
}
const LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

function validator() {
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'data', 'sarif-schema-2.1.0.json'), 'utf8')) as { $schema: string };
  expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  const ajv = new Ajv({ allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe('--format sarif', () => {
  it('validates against the SARIF 2.1.0 schema and matches the JSON output, for the examples and every fixture', () => {
    const dir = corpus();
    // The log of every fixture is over a megabyte, spawnSync's default buffer.
    const big = { spawn: { maxBuffer: 64 * 1024 * 1024 } };
    const sarifRun = run(dir, ['check', '--format', 'sarif', '--unsafe-fixes', ...TARGETS], big);
    const jsonRun = run(dir, ['check', '--format', 'json', '--unsafe-fixes', ...TARGETS], big);
    expect(sarifRun.code).toBe(jsonRun.code);
    expect(sarifRun.code).not.toBe(2);
    const log = JSON.parse(sarifRun.stdout) as Sarif.Log;
    const found = json(jsonRun);
    expect(found.length).toBeGreaterThan(50);

    const validate = validator();
    const valid = validate(log);
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 5), null, 2)).toEqual([]);
    expect(valid).toBe(true);
    // The validator does reject what the schema forbids.
    const broken = structuredClone(log);
    (broken.runs[0].results![0] as { level: string }).level = 'fatal';
    expect(validate(broken)).toBe(false);

    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const [sarif] = log.runs;
    expect(sarif.columnKind).toBe('utf16CodeUnits');
    expect(sarif.originalUriBaseIds?.['%SRCROOT%']?.uri).toBe(`file://${fs.realpathSync(dir)}/`);
    const rules = sarif.tool.driver.rules!;
    expect(rules.map((r) => r.id)).toEqual(allRules.map((r) => r.meta.id));
    for (const [i, r] of rules.entries()) {
      const meta = allRules[i].meta;
      expect(r.helpUri).toBe(docsUrl(meta.id));
      expect(r.help?.markdown).toBe(meta.docs);
      expect(r.help?.text).toContain('What it does');
      expect(r.shortDescription?.text).toBe(meta.summary);
      expect(r.defaultConfiguration?.level).toBe(LEVEL[meta.severity]);
    }

    const results = sarif.results!;
    expect(results).toHaveLength(found.length);
    for (const [i, r] of results.entries()) {
      const f = found[i];
      expect(r.ruleId).toBe(f.ruleId);
      expect(rules[r.ruleIndex!].id).toBe(f.ruleId);
      expect(r.level).toBe(LEVEL[f.severity]);
      expect(r.message.text).toBe(f.message);
      const loc = r.locations![0].physicalLocation!;
      expect(decodeURIComponent(loc.artifactLocation!.uri!)).toBe(f.file);
      expect(loc.artifactLocation!.uriBaseId).toBe('%SRCROOT%');
      expect(loc.region).toEqual({ startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn });
      expect(r.fixes?.length ?? 0).toBe(f.fix ? 1 : 0);
      if (f.cell !== undefined) expect(r.properties).toMatchObject({ cell: f.cell, cellLine: f.cellLine });
    }
    const files = new Set(found.map((f) => f.file.split('/')[0]));
    for (const t of TARGETS) expect(files.has(t.split('/')[0]), `no finding under ${t}`).toBe(true);
    expect(found.some((f) => f.file.endsWith('.ipynb'))).toBe(true);
  }, 180_000);

  it('gives fixes as replacements of the file text, exact for notebooks too', () => {
    const nb = fs.readFileSync(path.join(ROOT, 'test/fixtures/unused-suppression/bad.ipynb'), 'utf8');
    const py = fs.readFileSync(path.join(ROOT, 'test/fixtures/unused-suppression/bad.py'), 'utf8');
    const dir = project({ 'bad.ipynb': nb, 'bad.py': py });
    const log = JSON.parse(run(dir, ['check', '--format', 'sarif', '--select', 'unused-suppression']).stdout) as Sarif.Log;
    const apply = (text: string, r: Sarif.Replacement) => {
      const lines = text.split(/(?<=\n)/);
      const offset = (line: number, col: number) => lines.slice(0, line - 1).join('').length + col - 1;
      const d = r.deletedRegion!;
      return text.slice(0, offset(d.startLine!, d.startColumn!)) + (r.insertedContent?.text ?? '') + text.slice(offset(d.endLine!, d.endColumn!));
    };
    const results = log.runs[0].results!;
    for (const [file, text] of [['bad.ipynb', nb], ['bad.py', py]] as const) {
      const fixed = results.filter((r) => r.locations![0].physicalLocation!.artifactLocation!.uri === file && r.fixes);
      expect(fixed.length, file).toBeGreaterThan(0);
      for (const r of fixed) {
        const [change] = r.fixes![0].artifactChanges;
        expect(change.artifactLocation.uri).toBe(file);
        const after = change.replacements.reduceRight(apply, text);
        expect(after).not.toBe(text);
        if (file.endsWith('.ipynb')) expect(() => JSON.parse(after)).not.toThrow();
        // The suppression comment is gone from the text.
        const removed = text.length - after.length;
        expect(removed).toBeGreaterThan(0);
      }
    }
  });
});

describe('--format github', () => {
  it('prints one workflow command per finding, with its position, and nothing else', () => {
    const dir = corpus();
    const gh = run(dir, ['check', '--format', 'github', ...TARGETS]);
    const found = json(run(dir, ['check', '--format', 'json', ...TARGETS]));
    const lines = gh.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(found.length);
    const command = { error: 'error', warning: 'warning', info: 'notice' } as const;
    lines.forEach((line, i) => {
      const f: JsonFinding = found[i];
      const title = `prefixlint (${f.ruleId})`;
      expect(line).toBe(
        `::${command[f.severity]} file=${escapeProperty(f.file)},line=${f.line},col=${f.column},endLine=${f.endLine},endColumn=${f.endColumn},title=${escapeProperty(title)}::${escapeData(f.message)}`,
      );
    });
    expect(gh.code).toBe(1);
  }, 180_000);

  it('escapes as the Actions toolkit does', () => {
    expect(escapeData('50% of 2\r\nlines: a, b')).toBe('50%25 of 2%0D%0Alines: a, b');
    expect(escapeProperty('dir: a,b%\n')).toBe('dir%3A a%2Cb%25%0A');
    const dir = project({ 'we,ird: name%.py': fs.readFileSync(path.join(ROOT, 'test/fixtures/volatile-system-prompt/bad.py'), 'utf8') });
    const [first] = run(dir, ['check', '--format', 'github']).stdout.split('\n');
    expect(first).toMatch(/^::(error|warning) file=we%2Cird%3A name%25\.py,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=prefixlint \(volatile-system-prompt\)::The system prompt /);
  });
});
