/**
 * Reading source files from disk: the checks every file passes before it is analysed, and the
 * host through which the analyzer reads the other files of the workspace and the configuration
 * resolver reads configuration files and SDKs (it has the shape of both).
 */
import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import * as path from 'node:path';

import { byteBuffer, readFully } from '../core/pageBacked';
import { FolderListings } from './files';
import { ProjectScope } from './project';
import type { WalkedFiles } from './project';

export const MAX_FILE_BYTES = 5 * 1024 * 1024;
const BINARY_SNIFF_BYTES = 8 * 1024;

export interface SourceText {
  /** The decoded text, without a byte order mark. */
  text: string;
  /** The file started with a UTF-8 byte order mark; it is written back when the file is fixed. */
  bom: boolean;
}

export type ReadResult = SourceText | { skipped: string };

/**
 * A source file's bytes, checked as readSource checks them (a regular file within the size
 * bound, not binary, valid UTF-8): decodeSource(bytes) is its text. `bytes` may be a view of a
 * buffer the next read overwrites.
 */
export type BytesResult = { bytes: Buffer } | { skipped: string };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Opening for reading does not wait for a writer when the path is a named pipe (the file is then
 * told apart by fstat and skipped); it changes nothing for a regular file. Windows has no such flag.
 */
const OPEN_FOR_READING = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * Reads a file as UTF-8 source text, or says in a few words why it is skipped. The file is
 * opened first and its kind and size asked of the open file: a stat of the path before the read
 * looked the path up once more for every file read (~220 ms of system time on the real-code
 * corpus, ~36,000 reads).
 */
export function readSource(absPath: string): ReadResult {
  const read = readBytes(absPath, false);
  return 'skipped' in read ? read : decodeSource(read.bytes);
}

/**
 * A file's bytes, checked as readSource checks them, in a buffer that the next call overwrites
 * (files up to REUSED_BUFFER_BYTES): a run screens each file it lints from its bytes first
 * (checkFile), and allocates nothing for one that no rule needs.
 */
export function readSourceBytes(absPath: string): BytesResult {
  const read = readBytes(absPath, true);
  if ('skipped' in read) return read;
  const why = notSourceText(read.bytes);
  return why ? { skipped: why } : read;
}

