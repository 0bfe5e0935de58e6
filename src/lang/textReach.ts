/**
 * Where a module's functions lead, read from texts alone, before anything is parsed: which
 * function of which module may make a request, directly or through the functions its text
 * calls. The search of reach.ts asks it before it parses a module to resolve a callee, and the
 * prefilter asks it before it parses a file at all (a file that calls no such function passes
 * nothing on to a request). Each answer is kept between analyses (Workspace.derived) while the
 * texts it was read from stay. It over-approximates by names: the parse decides.
 */
import type { LanguageId } from '../core/model';
import type { ImportedName } from './frontEnd';
import { frontEndFor, importedNamesOf } from './frontEnds';
import { mayHoldRequests, mayHoldSdkRequests } from './requests';
import { SearchPath } from './searchPath';
import { isDigit, isIdentifierChar, isSpace } from '../core/chars';
import type { Workspace } from './workspace';

/** Imports followed from a module in search of one that may hold a request (Workspace.leadsTo). */
export const REACH_DEPTH = 4;

/**
 * The names a call of an imported name may reach in the module it comes from, in the order to
 * try: the member called (`m.send(` of `import m`), else the name imported (`complete` of
 * `import { complete as send }`); for a default import, the function the module's text exports as
 * its default, then the local name as written (a default export the text does not name).
 */
export function namesInModule(imported: string | undefined, local: string, member?: string): string[] {
  if (member !== undefined) return [member];
  if (imported === 'default') return ['default', local];
  return [imported ?? local];
}

/** Calls followed through module texts by textMayReach. */
const TEXT_DEPTH = REACH_DEPTH + 2;

/**
 * Whether function `name` of a module may lead to a request, read from texts alone before the
 * module is parsed: the text of its definition holds a request, or calls a function of the
 * module (`helper(`, `self.helper(`), or one it imports (`send(`, `llm.send(`), that may in turn;
 * a name the module imports from another (a re-export) is looked up there. A name the text
 * does not define as a function (an object, a class, a name given what a call returns) leads
 * nowhere the search follows; past the depth, it may (the parse decides). Known per module and
 * name, between analyses (Workspace.derived); a call back into a function being read adds nothing.
 */
export function textMayReach(ws: Workspace, file: string, name: string, depth = TEXT_DEPTH, path = new SearchPath()): boolean {
  const key = `text-reach\u0000${file}\u0000${name}`;
  const known = ws.derived.get(key);
  if (known !== undefined) return known;
  // Found before only because the depth ran out below it: it holds for as deep a search or less.
  for (let d = depth; d <= TEXT_DEPTH; d++) if (ws.derived.get(cutKey(key, d))) return true;
  if (path.backInto(key)) return false;
  // Asked first: what a module imports is kept (Workspace.leadsTo), its text is not, and most
  // modules lead to no request; nothing is kept of a "no" here, so no text needs noting.
  if (!ws.leadsTo(file, mayHoldSdkRequests, REACH_DEPTH)) return false;
  const source = ws.source(file);
  if (!source) return false;
  ws.noteRead(file, source.text);
  if (depth <= 0) {
    path.depthRanOut();
    return true;
  }
  const frame = path.enter(key);
  const facts = textFacts(ws, file, source.text, source.language);
  const imported = facts.imported;
  const body = facts.definition(name);
  let found: boolean;
  if (body === undefined) {
    // Not defined here as a function: imported (a re-export) and looked up there, or something
    // else (an object, a class, a name assigned a call's result) that is not followed.
    const imp = imported.find((i) => i.local === name);
    found = !!imp && facts.targets(imp).some((t) => t !== file && namesInModule(imp.name, name).some((n) => textMayReach(ws, t, n, depth - 1, path)));
  } else if (mayHoldSdkRequests(body)) found = true;
  else {
    found = false;
    for (const [root, last] of calledChains(body)) {
      if (found) break;
      const imp = imported.find((i) => i.local === root);
      if (imp) {
        // `send(...)` of `from m import send`; `m.send(...)` of `import m`, of a submodule or of a
        // class imported by name: the name called, in the module it comes from.
        found = facts.targets(imp).some((t) => t !== file && namesInModule(imp.name, root, last).some((n) => textMayReach(ws, t, n, depth - 1, path)));
      } else {
        // A function of the module itself (`helper(...)`, `self.helper(...)`, `this.helper(...)`).
        const own = root === 'self' || root === 'this' || root === 'cls' ? last : root;
        if (own !== undefined && own !== name && facts.definition(own) !== undefined) found = textMayReach(ws, file, own, depth - 1, path);
      }
    }
  }
  // A "no" found while a call back into a function further up was cut short is not kept, nor a
  // "yes" found only because the depth ran out below (SearchPath): a deeper search may say no.
  const kept = path.leave(frame);
  if (found && frame.depthRanOut < path.depthRunOuts) ws.derived.set(cutKey(key, depth), true);
  else if (kept || found) ws.derived.set(key, found);
  return found;
}

