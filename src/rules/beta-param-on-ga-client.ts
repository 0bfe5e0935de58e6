import type { Fix } from '../core/fix';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { TextEdit } from '../core/span';
import type { Entry } from '../core/value';
import { compareVersions, projectSdkFor } from '../core/knownNames';
import { addBetas, betaNamespace, paramEntry } from './util';

interface BetaOnlyParam {
  /** The betas that enable it (any one of them); a fix adds the first. Absent: no single beta. */
  betas?: string[];
  /**
   * Generally available on these non-beta methods since this @anthropic-ai/sdk version: reported
   * there only when the project's own TypeScript SDK is known to be older.
   */
  ga?: { methods: ReadonlySet<string>; typescript: string };
}

/**
 * Parameters that only `client.beta.messages.*` takes (facts §3.2), with the beta each one
 * needs. `context_management` is left to beta-not-enabled, which knows the beta each edit type
 * needs. Cache diagnostics became a parameter of `messages.create` in @anthropic-ai/sdk 0.129.0
 * (2026-09-28; `count_tokens` still lacks it), `speed` of `create` and `count_tokens` in 0.135.0.
 */
const BETA_ONLY_PARAMS: ReadonlyMap<string, BetaOnlyParam> = new Map<string, BetaOnlyParam>([
  ['betas', {}],
  ['mcp_servers', { betas: ['mcp-client-2025-11-20', 'mcp-client-2026-09-15'] }],
  ['diagnostics', { betas: ['cache-diagnosis-2026-04-07'], ga: { methods: new Set(['create', 'stream', 'parse']), typescript: '0.129.0' } }],
  ['speed', { betas: ['fast-mode-2026-02-01'], ga: { methods: new Set(['create', 'stream', 'parse', 'count_tokens']), typescript: '0.135.0' } }],
  ['fallbacks', {}],
  ['output_format', {}],
]);

/** Whether the parameter is beta-only for this call: not GA on its method in the SDK the project uses. */
function betaOnlyHere(spec: BetaOnlyParam, call: RequestCall, ctx: RuleContext): boolean {
  if (!spec.ga || !spec.ga.methods.has(call.method)) return true;
  const sdk = projectSdkFor(ctx.known, call.sdk);
  return call.sdk !== 'python' && !!sdk && compareVersions(sdk.version, spec.ga.typescript) < 0;
}

const METHODS = new Set(['create', 'stream', 'count_tokens', 'parse']);

export default defineRule({
  meta: {
    id: 'beta-param-on-ga-client',
    group: 'api',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A beta-only parameter (`betas`, `mcp_servers`, `fallbacks`, …) passed to the non-beta `messages.create` / `stream` / `count_tokens`.',
    docs: `## What it does
Finds \`betas\` and the other parameters that only the beta client takes — \`mcp_servers\`, \`fallbacks\`, \`output_format\`, and \`diagnostics\` on \`count_tokens\` / \`countTokens\` — passed to the non-beta \`client.messages.create\`, \`stream\`, \`parse\` or \`count_tokens\`.

Cache diagnostics (\`diagnostics\`) is generally available on \`messages.create\` since 2026-09-28 (@anthropic-ai/sdk 0.129.0), and \`speed\` on \`create\` and \`count_tokens\` since @anthropic-ai/sdk 0.135.0: they are reported on those methods only when the project's own TypeScript SDK (found in \`node_modules\`) is older than that.

\`context_management\` on the non-beta client is reported by \`beta-not-enabled\`, which also knows which beta each edit type needs; this rule does not report it again. Requests built through LiteLLM, LangChain or the Vercel AI SDK are not checked: those libraries choose the client themselves.

## Why is this bad?
\`betas\` is not a parameter of the non-beta method: the Python SDK raises \`TypeError: create() got an unexpected keyword argument 'betas'\` before anything is sent, and the TypeScript types reject it (plain JavaScript sends it, and the API answers 400 \`betas: Extra inputs are not permitted\`). The same holds for the other beta-only parameters. The call fails on every run.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    betas=["fast-mode-2026-02-01"],
    speed="fast",
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  betas: ['fast-mode-2026-02-01'],
  speed: 'fast',
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.messages.create(
    model="claude-opus-4-7",
    max_tokens=1024,
    betas=["fast-mode-2026-02-01"],
    speed="fast",
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.messages.create({
  model: 'claude-opus-4-7',
  max_tokens: 1024,
  betas: ['fast-mode-2026-02-01'],
  speed: 'fast',
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

## Fix safety
The fix switches the call to \`client.beta.messages\` and, for \`mcp_servers\`, \`diagnostics\` and \`speed\`, adds the beta they need (for \`mcp_servers\`, \`mcp-client-2025-11-20\`; \`mcp-client-2026-09-15\` in \`betas\` is accepted too) to \`betas\` when it is missing. It is unsafe: the beta method returns the beta types (\`BetaMessage\`), which code that reads the response may not expect. No fix is offered for \`fallbacks\` or \`output_format\` without a \`betas\` list (use \`output_config.format\` instead of \`output_format\`).
`,
  },

  check(call, ctx) {
    if (call.beta || call.framework || !METHODS.has(call.method)) return;
    const found = [...BETA_ONLY_PARAMS]
      .filter(([, spec]) => betaOnlyHere(spec, call, ctx))
      .map(([k]) => paramEntry(call, k))
      .filter((e) => !!e?.keyAt && e.keyAt.file === ctx.file && !choosesBeta(call, e, ctx) && !writtenForOtherArm(call, e, ctx));
    if (!found.length) return;
    const fix = switchFix(call, ctx);
    const method = call.calleeText.replace(/^.*\bmessages\./, 'messages.');
    const beta = call.calleeText.replace(/\bmessages\./, 'beta.messages.');
    const failure = call.sdk === 'python' ? 'the SDK raises TypeError before sending' : 'the SDK types reject it, and the API answers 400 when it is sent';
    const sdk = projectSdkFor(ctx.known, call.sdk);
    for (const entry of found) {
      const hint = entry!.key === 'output_format' ? ' (or use `output_config.format`)' : '';
      const ga = BETA_ONLY_PARAMS.get(entry!.key)?.ga;
      const older = ga && sdk && ga.methods.has(call.method) ? ` in this project's ${sdk.package} ${sdk.version} (generally available from ${ga.typescript}; or upgrade)` : '';
      ctx.report({
        message: `\`${entry!.key}\` is a beta-only parameter that the non-beta \`${method}\` does not take${older}: ${failure}. Call \`${beta}\`${hint}.`,
        at: entry!.keyAt!,
        fix,
      });
    }
  },
});