function readBytes(absPath: string, reuse: boolean): BytesResult {
  let fd: number | undefined;
  try {
    fd = fs.openSync(absPath, OPEN_FOR_READING);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { skipped: 'not a regular file' };
    if (stat.size > MAX_FILE_BYTES) return { skipped: `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB` };
    return { bytes: readOpen(fd, stat.size, reuse) };
  } catch (err) {
    return { skipped: `cannot read (${describeError(err)})` };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Files up to this size are read into one buffer kept for the next read (readSourceBytes). */
const REUSED_BUFFER_BYTES = 1024 * 1024;
let reusedBuffer: Buffer | undefined;

/**
 * The `size` bytes of an open file (as fs.readFileSync reads a regular file: what fstat said, or
 * to its end when it said 0), with `reuse` in the reused buffer when they fit. fs.readFileSync(fd)
 * asks fstat again: reading the corpus took ~350 ms with it against ~310 ms with this loop.
 */
function readOpen(fd: number, size: number, reuse: boolean): Buffer {
  if (size === 0) return fs.readFileSync(fd);
  let buffer: Buffer;
  if (reuse && size <= REUSED_BUFFER_BYTES) {
    if (!reusedBuffer || reusedBuffer.length < size) reusedBuffer = Buffer.allocUnsafeSlow(Math.min(REUSED_BUFFER_BYTES, Math.max(size, 64 * 1024, (reusedBuffer?.length ?? 0) * 2)));
    buffer = reusedBuffer;
  } else buffer = byteBuffer(size);
  return readFully(size, (b, at, length) => fs.readSync(fd, b, at, length, null), buffer);
}

/** Why file content is no text to decode (too large, binary), or undefined. */
function notText(buffer: Buffer): string | undefined {
  if (buffer.length > MAX_FILE_BYTES) return `larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`;
  if (buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return 'binary file';
  return undefined;
}

/** Why file content is not source text (decodeSource's checks, the fatal decoder's without decoding), or undefined when it is. */
function notSourceText(buffer: Buffer): string | undefined {
  return notText(buffer) ?? (isUtf8(buffer) ? undefined : 'not valid UTF-8');
}

/** Decodes file content as UTF-8 source text, or says why it is not source text. */
export function decodeSource(buffer: Buffer): ReadResult {
  const why = notText(buffer);
  if (why) return { skipped: why };
  let text: string;
  try {
    text = decoder.decode(buffer);
  } catch {
    return { skipped: 'not valid UTF-8' };
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  return { text: bom ? text.slice(1) : text, bom };
}

export function describeError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return e?.message ?? String(err);
  }
}

/**
 * Characters of file text kept in memory at once. A file is read again for each file that
 * imports it; keeping every text of a repository to the end of the run held tens of megabytes
 * (54 MB of sources in one repository), and the operating system caches the bytes anyway.
 * The parsed files that matter most stay cached in the workspace (see MAX_UNIT_CHARS).
 */
const MAX_CACHED_CHARS = 1024 * 1024;

export interface DiskHostOptions {
  /**
   * Keep the recently read texts (on by default): right for a run over files that do not change
   * meanwhile; a long-lived process (the language server) reads each time instead.
   */
  cache?: boolean;
  /** Texts that stand for files on disk: an editor's open buffers. */
  overlay?(absPath: string): string | undefined;
}

/** Reads files and keeps the recently used ones; the analyzer (imported files) and the configuration read through it. */
export class DiskHost {
  /** In least recently used order. */
  private readonly cache = new Map<string, ReadResult>();
  private cachedChars = 0;
  /** Texts given to the host (standard input linted as a file) and files it wrote: never read from disk again. */
  private readonly pinned = new Map<string, ReadResult>();

  /** The files the run or the editor walked, for the search of a definition's other uses. */
  private project?: ProjectScope;

  constructor(private readonly options: DiskHostOptions = {}) {}

  /** Sets what was walked (undefined: nothing is known to be seen whole). */
  useProject(walked: WalkedFiles | undefined): void {
    this.project = walked && new ProjectScope(walked, (p) => this.exists(p));
  }

  projectFiles(absPath: string): readonly string[] | undefined {
    return this.project?.projectFiles(absPath);
  }

  /** A project file's text for the search of uses: an open buffer as it is now, a file on disk as first read while the project scope lives. */
  projectText(absPath: string): string | undefined {
    const open = this.pinned.get(absPath) ?? (this.options.overlay?.(absPath) !== undefined ? this.read(absPath) : undefined);
    if (open) return 'text' in open ? open.text : undefined;
    return this.project ? this.project.text(absPath, (f) => this.readFile(f)) : this.readFile(absPath);
  }

  /** `once`: a text read for facts kept instead of it (SourceHost.readFile): not kept, unless it already is. */
  read(absPath: string, once = false): ReadResult {
    const given = this.pinned.get(absPath);
    if (given) return given;
    const open = this.options.overlay?.(absPath);
    if (open !== undefined) return { text: open, bom: false };
    if (this.options.cache === false) return readSource(absPath);
    let r = this.cache.get(absPath);
    if (r) {
      this.cache.delete(absPath);
      this.cache.set(absPath, r);
      return r;
    }
    r = readSource(absPath);
    if (once) return r;
    this.cache.set(absPath, r);
    this.cachedChars += 'text' in r ? r.text.length : 0;
    for (const [file, old] of this.cache) {
      if (this.cachedChars <= MAX_CACHED_CHARS || file === absPath) break;
      this.cache.delete(file);
      this.cachedChars -= 'text' in old ? old.text.length : 0;
    }
    return r;
  }

  /**
   * A file's bytes as on disk (readSourceBytes: valid until the next read), when the host would
   * read its text from disk now; undefined when it has a text for it already (given, open in an
   * editor, or kept), which read() then answers.
   */
  readBytes(absPath: string): BytesResult | undefined {
    if (this.pinned.has(absPath) || this.cache.has(absPath) || this.options.overlay?.(absPath) !== undefined) return undefined;
    return readSourceBytes(absPath);
  }

  readFile(absPath: string, once = false): string | undefined {
    const r = this.read(absPath, once);
    return 'text' in r ? r.text : undefined;
  }

  exists(absPath: string): boolean {
    return this.listings?.holds(path.dirname(absPath), path.basename(absPath)) ?? fs.existsSync(absPath);
  }

  /**
   * The names in folders a walk has just listed (discoverFiles' FolderListed), for a host that
   * lives only as long as that walk: `exists` answers from them. The configuration looks for its
   * files in every folder walked (five names each), which cost more than the walk's own listing.
   */
  private listings?: FolderListings;

  folderListed(folder: string, names: ReadonlySet<string>): void {
    (this.listings ??= new FolderListings()).note(folder, names);
  }

  listFolder(absFolder: string): readonly string[] | undefined {
    try {
      return fs.readdirSync(absFolder);
    } catch {
      return undefined;
    }
  }

  listDir(absPath: string): string[] | undefined {
    try {
      return fs.readdirSync(absPath);
    } catch {
      return undefined;
    }
  }

  /** Makes `absPath` read as this text (standard input linted as that file). */
  put(absPath: string, source: ReadResult): void {
    this.pinned.set(absPath, source);
  }

  /** Remembers a file's new text, written by the caller. */
  pin(absPath: string, source: SourceText): void {
    this.pinned.set(absPath, source);
  }

  /** Writes a fixed file (keeping its byte order mark) and remembers the new text. */
  write(absPath: string, source: SourceText): void {
    fs.writeFileSync(absPath, (source.bom ? '\ufeff' : '') + source.text, 'utf8');
    this.pinned.set(absPath, source);
  }
}
