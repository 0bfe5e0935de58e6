/**
 * A language-neutral view of a whole file for rules that look beyond one request: calls with
 * their resolved names and argument values, functions, loops and conditions, and keyed
 * assignments (`block["cache_control"] = ...`). Front ends build it; rules never see syntax.
 */
import type { Loc } from './span';
import type { Value } from './value';

export interface ArgView {
  /** Keyword name (Python `name=value`). */
  name?: string;
  at: Loc;
  text: string;
  /** The resolved value (computed on first use). */
  value(): Value;
}

export interface CallSite {
  at: Loc;
  /** Canonical dotted name when the callee resolves to an import (`json.dump`, `fs.writeFileSync`), else its source text. */
  name: string;
  calleeText: string;
  /** The last segment of the callee (`dump`, `writeFileSync`, `append`). */
  method: string;
  args: ArgView[];
  /** The receiver of a method call (`messages` in `messages.append(x)`). */
  receiver?: ArgView;
  isNew: boolean;
}

export interface FunctionView {
  at: Loc;
  name?: string;
  params: string[];
  /** The function's source text (for guards such as a containment check). */
  text: string;
  /** Python decorators as written (`@app.post("/chat")`). */
  decorators?: string[];
  /** When the function is written as an argument: the callee it is passed to (`app.post`, `router.get`). */
  passedTo?: string;
  /** Exported from its module (`export async function POST`, `export default`). */
  exported?: boolean;
  /**
   * The class a method (or a function inside one) belongs to: where it starts, its name and the
   * names its header derives it from (`class Child(Base)`, `class Child extends Base`). `self.x`
   * in an unrelated class is another object's `x`.
   */
  ofClass?: { start: number; name?: string; bases: string[] };
}

export interface KeyAssignment {
  at: Loc;
  /** The object written to, as source text (`block`, `messages[-1]`). */
  objectText: string;
  key: string;
  value(): Value;
}

/** `x = value`, `self.history = value`, `const x = value`: any assignment, with its target as written. */
export interface Assignment {
  at: Loc;
  /** The target as source text (`history`, `self.messages`, `state["messages"]`). */
  targetText: string;
  valueAt: Loc;
  value(): Value;
  /** `x += value`: `value` is only the added part. */
  augmented?: boolean;
}

/**
 * A filter over a list: a comprehension with an `if` clause, `xs.filter(cb)`, `filter(f, xs)`.
 * The front end reads the condition for comparisons of the item's `type` with literals.
 */
export interface FilterView {
  /** The whole filtering expression. */
  at: Loc;
  iterText: string;
  /** Items whose `type` is one of these are dropped (`b["type"] != "tool_result"`, `b.type !== 'x'`, `not in (...)`). */
  dropsTypes: string[];
  /** Items whose `type` is one of these are dropped unless a further condition holds (`b["type"] != "tool_result" or keep(b)`). */
  dropsSometimes: string[];
  /** Items that hold a block of one of these types are dropped (`not any(b["type"] == "tool_result" for b in m["content"])`). */
  dropsHolding: string[];
  /** Only items whose `type` is one of these are kept (`b.type === "tool_result"`). */
  keepsOnly: string[];
  /**
   * Where the result goes: `key` for a dict/object entry, keyword argument or keyed/attribute
   * assignment (`content`, `messages`), `name` for an assignment to a name, `return`, or `other`
   * (an argument of another call, an iteration, a comparison).
   */
  usedAs: { kind: 'key' | 'name' | 'return' | 'other'; name?: string };
}

/** A path built from parts: `os.path.join(root, p)`, `root / p` (pathlib), `Path(root, p)`, `path.join(root, p)`, `path.resolve(root, p)`. */
export interface PathJoin {
  at: Loc;
  /** The parts in order; the first is the base. */
  parts: ArgView[];
}

/** A file a call names: the path argument, and the file's own name when the code writes it out (`"state.json"` in `run_dir / "state.json"`). */
export interface FilePath {
  arg: ArgView;
  name?: string;
  /**
   * The names the file may have when its last part is a loop's variable over written names
   * (`for name, text in SEEDS.items(): open(folder / name, "w")`): one of these, on each pass.
   */
  names?: string[];
  /** The text of the expression the path comes from, when `arg` is a name bound to it (`p = state_path(n)`). */
  origin?: string;
  /**
   * A function of the file whose result the path is (`state_path(n)`), or a method of the class
   * around it called through its object (`self._note_path(ns, name)`, named with where its class
   * starts: `class@120._note_path`): paths it builds name files of one kind.
   */
  builder?: string;
  /** The folder part of a join ending in `name`, as written; `dirIsParam` when it is a parameter of the function. */
  dir?: string;
  dirIsParam?: boolean;
  /** The texts the path's parts are bound to, a few names deep (where its folder comes from). */
  provenance?: string;
}

