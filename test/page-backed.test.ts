/**
 * Large buffers come from pages of their own, not from malloc (src/core/pageBacked.ts): freeing
 * a large malloc block raises glibc's thresholds for the rest of the process. What is seen from
 * JavaScript: such a buffer belongs to a WebAssembly memory, which cannot be detached (a transfer
 * leaves it whole), where a malloc'd ArrayBuffer is detached by one. And the walked files go to a
 * lint worker in messages of bounded size (a message is one malloc block of its size).
 */
import { describe, expect, it } from 'vitest';
import { PROJECT_FILES_PER_MESSAGE, projectMessages, walkedProject } from '../src/cli/lint';
import type { ProjectFilesMessage, ProjectMessage } from '../src/cli/lint';
import { byteBuffer, PAGE_BACKED_MIN_BYTES, readFully, zeroedBuffer } from '../src/core/pageBacked';
import { Parsers } from '../src/lang/parsers';

/** Whether a transfer detaches the buffer (malloc's ArrayBuffers) or leaves it whole (a WebAssembly memory's). */
function detachable(buffer: ArrayBuffer): boolean {
  const before = buffer.byteLength;
  try {
    structuredClone(buffer, { transfer: [buffer] });
  } catch {
    // Refused outright: not detachable either.
  }
  return buffer.byteLength !== before;
}

describe('page-backed buffers', () => {
  it('a large buffer is zeroed, at least as long as asked, and on pages of its own; a small one is an ordinary ArrayBuffer', () => {
    const large = zeroedBuffer(PAGE_BACKED_MIN_BYTES + 3);
    expect(large.byteLength).toBeGreaterThanOrEqual(PAGE_BACKED_MIN_BYTES + 3);
    const bytes = new Uint8Array(large);
    expect(bytes.every((b) => b === 0)).toBe(true);
    expect(detachable(large)).toBe(false);
    const small = zeroedBuffer(PAGE_BACKED_MIN_BYTES - 1);
    expect(small.byteLength).toBe(PAGE_BACKED_MIN_BYTES - 1);
    expect(detachable(small)).toBe(true);
  });

  it('a buffer to read into has exactly the length asked, its memory chosen by size', () => {
    const large = byteBuffer(PAGE_BACKED_MIN_BYTES + 10);
    expect(large.length).toBe(PAGE_BACKED_MIN_BYTES + 10);
    expect(detachable(large.buffer as ArrayBuffer)).toBe(false);
    const small = byteBuffer(100_000);
    expect(small.length).toBe(100_000);
  });

  it('reads in as many pieces as the source gives, up to the size or to its end, into a given buffer or its own', () => {
    const source = Buffer.from('abcdefghij');
    let at = 0;
    // Three bytes at a time, as a pipe or a slow disk may give them.
    const readAt = (b: Buffer, offset: number, length: number) => {
      const n = source.copy(b, offset, at, Math.min(at + Math.min(length, 3), source.length));
      at += n;
      return n;
    };
    expect(readFully(10, readAt).toString()).toBe('abcdefghij');
    at = 0;
    // The file shrank after its size was asked: the part read.
    expect(readFully(16, readAt).toString()).toBe('abcdefghij');
    at = 0;
    const given = Buffer.alloc(32);
    const filled = readFully(4, readAt, given);
    expect(filled.toString()).toBe('abcd');
    expect(filled.buffer).toBe(given.buffer);
  });

  it("a large file's syntax tree keeps its columns on pages of their own, a small one's in an ordinary buffer", async () => {
    const parsers = await Parsers.load();
    // ~25 bytes of columns a node: 60,000 assignments make well over a megabyte.
    const big = parsers.parse('python', Array.from({ length: 60_000 }, (_, i) => `x${i} = ${i}\n`).join(''));
    expect(big.length * 25).toBeGreaterThan(PAGE_BACKED_MIN_BYTES);
    expect(detachable(big.start.buffer as ArrayBuffer)).toBe(false);
    // Read as any tree is: its last statement where the text has it.
    const statements = big.rootNode.namedChildren;
    expect(statements.length).toBe(60_000);
    expect(statements[59_999].text).toBe('x59999 = 59999');
    const small = parsers.parse('python', 'x = 1\n');
    expect(detachable(small.start.buffer as ArrayBuffer)).toBe(true);
  });
});

describe('the walked files sent to a lint worker', () => {
  it('go in parts of bounded size when there are many, and come back whole and in order', () => {
    const files = Array.from({ length: 2 * PROJECT_FILES_PER_MESSAGE + 5 }, (_, i) => `/repo/src/m${String(i).padStart(5, '0')}.py`);
    const messages = projectMessages({ folders: ['/repo'], files });
    expect(messages.map((m) => m.kind)).toEqual(['project-files', 'project-files', 'project-files', 'project']);
    const parts = messages.filter((m): m is ProjectFilesMessage => m.kind === 'project-files');
    expect(parts.map((p) => p.files.length)).toEqual([PROJECT_FILES_PER_MESSAGE, PROJECT_FILES_PER_MESSAGE, 5]);
    const last = messages[messages.length - 1] as ProjectMessage;
    expect(last.project?.files).toBeUndefined();
    expect(walkedProject(last, parts.flatMap((p) => p.files))).toEqual({ folders: ['/repo'], files });
  });

  it('go in the project message itself when they are few, or not walked', () => {
    const few = { folders: ['/repo'], files: ['/repo/a.py', '/repo/b.py'] };
    expect(projectMessages(few)).toEqual([{ kind: 'project', project: few }]);
    expect(walkedProject(projectMessages(few)[0] as ProjectMessage, [])).toEqual(few);
    expect(projectMessages({ folders: ['/repo'] })).toEqual([{ kind: 'project', project: { folders: ['/repo'] } }]);
    expect(walkedProject({ kind: 'project', project: undefined }, [])).toBeUndefined();
  });
});
