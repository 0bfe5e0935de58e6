/**
 * Agent frameworks that run code of the project on the conversation before every model call of
 * their loop (TurnHook), read in each framework's own terms. One adapter so far:
 *
 * cua (`cua_agent`): a callback is a subclass of its `AsyncCallbackHandler`; the agent passes the
 * history through every callback's `on_llm_start(messages)` before each step and sends what the
 * last one returns. Its Anthropic loop marks that history with `cache_control` when the agent is
 * built with `use_prompt_caching=True`. Its history is a list of Responses-style items
 * (`computer_call`, `computer_call_output` with the screenshot's `image_url`), converted to
 * Messages API blocks only in the loop: nothing here reads those items by Messages API names.
 */
import type { AgentImageWindow, TurnHook } from '../core/fileView';
import type { Loc } from '../core/span';
import type { ObjValue, Value } from '../core/value';
import { getEntry, getEntryRecord, knownTexts } from '../core/value';
import type { Evaluator } from './evaluate';
import type { Node } from './parsers';
import { importedNamesOf } from './frontEnds';
import type { FileUnit } from './workspace';

/** The base class of cua's callbacks. LangChain has a class of that name too, whose `on_llm_start` returns nothing. */
const CUA_CALLBACK_BASE = 'AsyncCallbackHandler';
const CUA_CALLBACK_BASE_WORD = /\bAsyncCallbackHandler\b/;
/** Modules a cua callback base is imported from: cua's agent package, or a module of the package itself (relative). */
const CUA_MODULE = /^\.|^(?:cua_)?agent(?:\.|$)/;
const OTHER_FRAMEWORKS = /langchain|langgraph|llama_index|llamaindex/;
/** A model cua sends through its Anthropic loop (`anthropic/claude-…`, `omniparser+anthropic/claude-…`). */
const CLAUDE = /claude|anthropic\//i;
/** Files read for where a cua agent is built (cuaCachingOn), and their characters. */
const MAX_AGENT_FILES = 16;
const MAX_AGENT_CHARS = 1_000_000;
/** The cua class that runs the callbacks and takes `use_prompt_caching`. */
const CUA_AGENT = 'ComputerAgent';

export function turnHooks(unit: FileUnit, ev: Evaluator): TurnHook[] {
  // cua is a Python package: its names (`on_llm_start`, a module `cua_agent`) are Python's spelling.
  if (!unit.text.includes(CUA_CALLBACK_BASE) || !unit.text.includes('on_llm_start')) return [];
  const imported = importedNamesOf(unit.language, unit.text).find((n) => n.local === CUA_CALLBACK_BASE && n.name === CUA_CALLBACK_BASE);
  if (!imported || !CUA_MODULE.test(imported.spec) || OTHER_FRAMEWORKS.test(imported.spec)) return [];
  const out: TurnHook[] = [];
  let cached: Loc[] | undefined;
  for (const scope of unit.scopes.values()) {
    const cls = scope.node;
    if (!unit.adapter.isClass(cls) || !CUA_CALLBACK_BASE_WORD.test(unit.adapter.classHeader(cls).bases)) continue;
    for (const fn of unit.adapter.classMembers(cls).get('on_llm_start') ?? []) {
      if (!unit.adapter.isFunction(fn)) continue;
      // `on_llm_start(self, messages)`: the history is its one argument (a method's parameters are read without `self`).
      if (unit.adapter.functionInfo(fn).params[0]?.name !== 'messages') continue;
      out.push({ framework: 'cua', at: unit.loc(fn), name: 'on_llm_start', cachedBy: () => (cached ??= cuaCachingOn(unit, ev)) });
    }
  }
  return out;
}

/**
 * Where the project builds a cua agent with `use_prompt_caching` set to `True` (written in the
 * call, or put in the keyword dict it is built with, under a condition or not) for a model that
 * may be Claude's (one it names, or one not known here): the places the caching is turned on. A value that is not known (`use_prompt_caching=args.cache`) turns it on
 * in no run that can be seen. Not in tests: a test builds the agent with each option in turn.
 */
function cuaCachingOn(unit: FileUnit, ev: Evaluator): Loc[] {
  const files = [unit.file, ...(unit.workspace.filesCalling(unit.file, CUA_AGENT, true) ?? [])];
  const out: Loc[] = [];
  let read = 0;
  let chars = 0;
  for (const file of files) {
    // Parsed only when its text names the option, and within a bound (a project that builds
    // agents in many files says so in the first few).
    const text = file === unit.file ? unit.text : unit.workspace.source(file)?.text;
    if (!text?.includes('use_prompt_caching') || unit.frontEnd.modules.isTestFile(file)) continue;
    if (++read > MAX_AGENT_FILES || (chars += text.length) > MAX_AGENT_CHARS) break;
    const u = file === unit.file ? unit : unit.workspace.get(file);
    if (!u) continue;
    for (const { node, opts } of claudeAgents(u, ev)) {
      const entry = getEntryRecord(opts, 'use_prompt_caching');
      if (entry && mayBeTrue(entry.value)) out.push(entry.valueAt ?? entry.value.at ?? u.loc(node));
    }
  }
  return out;
}

/**
 * cua agents the file builds with `only_n_most_recent_images` set to a number: cua then adds its
 * own image-retention callback, which keeps the screenshots of the last N steps and drops the
 * older ones before every model call. With where the same agent turns `use_prompt_caching` on
 * (none: it does not), for a model that may be Claude's. Not in tests.
 */
export function cuaImageWindows(unit: FileUnit, ev: Evaluator): AgentImageWindow[] {
  if (!unit.text.includes('only_n_most_recent_images') || unit.frontEnd.modules.isTestFile(unit.file)) return [];
  const out: AgentImageWindow[] = [];
  for (const { node, opts } of claudeAgents(unit, ev)) {
    const keep = getEntryRecord(opts, 'only_n_most_recent_images');
    if (!keep || keep.value.kind !== 'num' || typeof keep.value.value !== 'number' || keep.value.value <= 0) continue;
    const caching = getEntryRecord(opts, 'use_prompt_caching');
    const at = keep.keyAt && keep.valueAt ? { file: unit.file, start: Math.min(keep.keyAt.start, keep.valueAt.start), end: Math.max(keep.keyAt.end, keep.valueAt.end) } : keep.valueAt;
    if (!at) continue;
    out.push({ framework: 'cua', option: at, keep: keep.value.value, cachedAt: caching && mayBeTrue(caching.value) ? (caching.valueAt ?? unit.loc(node)) : undefined });
  }
  return out;
}

/**
 * The cua agents a file builds, with the options each is given, for a model that may be Claude's
 * (one it names, or one not known here): only cua's Anthropic loop writes breakpoints, so an
 * agent of another provider's model caches nothing.
 */
function* claudeAgents(unit: FileUnit, ev: Evaluator): Generator<{ node: Node; opts: ObjValue }> {
  for (const node of unit.callsNamed(CUA_AGENT)) {
    const e = unit.adapter.expr(node);
    if (e.k !== 'call') continue;
    const opts = unit.frontEnd.calls.options(unit, ev, e.args).value;
    const model = getEntry(opts, 'model');
    const models = model && knownTexts(model);
    if (models && !models.some((m) => CLAUDE.test(m))) continue;
    yield { node, opts };
  }
}

function mayBeTrue(v: Value): boolean {
  return v.kind === 'bool' && v.value === true;
}