/** The key of a "yes" that a search `depth` calls deep found only because the depth ran out below. */
function cutKey(key: string, depth: number): string {
  return `${key}\u0000cut\u0000${depth}`;
}

interface TextFacts {
  text: string;
  imported: readonly ImportedName[];
  definition(name: string): string | undefined;
  /** The files an import of the module names (Workspace.importTargets, kept with the facts). */
  targets(imp: ImportedName): string[];
}

/** Characters of module texts whose facts are kept (textFacts). */
const MAX_FACT_CHARS = 1024 * 1024;

/** What textMayReach reads of a module's text, kept while the text is the same (per workspace). */
const textFactsOf = new WeakMap<Workspace, Map<string, TextFacts>>();

function textFacts(ws: Workspace, file: string, text: string, language: LanguageId): TextFacts {
  let byFile = textFactsOf.get(ws);
  if (!byFile) textFactsOf.set(ws, (byFile = new Map()));
  const known = byFile.get(file);
  if (known && known.text === text) return known;
  const definitions = new Map<string, string | undefined>();
  const modules = frontEndFor(language).modules;
  const lookup = modules.definitions(text);
  const targets = new Map<ImportedName, string[]>();
  const facts: TextFacts = {
    text,
    imported: importedNamesOf(language, text),
    definition(name) {
      if (!definitions.has(name)) definitions.set(name, lookup(name));
      return definitions.get(name);
    },
    targets(imp) {
      let found = targets.get(imp);
      if (!found) targets.set(imp, (found = ws.importTargets(file, language, imp)));
      return found;
    },
  };
  byFile.set(file, facts);
  // A bound on what is kept: the facts of the most recent modules, which hold their texts (as the
  // workspace's text cache, about a megabyte of characters).
  let chars = 0;
  for (const f of byFile.values()) chars += f.text.length;
  for (const [oldest, f] of byFile) {
    if (chars <= MAX_FACT_CHARS || byFile.size <= 1) break;
    byFile.delete(oldest);
    chars -= f.text.length;
  }
  return facts;
}

/**
 * Words of either language that a `(` may follow without making a call: `if (x)`, `while (x)`,
 * `return (a, b)`, `elif (x)`, `not (x)`. No function can be named so.
 */
export const STATEMENT_WORDS: ReadonlySet<string> = new Set(['if', 'elif', 'else', 'for', 'while', 'do', 'switch', 'case', 'catch', 'return', 'throw', 'typeof', 'void', 'delete', 'await', 'yield', 'new', 'in', 'of', 'instanceof', 'with', 'function', 'class', 'not', 'and', 'or', 'is', 'assert', 'del', 'lambda', 'except', 'import', 'from', 'as', 'async', 'raise', 'global', 'nonlocal', 'pass', 'break', 'continue', 'try', 'finally', 'let', 'const', 'var', 'export', 'default', 'extends', 'keyof', 'satisfies']);

/** A chain of names before a `(`: at most a first name and 8 attributes, each name at most this long, with at most MAX_GAP spaces at each gap. */
const MAX_CHAIN_NAMES = 9;
const MAX_NAME_LENGTH = 201;
const MAX_GAP = 16;

/**
 * The calls a text makes, as the name they start from and the last attribute (`a.b.c(` -> [a, c],
 * `f(` -> [f, undefined]); given `roots`, only the calls that start from one of those names. Each
 * `(` is read backwards (callChainBefore): a match object per call of a pattern over the whole
 * text was most of what this cost, and it reads every module a request may be reached through.
 */
