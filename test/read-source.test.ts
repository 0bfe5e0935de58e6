/**
 * Reading a source file: what readSource answers for each kind of path, without waiting on any
 * of them (it opens the file before asking what it is).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskHost, readSource } from '../src/host/source';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-read-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('readSource', () => {
  it('reads a file whole, an empty one as empty text, and drops a byte order mark', () => {
    const text = 'x = 1\n'.repeat(20_000);
    fs.writeFileSync(path.join(dir, 'a.py'), text);
    fs.writeFileSync(path.join(dir, 'empty.py'), '');
    fs.writeFileSync(path.join(dir, 'bom.py'), '\ufeffy = 2\n');
    expect(readSource(path.join(dir, 'a.py'))).toEqual({ text, bom: false });
    expect(readSource(path.join(dir, 'empty.py'))).toEqual({ text: '', bom: false });
    expect(readSource(path.join(dir, 'bom.py'))).toEqual({ text: 'y = 2\n', bom: true });
  });

  it('skips a folder and a named pipe as no regular file, without waiting for a writer', () => {
    fs.mkdirSync(path.join(dir, 'folder.py'));
    expect(readSource(path.join(dir, 'folder.py'))).toEqual({ skipped: 'not a regular file' });
    const pipe = path.join(dir, 'pipe.py');
    execFileSync('mkfifo', [pipe]);
    expect(readSource(pipe)).toEqual({ skipped: 'not a regular file' });
  });

  it('says why a file cannot be read, and skips one larger than the bound unread', () => {
    expect(readSource(path.join(dir, 'missing.py'))).toEqual({ skipped: 'cannot read (no such file)' });
    fs.writeFileSync(path.join(dir, 'huge.py'), Buffer.alloc(5 * 1024 * 1024 + 1, 0x23));
    expect(readSource(path.join(dir, 'huge.py'))).toEqual({ skipped: 'larger than 5 MB' });
  });
});

describe('DiskHost', () => {
  it('keeps the texts it reads, except one read once for what is found in it (a search over every file)', () => {
    const host = new DiskHost();
    const kept = path.join(dir, 'kept.py');
    const once = path.join(dir, 'once.py');
    fs.writeFileSync(kept, 'a = 1\n');
    fs.writeFileSync(once, 'b = 1\n');
    expect(host.readFile(kept)).toBe('a = 1\n');
    expect(host.readFile(once, true)).toBe('b = 1\n');
    fs.writeFileSync(kept, 'a = 2\n');
    fs.writeFileSync(once, 'b = 2\n');
    // The kept text answers again; the one read once is read anew.
    expect(host.readFile(kept)).toBe('a = 1\n');
    expect(host.readFile(once, true)).toBe('b = 2\n');
    // A text already kept is what a read once gets.
    expect(host.readFile(kept, true)).toBe('a = 1\n');
  });
});