/**
 * A key written only on some runs (Entry.conditional) that reaches both this request and a beta
 * request of the same method (`if self.has_betas(): client.beta.messages.create(**kw)` / `else:
 * client.messages.create(**kw)`): the code chooses the endpoint at run time, and which runs write
 * the key is not read, so its being sent to this endpoint is not known.
 */
function choosesBeta(call: RequestCall, entry: Entry, ctx: RuleContext): boolean {
  if (!entry.conditional || !entry.keyAt) return false;
  const at = entry.keyAt;
  return ctx.calls.some((other) => {
    if (!other.beta || other.method !== call.method) return false;
    const there = paramEntry(other, entry.key)?.keyAt;
    return !!there && there.file === at.file && there.start === at.start;
  });
}

/**
 * A key written only when a test holds, for a request sent only when the same test does not
 * (`if betas: kw["betas"] = betas` … `client.beta.messages.stream(**kw) if betas else
 * client.messages.stream(**kw)`): the key never reaches this request. The test is a name or an
 * attribute that nothing writes between the two.
 */
function writtenForOtherArm(call: RequestCall, entry: Entry, ctx: RuleContext): boolean {
  const keyAt = entry.keyAt;
  if (!keyAt || keyAt.file !== ctx.file || call.at.file !== ctx.file || keyAt.end > call.at.start) return false;
  const written = ctx.view.enclosingCondition(keyAt);
  const sent = ctx.view.enclosingCondition(call.at);
  if (written?.holds !== true || sent?.holds !== false) return false;
  const test = written.conditionText.trim();
  if (test !== sent.conditionText.trim() || !/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/.test(test)) return false;
  if (ctx.view.enclosingFunction(written.at) !== ctx.view.enclosingFunction(sent.at)) return false;
  const between = ctx.textOf({ file: ctx.file, start: written.at.end, end: sent.at.start });
  const name = test.replace(/[.$]/g, (c) => `\\${c}`);
  return !new RegExp(`(?<![\\w.$])${name}\\s*(?:[-+*/|&]?=(?!=)|\\.(?:append|extend|insert|push|add|clear|pop|remove|splice|update)\\s*\\()`).test(between);
}

/** `client.messages.X` -> `client.beta.messages.X`, plus the betas the beta-only parameters need. */
function switchFix(call: RequestCall, ctx: RuleContext): Fix | undefined {
  if (call.callee.file !== ctx.file) return undefined;
  const betasEntry = paramEntry(call, 'betas');
  const listed = new Set<string>();
  if (betasEntry) {
    if (betasEntry.value.kind !== 'list') return undefined;
    for (const b of betasEntry.value.items) if (b.kind === 'str' && b.complete) listed.add(b.text);
  }
  const needed: string[] = [];
  for (const [key, spec] of BETA_ONLY_PARAMS) {
    if (key === 'betas' || !paramEntry(call, key) || !betaOnlyHere(spec, call, ctx)) continue;
    if (!spec.betas) {
      if (!betasEntry) return undefined;
      continue;
    }
    if (!spec.betas.some((b) => listed.has(b)) && !needed.includes(spec.betas[0])) needed.push(spec.betas[0]);
  }
  const switchEdits = betaNamespace(ctx, call.callee);
  if (!switchEdits) return undefined;
  const edits: TextEdit[] = [...switchEdits];
  if (needed.length) {
    const add = addBetas(ctx, call, needed);
    if (!add) return undefined;
    edits.push(...add);
  }
  const title = needed.length ? `Use client.beta.messages with betas ${needed.join(', ')}` : 'Use client.beta.messages';
  return { title, applicability: 'unsafe', edits };
}