export function calledChains(text: string, roots?: readonly string[]): Array<[string, string | undefined]> {
  const wanted = roots && new Set(roots);
  const out: Array<[string, string | undefined]> = [];
  const seen = new Set<string>();
  for (let paren = text.indexOf('('); paren !== -1; paren = text.indexOf('(', paren + 1)) {
    const chain = callChainBefore(text, paren, wanted);
    // `if (`, `while (`, `return (`: a statement, not a call (nor a function a text could define).
    if (!chain || (chain[1] === undefined && STATEMENT_WORDS.has(chain[0]))) continue;
    const k = `${chain[0]}.${chain[1] ?? ''}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(chain);
  }
  return out;
}

/**
 * The call chain that ends at the `(` at `paren`, as a search of the text from its start for
 * `(?<![\w$.])NAME((?:\s{0,16}\.\s{0,16}NAME){0,8})\s{0,16}\(` (NAME: `[A-Za-z_$][\w$]{0,200}`, or
 * one of `roots`) finds it: the names linked by dots before the `(`, right to left, and of those
 * the leftmost that can start the match (nothing of a name or a dot just before it, one of
 * `roots` when given), with at most 8 attributes after it. Undefined when none can.
 */
function callChainBefore(text: string, paren: number, roots: ReadonlySet<string> | undefined): [string, string | undefined] | undefined {
  const starts = CHAIN_STARTS;
  const ends = CHAIN_ENDS;
  let names = 0;
  let end = gapBefore(text, paren);
  while (end >= 0 && names < MAX_CHAIN_NAMES) {
    let start = end;
    while (start > 0 && isIdentifierChar(text.charCodeAt(start - 1))) start--;
    if (start === end) break;
    // A run too long for a name, or one that starts with a digit, is no attribute and starts no
    // chain; only one of `roots` (listed whole in the pattern) can start one there.
    if (end - start > MAX_NAME_LENGTH || isDigit(text.charCodeAt(start))) {
      if (roots) {
        starts[names] = start;
        ends[names++] = end;
      }
      break;
    }
    starts[names] = start;
    ends[names++] = end;
    const dot = gapBefore(text, start);
    if (dot <= 0 || text.charCodeAt(dot - 1) !== 0x2e /* . */) break;
    end = gapBefore(text, dot - 1);
  }
  for (let t = names - 1; t >= 0; t--) {
    if (starts[t] > 0 && text.charCodeAt(starts[t] - 1) === 0x2e) continue;
    const root = text.slice(starts[t], ends[t]);
    if (roots && !roots.has(root)) continue;
    return [root, t > 0 ? text.slice(starts[0], ends[0]) : undefined];
  }
  return undefined;
}

/**
 * Where callChainBefore notes its names (one call at a time): two arrays made for every `(` of
 * every text it reads were 135 of the 3,390 MB a one-thread run over the real-code corpus
 * allocated (sampled), about as much as the texts of the modules it reads.
 */
const CHAIN_STARTS = new Int32Array(MAX_CHAIN_NAMES);
const CHAIN_ENDS = new Int32Array(MAX_CHAIN_NAMES);

/** Where the spaces just before `at` start, or -1 when there are more than MAX_GAP of them. */
function gapBefore(text: string, at: number): number {
  let i = at;
  while (i > 0 && isSpace(text.charCodeAt(i - 1))) {
    i--;
    if (at - i > MAX_GAP) return -1;
  }
  return i;
}

/**
 * Whether a text (of `file`) may pass something on to a request: it holds one, or calls a
 * function it imports (`send(`, `llm.send(`) that may lead to one (textMayReach). Read before
 * the file is parsed (the `'reaches-requests'` trigger).
 */
export function callsTowardRequests(ws: Workspace, file: string, text: string, language: LanguageId, holdsRequests = mayHoldRequests(text)): boolean {
  if (holdsRequests) return true;
  // Only a name imported from a module of the workspace can lead to one: those are looked for
  // in the calls (most files import only libraries, and the search of every call is the cost).
  const imported = new Map<string, ImportedName>();
  for (const imp of importedNamesOf(language, text)) if (ws.importTargets(file, language, imp).some((t) => t !== file)) imported.set(imp.local, imp);
  if (!imported.size) return false;
  for (const [root, last] of calledChains(text, [...imported.keys()])) {
    const imp = imported.get(root)!;
    if (ws.importTargets(file, language, imp).some((t) => t !== file && namesInModule(imp.name, root, last).some((n) => textMayReach(ws, t, n)))) return true;
  }
  return false;
}
