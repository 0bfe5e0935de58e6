/**
 * The floor: what any tree-sitter based linter must pay at least. Reads every file and parses
 * it once, on one thread, with the same WASM grammars prefixlint uses (a notebook: its JSON, then
 * the Python of its code cells), and does nothing else — the tree is not even read.
 *
 * As a process: `node floor.cjs <wasmDir> <file list>` parses the files listed (one path a line,
 * relative to the current folder; the bench passes exactly the files prefixlint linted) and
 * prints one JSON line, so that its wall time and peak RSS compare with the CLI's end to end.
 */
import * as fs from 'node:fs';
import { Notebook } from '../src/lang/notebook';
import { Parsers, languageForPath } from '../src/lang/parsers';

export interface FloorResult {
  files: number;
  bytes: number;
  /** Trees with syntax errors. */
  withErrors: number;
  /** Files that were not parsed: unreadable, or a notebook that is not valid JSON. */
  notParsed: number;
}

/** Reads and parses each file once. */
export function parseAll(parsers: Parsers, files: readonly string[]): FloorResult {
  const out: FloorResult = { files: 0, bytes: 0, withErrors: 0, notParsed: 0 };
  for (const file of files) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      out.notParsed++;
      continue;
    }
    out.bytes += text.length;
    let lang = languageForPath(file);
    if (file.endsWith('.ipynb')) {
      const nb = Notebook.parse(text);
      if (!(nb instanceof Notebook)) {
        out.notParsed++;
        continue;
      }
      text = nb.virtualText;
      lang = 'python';
    }
    if (!lang) {
      out.notParsed++;
      continue;
    }
    const tree = parsers.parser(lang).parse(text)!;
    if (tree.rootNode.hasError) out.withErrors++;
    tree.delete();
    out.files++;
  }
  return out;
}

async function main(): Promise<void> {
  const [wasmDir, listFile] = process.argv.slice(2);
  if (!wasmDir || !listFile) throw new Error('usage: node floor.cjs <wasmDir> <file list>');
  const t0 = performance.now();
  // web-tree-sitter as published: its own copy of the text into memory (see treeSitterRuntime.ts).
  const parsers = await Parsers.load(wasmDir, undefined, { inputCopy: 'as-published' });
  const files = fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean);
  const t1 = performance.now();
  const result = parseAll(parsers, files);
  const t2 = performance.now();
  process.stdout.write(JSON.stringify({ ...result, loadMs: Math.round(t1 - t0), parseMs: Math.round(t2 - t1) }) + '\n');
}

// Run as a process only.
if (/floor\.c?js$/.test(process.argv[1] ?? '')) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
