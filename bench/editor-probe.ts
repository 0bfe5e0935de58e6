/**
 * The editor benchmark's typing, analysed in this process as the language server does, one edit
 * at a time: what each keystroke costs and where it goes, to find what the slow ones have in
 * common. Not a benchmark (the server's own latency is measured by `npm run bench`); a probe,
 * run as USAGE says. Prints each edit's milliseconds, the garbage collections that ran during it
 * (kind and pause) and what was typed where, then p50 / p95 / max and how much of the time at or
 * above p95 was collection.
 * `--profile DIR`: a CPU profile of each edit (DIR/edit-N.cpuprofile). `--allocations`: the
 * megabytes each edit allocates (sampled), by the functions that allocate most.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Session } from 'node:inspector';
import { PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import type { PerformanceEntry } from 'node:perf_hooks';
import { Analyzer } from '../src/engine/analyzer';
import { Configuration } from '../src/engine/config';
import { DiskHost } from '../src/host/source';
import { heapCollector } from '../src/host/heap';
import { IdleCollection } from '../src/server/idleCollection';
import { editorFile, Rng } from './corpus';
import { editScript } from './editor';
import { percentile } from './report';

const USAGE = 'usage: npm run bench:editor-probe -- [python|typescript] [--seed N] [--edits N] [--profile DIR] [--allocations]';
const WARMUP = 10;
/** The built grammars (`npm run build`): run from the repository's root, as `npm run` does. */
const DIST = path.resolve('dist');

interface Options {
  language: 'python' | 'typescript';
  seed: number;
  edits: number;
  profile?: string;
  allocations: boolean;
}

function options(argv: string[]): Options {
  const o: Options = { language: 'python', seed: 20261129, edits: 200, allocations: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === 'python' || a === 'typescript') o.language = a;
    else if (a === '--seed') o.seed = Number(argv[++i]);
    else if (a === '--edits') o.edits = Number(argv[++i]);
    else if (a === '--profile') o.profile = path.resolve(argv[++i]);
    else if (a === '--allocations') o.allocations = true;
    else {
      console.error(`unknown argument: ${a}\n${USAGE}`);
      process.exit(2);
    }
  }
  return o;
}

const GC_KINDS: Record<number, string> = {
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

interface HeapNode {
  callFrame: { functionName: string; lineNumber: number; url: string };
  selfSize: number;
  children: HeapNode[];
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-editor-probe-'));
  try {
    await probe(o, dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function probe(o: Options, dir: string): Promise<void> {
  const file = path.join(dir, o.language === 'python' ? 'editor.py' : 'editor.ts');
  const original = editorFile(o.language, o.seed);
  fs.writeFileSync(file, original);
  let text = original;
  const host = new DiskHost({ cache: false, overlay: (f) => (f === file ? text : undefined) });
  host.useProject({ folders: [dir] });
  const analyzer = await Analyzer.create({ host, wasmDir: DIST });
  const config = new Configuration(host, analyzer.parsers);
  const analyse = () => analyzer.analyze(file, text, o.language, config.configFor(file, {}).analyze);
  analyzer.edited(file, text, o.language);
  analyse();

  const session = new Session();
  session.connect();
  const post = <T>(method: string, params: object = {}) => new Promise<T>((resolve, reject) => session.post(method, params, (err, r) => (err ? reject(err) : resolve(r as T))));
  if (o.profile) {
    fs.mkdirSync(o.profile, { recursive: true });
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 100 });
  }

  // Collections during an edit: the observer's entries are delivered later, so each is matched to the edit by its start time.
  const collections: Array<{ start: number; ms: number; kind: string }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) collections.push({ start: e.startTime, ms: e.duration, kind: GC_KINDS[(e as PerformanceEntry & { detail?: { kind: number } }).detail?.kind ?? -1] ?? 'other' });
  });
  observer.observe({ entryTypes: ['gc'] });

  const edits = editScript(original, new Rng(o.seed), o.edits + WARMUP);
  const idle = new IdleCollection(heapCollector());
  const timed: Array<{ i: number; start: number; end: number; what: string }> = [];
  for (let i = 0; i < edits.length; i++) {
    const e = edits[i];
    // What the keystroke did, and the text just before it, as it was before the keystroke.
    const what = `${e.text ? `typed ${JSON.stringify(e.text)}` : `deleted ${JSON.stringify(text.slice(e.start, e.end))}`} after ${JSON.stringify(text.slice(Math.max(0, e.start - 24), e.start))}`;
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
    const profiled = o.profile !== undefined && i >= WARMUP;
    if (profiled) await post('Profiler.start');
    if (o.allocations && i === WARMUP) await post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    const start = performance.now();
    analyzer.edited(file, text, o.language);
    analyse();
    const end = performance.now();
    if (profiled) fs.writeFileSync(path.join(o.profile!, `edit-${i - WARMUP}.cpuprofile`), JSON.stringify((await post<{ profile: unknown }>('Profiler.stop')).profile));
    if (i >= WARMUP) timed.push({ i: i - WARMUP, start, end, what });
    // As the server does once it has answered (src/server/idleCollection.ts).
    idle.workDone();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  // Let the observer deliver the last entries.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();

  const rows = timed.map((t) => {
    const gcs = collections.filter((c) => c.start >= t.start && c.start < t.end);
    return { ...t, ms: t.end - t.start, gcMs: gcs.reduce((s, c) => s + c.ms, 0), gcs };
  });
  for (const r of rows) console.log(`${r.i}\t${r.ms.toFixed(1)} ms\tgc ${r.gcMs.toFixed(1)} ms ${r.gcs.map((c) => `${c.kind} ${c.ms.toFixed(1)}`).join(', ')}\t${r.what}`);
  const ms = rows.map((r) => r.ms);
  const p95 = percentile(ms, 95);
  const slow = rows.filter((r) => r.ms >= p95);
  const share = slow.reduce((s, r) => s + r.gcMs, 0) / Math.max(1e-9, slow.reduce((s, r) => s + r.ms, 0));
  console.log(`${o.language}: ${rows.length} edits, p50 ${percentile(ms, 50).toFixed(1)} / p95 ${p95.toFixed(1)} / max ${Math.max(...ms).toFixed(1)} ms; edits with a collection: ${rows.filter((r) => r.gcs.length).length}; at or above p95: ${slow.length} edits, ${(100 * share).toFixed(0)}% of their time in collection`);
  console.log(`requests taken over from the previous analysis (src/lang/requestReuse.ts): ${analyzer.requestsReused} in ${edits.length} edits`);

  if (o.allocations) {
    const { profile } = await post<{ profile: { head: HeapNode } }>('HeapProfiler.stopSampling');
    const bySelf = new Map<string, number>();
    let total = 0;
    const visit = (n: HeapNode) => {
      const k = `${n.callFrame.functionName || '(anonymous)'} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
      bySelf.set(k, (bySelf.get(k) ?? 0) + n.selfSize);
      total += n.selfSize;
      for (const c of n.children) visit(c);
    };
    visit(profile.head);
    console.log(`allocated: ${(total / 1e6 / rows.length).toFixed(2)} MB per edit (sampled); most by:`);
    for (const [k, v] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${(v / 1e6 / rows.length).toFixed(3)} MB  ${k}`);
  }
}

void main();
