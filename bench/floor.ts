/**
 * The floor: what any tree-sitter based linter must pay at least. Reads every file and parses
 * it with the same WASM grammars prefixlint uses (a notebook: its JSON, then the Python of its
 * code cells), and does nothing else.
 *
 * As a process (`node floor.cjs <dir> [wasmDir]`) it finds the files the way `prefixlint check`
 * does, so that its wall time and peak RSS compare with the CLI's end to end.
 */
import * as fs from 'node:fs';
import { discoverFiles } from '../src/host/files';
import { Notebook } from '../src/lang/notebook';
import { Parsers, languageForPath } from '../src/lang/parsers';

export interface FloorResult {
  files: number;
  bytes: number;
  /** Trees with syntax errors (the generated corpus has none). */
  withErrors: number;
}

/** Reads and parses each file once. */
export function parseAll(parsers: Parsers, files: readonly string[]): FloorResult {
  const out: FloorResult = { files: 0, bytes: 0, withErrors: 0 };
  for (const file of files) {
    let text = fs.readFileSync(file, 'utf8');
    out.bytes += text.length;
    let lang = languageForPath(file);
    if (file.endsWith('.ipynb')) {
      const nb = Notebook.parse(text);
      if (!(nb instanceof Notebook)) continue;
      text = nb.virtualText;
      lang = 'python';
    }
    if (!lang) continue;
    // The raw tree-sitter parse, without reading the tree into JavaScript as the analysis does.
    const tree = parsers.parser(lang).parse(text)!;
    if (tree.rootNode.hasError) out.withErrors++;
    tree.delete();
    out.files++;
  }
  return out;
}

async function main(): Promise<void> {
  const [dir, wasmDir, ...patterns] = process.argv.slice(2);
  const t0 = performance.now();
  const parsers = await Parsers.load(wasmDir);
  const files = discoverFiles(patterns.length ? patterns : ['.'], dir).files;
  const result = parseAll(parsers, files);
  process.stdout.write(JSON.stringify({ ...result, ms: performance.now() - t0 }) + '\n');
}

// Run as a process only (this module is also bundled into bench/main.ts).
if (/floor\.c?js$/.test(process.argv[1] ?? '')) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
