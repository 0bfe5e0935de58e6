/**
 * Reading a source file: what readSource answers for each kind of path, without waiting on any
 * of them (it opens the file before asking what it is).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DiskHost, decodeSource, readSource, readSourceBytes } from '../src/host/source';

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

describe('readSourceBytes', () => {
  it('skips what readSource skips, for the same reasons, and gives the bytes of the rest', () => {
    const cases: Array<[string, Buffer | string]> = [
      ['plain.py', 'print("héllo")\n'],
      ['bom.py', '\ufeffz = 3\n'],
      ['empty.py', ''],
      ['binary.py', Buffer.from([0x61, 0x00, 0x62])],
      ['latin1.py', Buffer.from([0x61, 0xe9, 0x0a])],
      ['overlong.py', Buffer.from([0x2f, 0xc0, 0xaf])],
      ['surrogate.py', Buffer.from([0x61, 0xed, 0xa0, 0x80])],
      ['cut.py', Buffer.from([0x61, 0xe2, 0x82])],
    ];
    for (const [name, content] of cases) {
      const file = path.join(dir, 'bytes', name);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, content);
      const bytes = readSourceBytes(file);
      const whole = readSource(file);
      expect('skipped' in bytes ? bytes : decodeSource(bytes.bytes), name).toEqual(whole);
    }
    expect(readSourceBytes(path.join(dir, 'bytes'))).toEqual({ skipped: 'not a regular file' });
    expect(readSourceBytes(path.join(dir, 'bytes', 'missing.py'))).toEqual({ skipped: 'cannot read (no such file)' });
  });

  it('reads each file whole into the buffer it reuses, a shorter one after a longer one too', () => {
    const long = path.join(dir, 'long.py');
    const short = path.join(dir, 'short.py');
    const large = path.join(dir, 'large.py');
    fs.writeFileSync(long, 'a = 1\n'.repeat(50_000));
    fs.writeFileSync(short, 'b = 2\n');
    fs.writeFileSync(large, 'c = 3\n'.repeat(400_000));
    for (const file of [long, short, large, short, long]) {
      const read = readSourceBytes(file);
      if ('skipped' in read) throw new Error(read.skipped);
      expect(read.bytes.equals(fs.readFileSync(file)), file).toBe(true);
    }
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