/**
 * What a call does to files, as the front end reads it from the libraries it knows (`open`,
 * pathlib, `json.dump`, `os.replace`, `fs.writeFileSync`, `tempfile`, ...).
 */
export type FileOp =
  /**
   * A write. `truncates`: the file is emptied first (`open(p, "w")`, `write_text`,
   * `writeFileSync` without an append or exclusive flag). `data`: what is written, when this
   * call or a write on its handle says (`json.dump(state, f)`, `f.write(text)`). `streamed`: it
   * is filled piece by piece from a stream (a download, a copy): writes on its handle in a loop
   * (`for chunk in r.iter_content(): f.write(chunk)`), `shutil.copyfileobj(src, f)`, a write
   * stream piped to (`pipeline(body, fs.createWriteStream(p))`, `res.pipe(out)`). `appends`: what
   * is written goes after what the file holds (`open(p, "a")`, `fs.appendFileSync(p, text)`).
   */
  | { kind: 'write'; at: Loc; path: FilePath; truncates: boolean; data: ArgView[]; serialised?: boolean; streamed?: boolean; appends?: boolean }
  | { kind: 'read'; at: Loc; path: FilePath }
  | { kind: 'rename'; at: Loc; from: FilePath; to: FilePath }
  | { kind: 'fsync'; at: Loc }
  /** A temp file or folder; `inDir`: in a folder the code chose (`dir=`), not the system's temp folder. */
  | { kind: 'temp'; at: Loc; inDir: boolean };

/** `root.a.b.prop` evaluated where it stands (read as a value or as the start of a longer chain). */
export interface MemberRead {
  /** The member expression that reads `prop`. */
  at: Loc;
  /** The members the chain goes on with, innermost first (`.messages`, `.create` after `client.beta.prompt_caching`), each with its whole expression. */
  next: Array<{ prop: string; at: Loc }>;
  prop: string;
  /** The properties between the root and `prop`, in order (`['beta']` in `client.beta.prompt_caching`). */
  path: string[];
  root: ArgView;
  /** The library class the root is an instance of (`anthropic.AsyncAnthropic` for `AsyncAnthropic()`, or a name bound to one). */
  rootClass?: string;
}

