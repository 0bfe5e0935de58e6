/**
 * PREFIXLINT_STATS=<file>: each file's time, status and evaluation steps, and the run's wall time,
 * peak memory and threads, as JSON, for the real-code and benchmark runs (not part of any report).
 *
 * Why numbers in arrays and not an object per file: the benchmark's peak memory is a run's with
 * this on, and a user's run does not collect it. With an object and a path string per file, the
 * main thread of a run over the real-code corpus (20,329 files) held 11 MB more heap at its peak
 * (24.7 → 35.9 MB: what outlived its young generation made the young generation grow to twice its
 * size); the paths are made again, one at a time, when the file is written.
 */
import * as fs from 'node:fs';
import type { FileStatus } from './check';

const STATUS_KINDS: readonly FileStatus['kind'][] = ['analysed', 'partial', 'skipped', 'failed'];

/** Entries written to the file per call (the whole list as one string would be another ~2 MB at the run's end). */
const ENTRIES_PER_WRITE = 1000;

export class RunStats {
  private readonly ms: Float64Array;
  private readonly steps: Float64Array;
  private readonly status: Uint8Array;
  private noted = 0;
  threads = 1;

  /** `files`: the files the run lints, in the order their results are noted. */
  constructor(private readonly files: readonly string[]) {
    this.ms = new Float64Array(files.length);
    this.steps = new Float64Array(files.length);
    this.status = new Uint8Array(files.length);
  }

  /** The numbers of `file`, the next of `files` (results are delivered in that order). */
  note(file: string, ms: number, status: FileStatus['kind'], steps: number): void {
    const i = this.noted++;
    if (this.files[i] !== file) throw new Error(`PREFIXLINT_STATS: the result of ${file} came where ${this.files[i] ?? 'no file'} was due`);
    this.ms[i] = Math.round(ms * 10) / 10;
    this.steps[i] = steps;
    this.status[i] = STATUS_KINDS.indexOf(status);
  }

  /** Writes `{ files: [{ file, ms, status, steps }], maxRssKb, wallMs, threads }` to `to`, `display` giving each file's path as shown. */
  write(to: string, display: (file: string) => string, wallMs: number, maxRssKb: number): void {
    const fd = fs.openSync(to, 'w');
    try {
      fs.writeSync(fd, '{"files":[');
      for (let from = 0; from < this.noted; from += ENTRIES_PER_WRITE) {
        const parts: string[] = [];
        for (let i = from; i < Math.min(this.noted, from + ENTRIES_PER_WRITE); i++) {
          parts.push(`${i ? ',' : ''}{"file":${JSON.stringify(display(this.files[i]))},"ms":${JSON.stringify(this.ms[i])},"status":${JSON.stringify(STATUS_KINDS[this.status[i]])},"steps":${JSON.stringify(this.steps[i])}}`);
        }
        fs.writeSync(fd, parts.join(''));
      }
      fs.writeSync(fd, `],"maxRssKb":${JSON.stringify(maxRssKb)},"wallMs":${JSON.stringify(wallMs)},"threads":${JSON.stringify(this.threads)}}\n`);
    } finally {
      fs.closeSync(fd);
    }
  }
}
