/**
 * The kinds of values well-known library functions produce (each front end's library.ts maps
 * its functions' canonical dotted names onto them), and the name patterns the analysis reads in
 * every language.
 */

export type SourceKind =
  | 'clock'
  | 'random'
  | 'environment'
  | 'listing'
  | 'json-dumps'
  | 'json-stringify'
  | 'sorted'
  | 'set'
  | 'to-list'
  | 'passthrough'
  /** A copy of its argument (`copy.deepcopy(x)`, `structuredClone(x)`): the same value. */
  | 'clone'
  /** `Object.assign({}, base, extra)`: the keys of every argument, a later one's over an earlier one's. */
  | 'merge'
  | 'object-keys'
  | 'object-entries'
  | 'object-from-entries'
  | 'date-ctor'
  /** A TypedDict's constructor (the SDK's request types, `ToolParam(name=..., ...)`): the dict of its keyword arguments. */
  | 'record'
  | 'require';

/**
 * Calls whose result is data fetched per request: retrieval, memory, search, user lookups. Not
 * "tool search" (`_apply_tool_search(tools)`, `withToolSearch`): the API's tool search feature,
 * which code turns on by reshaping the tool list it already has, not a search of data. Nor a name
 * that ends with the tool it makes (`_map_web_search_tool(tool)`, `memoryTool()`,
 * `BetaMemoryTool20250818Param`): the definition of the API's web search or memory tool.
 */
export const RETRIEVAL_NAME = /(retriev|(?<!tools?_?)search(?!_?tool(?:s|_?param|\d|$))|recall|memor(?!y_?tool(?:s|_?param|\d|$))|lookup|similar|vector|rag_|knowledge|fetch_?context|get_?context|user_?profile|get_?profile|get_?user|load_?user|rerank)/i;

/**
 * Code that already cuts history at a user turn or repairs tool_use/tool_result pairs: a role
 * compared with "user", tool_use ids matched up, or a condition that looks at tool_result
 * blocks. (Building a tool_result, or branching on tool_use to run a tool, is not a guard.)
 */
export const TURN_GUARD = new RegExp(
  [
    // a role compared with "user": `m.role === 'user'`, `m["role"] != "user"`, `m.get("role") == "user"`, `role === 'user'`
    String.raw`\brole["']?\s*\]?\s*\)?\s*[!=]==?\s*["']user["']`,
    String.raw`["']user["']\s*[!=]==?\s*[\w.[\]"'()]*\brole\b`,
    // tool_use ids matched up
    String.raw`tool_use_id["']?\]?\s*(?:in\b|not in\b|[!=]==?)`,
    String.raw`toolUseId\s*[!=]==?`,
    // a condition that looks at tool_result blocks
    String.raw`\b(?:if|while)\b[^\n:{]*["']tool_result["']`,
    // the same over the lines of a parenthesized condition: `if (\n dropped.kind == "tool_call"\n and msgs[0].kind == "tool_result"\n):`
    String.raw`\b(?:if|while)\s*\([^:{;]*["']tool_result["']`,
  ].join('|'),
);

