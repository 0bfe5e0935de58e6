/**
 * PREFIXLINT_STATS (src/cli/runStats.ts): the file the real-code and benchmark runs read, written
 * from numbers kept in arrays, is the JSON of one object per file that it always was, and a
 * result noted out of the files' order is an error, not a wrong row.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunStats } from '../src/cli/runStats';
import type { FileStatus } from '../src/cli/check';

describe('PREFIXLINT_STATS', () => {
  it('writes the JSON of one object per file, in order, byte for byte', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-stats-'));
    const files = Array.from({ length: 2503 }, (_, i) => path.join(dir, `pkg ${i % 7}`, `mod_${i}"q".py`));
    const kinds: FileStatus['kind'][] = ['analysed', 'partial', 'skipped', 'failed'];
    const rows = files.map((file, i) => ({ file, ms: (i * 7.31) % 97, status: kinds[i % 4], steps: (i * 13) % 5000 }));
    const stats = new RunStats(files);
    stats.threads = 3;
    for (const r of rows) stats.note(r.file, r.ms, r.status, r.steps);
    const to = path.join(dir, 'stats.json');
    const display = (f: string) => path.relative(dir, f).split(path.sep).join('/');
    stats.write(to, display, 1234, 56789);
    const expected = { files: rows.map((r) => ({ file: display(r.file), ms: Math.round(r.ms * 10) / 10, status: r.status, steps: r.steps })), maxRssKb: 56789, wallMs: 1234, threads: 3 };
    expect(fs.readFileSync(to, 'utf8')).toBe(JSON.stringify(expected) + '\n');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes an empty list for a run of no file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-stats-'));
    const to = path.join(dir, 'stats.json');
    new RunStats([]).write(to, (f) => f, 5, 6);
    expect(JSON.parse(fs.readFileSync(to, 'utf8'))).toEqual({ files: [], maxRssKb: 6, wallMs: 5, threads: 1 });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a result out of the files order, or one too many', () => {
    const stats = new RunStats(['/a.py', '/b.py']);
    expect(() => stats.note('/b.py', 1, 'analysed', 0)).toThrow(/\/b\.py came where \/a\.py was due/);
    const two = new RunStats(['/a.py']);
    two.note('/a.py', 1, 'analysed', 0);
    expect(() => two.note('/a.py', 1, 'analysed', 0)).toThrow(/came where no file was due/);
  });
});
