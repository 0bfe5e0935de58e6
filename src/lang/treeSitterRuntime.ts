/**
 * web-tree-sitter's JavaScript, run once for every parser runtime asked for, each with a memory of
 * its own.
 *
 * Why not one import: web-tree-sitter keeps its runtime in its module (`Parser.init` makes it once,
 * and every later call goes to it), and a WebAssembly memory never shrinks. Tree-sitter needs about
 * 100 bytes of it per node while a tree is alive, so one 700 KB file left a lint worker 11 MB of
 * parser memory for the rest of the run (on the real-code corpus, 2 threads: 14 and 8 MB resident
 * at the run's peak, where a runtime that has parsed only small files holds under 1 MB). A runtime
 * of its own, made from this module's code run again, can be dropped with its memory
 * (Parsers.renew).
 *
 * The code is the package's CommonJS build, compiled once per thread into a function of
 * `(exports, require, module, __filename, __dirname)` (what Node's loader does with a module),
 * and each call of it is a new module: its classes, its `Parser.init` and its memory are that
 * call's. It is read next to the bundle (the build copies it to dist/) or from node_modules.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import { createRequire } from 'node:module';
import type * as WebTreeSitter from 'web-tree-sitter';

/** What web-tree-sitter exports (its classes are each module instance's own). */
export type TreeSitterModule = typeof WebTreeSitter;

/** The file of web-tree-sitter's CommonJS build. */
export const RUNTIME_SCRIPT = 'web-tree-sitter.cjs';

/**
 * web-tree-sitter copies the text it parses into its memory 5,119 characters at a time, one
 * character per call of a DataView setter (Emscripten's code for big-endian hosts too); on the
 * real-code corpus that loop took ~0.6 s of ~28 s of one thread's CPU. Buffer's UTF-16LE write
 * copies the same code units into the same bytes natively (WASM memory is little-endian on every
 * host). The same count of code units as the loop (it runs while i < numCharsToWrite); the
 * terminating 0 after them is the code's own, left as it is.
 */
const INPUT_COPY_LOOP = /for \(var (\w+) = 0; \1 < numCharsToWrite; \+\+\1\) \{\s*var codeUnit = str\.charCodeAt\(\1\);\s*LE_HEAP_STORE_I16\(\(outPtr >> 1\) \* 2, codeUnit\);\s*outPtr \+= 2;\s*\}/g;
const INPUT_COPY = "var units = Math.ceil(numCharsToWrite); Buffer.from(HEAPU8.buffer, outPtr, units * 2).write(units === str.length ? str : str.slice(0, units), 0, 'utf16le'); outPtr += units * 2;";

/** How the text to parse is copied into the runtime's memory: natively, or by web-tree-sitter's own loop (as published). */
export type InputCopy = 'native' | 'as-published';

/** web-tree-sitter's code with the input copy made native, or undefined when the loop is not found exactly once (another version: the test of this module fails then). */
export function withNativeInputCopy(code: string): string | undefined {
  const found = code.match(INPUT_COPY_LOOP);
  return found?.length === 1 ? code.replace(INPUT_COPY_LOOP, INPUT_COPY) : undefined;
}

type ModuleFunction = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

interface CompiledScript {
  run: ModuleFunction;
  /** The `require` its code is given (it asks for `fs` only), resolving from the script's folder. */
  require: NodeJS.Require;
  inputCopy: InputCopy;
}

/** Per script file and wanted input copy, the compiled module function of this thread. */
const compiledScripts = new Map<string, CompiledScript>();

function compiledScript(file: string, wanted: InputCopy): CompiledScript {
  const key = `${wanted}:${file}`;
  let compiled = compiledScripts.get(key);
  if (!compiled) {
    const published = fs.readFileSync(file, 'utf8');
    const native = wanted === 'native' ? withNativeInputCopy(published) : undefined;
    const run = vm.compileFunction(native ?? published, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file }) as ModuleFunction;
    compiled = { run, require: createRequire(file), inputCopy: native === undefined ? 'as-published' : 'native' };
    compiledScripts.set(key, compiled);
  }
  return compiled;
}

/** A new instance of web-tree-sitter, from the script `file`: nothing of it is shared with another instance. */
export function newTreeSitterModule(file: string, inputCopy: InputCopy = 'native'): { module: TreeSitterModule; inputCopy: InputCopy } {
  const script = compiledScript(file, inputCopy);
  const holder = { exports: {} };
  script.run.call(holder.exports, holder.exports, script.require, holder, file, path.dirname(file));
  return { module: holder.exports as TreeSitterModule, inputCopy: script.inputCopy };
}

/**
 * The memory a runtime starts with, in 64 KB pages, where web-tree-sitter's module asks for 512
 * (32 MB): its stack and static data end at 80 KB, and Emscripten grows the memory as the parser
 * allocates (a runtime with the Python grammar loaded: ~2 MB). Why: V8 counts a memory's whole
 * size as memory held outside the heap, and collects garbage early when that grows; each
 * runtime made for a renewal (Parsers) added 32 MB of it, which on the real-code corpus (2
 * threads) made 55 full collections a run instead of 43. And a memory no larger than what the
 * parser used tells how much that was (Parsers renews by it).
 */
export const INITIAL_PAGES = 16;

/**
 * web-tree-sitter's runtime module (its bytes) with the minimum of the memory it imports lowered
 * to `pages`, or undefined when that import is not found as expected (another version: the test
 * of this module fails then). The minimum is rewritten in place, in as many bytes as before (a
 * LEB128 number may carry leading zero groups), so nothing else in the module moves.
 */
export function withInitialPages(bytes: Uint8Array, pages: number): Uint8Array | undefined {
  const out = new Uint8Array(bytes);
  let at = 8;
  const leb = (): number => {
    let value = 0;
    let shift = 0;
    let byte: number;
    do {
      if (at >= out.length) throw new RangeError('past the end');
      byte = out[at++];
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return value;
  };
  const skipName = () => {
    const length = leb();
    at += length;
  };
  try {
    while (at < out.length) {
      const section = out[at++];
      const size = leb();
      const end = at + size;
      if (section !== 2) {
        at = end;
        continue;
      }
      // The import section: each import is a module name, a field name and its kind.
      for (let n = leb(); n > 0; n--) {
        skipName();
        skipName();
        const kind = out[at++];
        if (kind === 0) leb(); // a function: its type
        else if (kind === 1) {
          at++; // a table: its element type, then limits
          const flags = leb();
          leb();
          if (flags & 1) leb();
        } else if (kind === 3) at += 2; // a global: its type and mutability
        else if (kind === 2) {
          const flags = leb();
          const minimumAt = at;
          const minimum = leb();
          const width = at - minimumAt;
          if (flags & ~1 || minimum < pages || pages >= 2 ** (7 * width)) return undefined;
          // The same number of bytes: every byte but the last carries the continuation bit.
          for (let i = 0, v = pages; i < width; i++, v = Math.floor(v / 128)) out[minimumAt + i] = (v & 0x7f) | (i < width - 1 ? 0x80 : 0);
          return out;
        } else return undefined;
      }
      return undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