export interface FileView {
  readonly calls: readonly CallSite[];
  /** The modules the file imports (`import x`, `from x import y`, `import ... from 'x'`, `require('x')`), anywhere in it. */
  readonly imports: readonly string[];
  /** Member expressions reading a property of this name, in text order. */
  memberReads(prop: string): readonly MemberRead[];
  readonly pathJoins: readonly PathJoin[];
  /** The file writes, reads, renames, fsyncs and temp files of the file's calls, in text order. */
  readonly fileOps: readonly FileOp[];
  /** The file reads of the workspace modules this file imports (a saver whose loader lives in a helper module). */
  readonly importedReads: readonly Extract<FileOp, { kind: 'read' }>[];
  /** An expression of the file (a call's argument) read as a file path, as file operations name theirs. */
  pathAt(at: Loc): FilePath | undefined;
  /** The value of an expression of the file, as the interpreter resolves it. */
  valueAt(at: Loc): Value | undefined;
  /** The name, read at `at`, is the error an exception handler around it caught (`except OSError as e`, `catch (err)`). */
  caughtError(at: Loc, name: string): boolean;
  /** The expression at `at` is inside an exception handler's body (`except ...:`, `catch (...) { }`) of its function. */
  inHandler(at: Loc): boolean;
  /**
   * The folders from the root of the file's project (the nearest folder above it with a
   * repository or a package manifest) down to the file: `['gptme', 'eval', 'swebench']`. Empty
   * when no project root is found: folders above a project say nothing about its code.
   */
  readonly projectFolders: readonly string[];
  /** Every assignment statement / declarator with a value. */
  readonly assignments: readonly Assignment[];
  readonly filters: readonly FilterView[];
  readonly functions: readonly FunctionView[];
  readonly keyAssignments: readonly KeyAssignment[];
  /** The innermost function around a location; undefined at module level. */
  enclosingFunction(at: Loc): FunctionView | undefined;
  /**
   * The innermost loop (for/while/comprehension/forEach callback) around a location, within its
   * function; `conditionText` for `while`/`do` loops; `stepText` for a counting loop (`i++` of
   * `for (let i = 0; i < n; i++)`: the names it changes differ on every pass); `callback` for a
   * callback (`items.forEach`), whose `return` ends one pass, not the loop.
   */
  enclosingLoop(at: Loc): { at: Loc; iterText?: string; iter?: () => Value; targetText?: string; conditionText?: string; stepText?: string; callback?: true } | undefined;
  /**
   * The innermost `if` / conditional expression around a location, within its function; `holds`:
   * whether the location is in the part run when the test holds (true), in the other part (false),
   * or in the test itself (undefined).
   */
  enclosingCondition(at: Loc): { at: Loc; conditionText: string; holds?: boolean } | undefined;
  /**
   * Two places of one function that one call of it never runs both of: they sit in different
   * arms of one conditional (`if` / `elif` / `else`), or the earlier one sits in a block that
   * leaves the function after it (`return`, `raise`, `sys.exit()`, `throw`, `process.exit()`)
   * and the later one is outside that block. A program's modes (`if args.delete: ...; return`).
   */
  apart(a: Loc, b: Loc): boolean;
  /** The functions of the file that an agent framework runs on the conversation before each model call (TurnHook). */
  readonly turnHooks: readonly TurnHook[];
  /** The agents the file builds with a framework option that keeps only the last N images (AgentImageWindow). */
  readonly agentImageWindows: readonly AgentImageWindow[];
}

/**
 * An agent built with an option of its framework that keeps only the images of the last N steps
 * and drops the older ones before every model call (cua's `only_n_most_recent_images`).
 */
export interface AgentImageWindow {
  framework: string;
  /** The option as written (`only_n_most_recent_images=3`). */
  option: Loc;
  keep: number;
  /** Where the same agent turns the framework's prompt caching on; undefined when it does not. */
  cachedAt?: Loc;
}

/**
 * A function an agent framework runs on the conversation before every model call of its loop
 * (a cua callback's `on_llm_start`): the history it returns is what the next request sends, so
 * what it drops is dropped on every turn. Read by the framework's adapter, in the framework's
 * own terms.
 */
export interface TurnHook {
  /** The framework, as its users name it (for messages). */
  framework: string;
  /** The hook function's definition. */
  at: Loc;
  name: string;
  /**
   * Where the project turns on the framework's cache breakpoints over that history (cua:
   * `use_prompt_caching=True` given to the agent), in any of its files; empty when no file of
   * the project is seen to. Read from the other files when first asked.
   */
  cachedBy(): readonly Loc[];
}

/**
 * Whether the block of the statement at `at` leaves `loop` after it: a later line of that block (or
 * of a block around it, still in the loop's body) is a `break` or `return` (a retry loop's write, a
 * marker put on the first item found). A callback's `return` ends one pass only. Read by the lines'
 * indentation, so a `break` under a test of its own (`if used > budget: break`) is not one.
 */
export function leavesLoopAfter(textOf: (at: Loc) => string, at: Loc, loop: { at: Loc; callback?: true }): boolean {
  if (loop.callback) return false;
  const whole = textOf({ file: at.file, start: 0, end: loop.at.end });
  const lineStart = whole.lastIndexOf('\n', at.start - 1) + 1;
  const indent = (line: string) => /^[ \t]*/.exec(line)![0].length;
  const loopLine = whole.slice(whole.lastIndexOf('\n', loop.at.start - 1) + 1, loop.at.start);
  const loopIndent = indent(loopLine);
  let level = indent(whole.slice(lineStart, at.start));
  const after = whole.slice(at.end).split('\n').slice(1);
  for (const line of after) {
    if (!line.trim() || /^\s*(#|\/\/)/.test(line)) continue;
    const i = indent(line);
    if (i <= loopIndent) return false;
    // Out of the statement's block to one around it, still in the loop's body.
    if (i < level) level = i;
    if (i === level && /^\s*(return|break)\b/.test(line)) return true;
  }
  return false;
}
