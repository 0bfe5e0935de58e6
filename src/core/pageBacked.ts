/**
 * Large buffers that do not come from the C allocator (malloc), so that freeing them cannot make
 * the allocator keep more memory for the rest of the process.
 *
 * Why: glibc's malloc serves a request of at least its "mmap threshold" (128 KB at first) with
 * pages of its own and gives them back when the block is freed. But each time such a block is
 * freed, it raises the threshold to that block's size (up to 32 MB), and the amount of free
 * memory each of its arenas may keep without giving it back to twice that. An ArrayBuffer's
 * memory comes from malloc. One 2.6 MB buffer freed (the syntax tree of a 690 KB file) so left
 * every arena of the process, one per thread that allocates (the lint workers, V8's helper
 * threads), free to keep 5.3 MB it no longer used; and the blocks of up to 2.6 MB that followed
 * were carved out of the arenas, where a long-lived one keeps the free memory around it. On the
 * real-code corpus (2 threads), a run whose threshold stayed at 1.1 MB (set with
 * MALLOC_MMAP_THRESHOLD_, the highest that V8's own compilers take it to) peaked 9 MB lower than
 * one where it climbed to 2.6 MB (5 alternating runs each).
 *
 * A WebAssembly memory is mapped by V8 itself, page by page, and unmapped when it is collected:
 * its buffer serves as a large ArrayBuffer that malloc never sees.
 */

/** Buffers of at least this many bytes are taken from pages of their own (see above); smaller ones from malloc. */
export const PAGE_BACKED_MIN_BYTES = 1024 * 1024;

/** The size of a WebAssembly memory page. */
const WASM_PAGE_BYTES = 64 * 1024;

const WasmMemory = (globalThis as unknown as { WebAssembly?: { Memory: new (d: { initial: number; maximum: number }) => { buffer: ArrayBuffer } } }).WebAssembly?.Memory;

/**
 * An ArrayBuffer of at least `bytes` bytes, zeroed: from pages of its own when it is large (and
 * the engine can map them: a WebAssembly memory reserves address space, which can run out), else
 * `new ArrayBuffer(bytes)`. Its byteLength may be larger (whole pages): size views explicitly.
 */
export function zeroedBuffer(bytes: number): ArrayBuffer {
  if (bytes >= PAGE_BACKED_MIN_BYTES && WasmMemory) {
    const pages = Math.ceil(bytes / WASM_PAGE_BYTES);
    try {
      return new WasmMemory({ initial: pages, maximum: pages }).buffer;
    } catch {
      // No address space for another memory: malloc's, as for a small buffer.
    }
  }
  return new ArrayBuffer(bytes);
}

/** A Buffer of exactly `bytes` bytes to read into: on zeroedBuffer's memory when it is large, else Buffer.allocUnsafe's. */
export function byteBuffer(bytes: number): Buffer {
  return bytes >= PAGE_BACKED_MIN_BYTES ? Buffer.from(zeroedBuffer(bytes), 0, bytes) : Buffer.allocUnsafe(bytes);
}

/**
 * Fills `buffer` (byteBuffer's for `size` bytes when none is given) with up to `size` bytes from
 * `readAt` (fs.readSync on an open file: the bytes read at an offset of the buffer, 0 at the end),
 * and returns the part filled.
 */
export function readFully(size: number, readAt: (buffer: Buffer, offset: number, length: number) => number, buffer: Buffer = byteBuffer(size)): Buffer {
  let read = 0;
  while (read < size) {
    const n = readAt(buffer, read, size - read);
    if (n === 0) break;
    read += n;
  }
  return read < buffer.length ? buffer.subarray(0, read) : buffer;
}
