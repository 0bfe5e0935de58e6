import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc, TextEdit } from '../core/span';
import { paramEntry } from './util';

/** The request methods of `messages` (a read of one of them ends the range of a read finding). */
const METHODS = new Set(['create', 'stream', 'parse', 'count_tokens', 'countTokens']);

/** Parameters that keep a call on the beta client after the old namespace is removed. */
const BETA_ONLY = ['betas', 'context_management', 'mcp_servers', 'diagnostics', 'fallbacks', 'speed', 'output_format'];

export default defineRule({
  meta: {
    id: 'removed-namespace',
    group: 'api',
    severity: 'error',
    // Reported only for a callee written in this file; a chain through a cast (`(client.beta as any).promptCaching`) has no segments to cut.
    fix: 'sometimes',
    // The file check reads the old namespace's name; requests through it hold it too.
    triggers: /prompt_caching|promptCaching/,
    summary: '`client.beta.prompt_caching.messages` / `client.beta.promptCaching.messages`: removed when prompt caching went GA.',
    docs: `## What it does
Finds calls through the old prompt-caching namespace: \`client.beta.prompt_caching.messages.create\` (Python) and \`client.beta.promptCaching.messages.create\` (TypeScript), and their \`stream\` forms. The namespace read on a client without a call fails the same way, so a method handed to a wrapper (\`create=client.beta.prompt_caching.messages.create\`) or kept in a variable is reported too.

Code written for both SDK generations is left alone: a call that runs only where the namespace exists (\`if hasattr(client.beta, "prompt_caching"):\`, \`if ('promptCaching' in client.beta)\`) or whose \`AttributeError\` is caught (\`except AttributeError:\`), and names of the old namespace that are not read from a client (a type annotation, an \`isinstance\` check on the SDK's types, an import under \`try\`/\`except ImportError\`).

## Why is this bad?
The namespace was removed when prompt caching became generally available (Python SDK 0.41.0, TypeScript SDK 0.33.0, 2024-12-17). On any newer SDK the call fails before a request is sent: \`AttributeError: 'Beta' object has no attribute 'prompt_caching'\` in Python, \`TypeError: Cannot read properties of undefined (reading 'messages')\` in JavaScript. Caching needs no beta anymore: \`cache_control\` works on \`client.messages.create\`.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()

response = client.beta.prompt_caching.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=[{"type": "text", "text": "You review contracts.", "cache_control": {"type": "ephemeral"}}],
    messages=[{"role": "user", "content": "Summarize clause 4."}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.beta.promptCaching.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  system: [{ type: 'text', text: 'You review contracts.', cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'Summarize clause 4.' }],
});
\`\`\`

## Use instead
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
CONTRACT_GUIDE = Path("contract-guide.md").read_text()

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=[{"type": "text", "text": CONTRACT_GUIDE, "cache_control": {"type": "ephemeral"}}],
    messages=[{"role": "user", "content": "Summarize clause 4."}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const contractGuide = readFileSync('contract-guide.md', 'utf8');

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  system: [{ type: 'text', text: contractGuide, cache_control: { type: 'ephemeral' } }],
  messages: [{ role: 'user', content: 'Summarize clause 4.' }],
});
\`\`\`

## Fix safety
The fix removes \`beta.prompt_caching\` (\`beta.promptCaching\`) from the call, leaving \`client.messages.create\`; when the call also passes a beta-only parameter (\`betas\`, \`context_management\`, …) it removes only \`prompt_caching\`, leaving \`client.beta.messages.create\`. A method read without a call keeps the beta namespace (only \`prompt_caching\` goes): the parameters it will be called with are not in sight, and \`client.beta.messages\` accepts everything the old namespace did. No fix is offered when the chain passes through a cast (\`(client.beta as any).promptCaching\`). It is safe: the old call fails on every run with any SDK released since December 2024, the request body stays the same, and the API has accepted \`cache_control\` without a beta since caching went GA. A \`prompt-caching-2024-07-31\` name left in \`betas\` is then reported by \`stale-beta\`.
`,
  },

  check(call, ctx) {
    const m = /\.(prompt_caching|promptCaching)\./.exec(call.calleeText);
    if (!m || !call.beta || call.callee.file !== ctx.file) return;
    if (guarded(ctx, call.at, call.sdk === 'python')) return;
    const keepBeta = BETA_ONLY.some((k) => paramEntry(call, k));
    const segments = keepBeta ? [m[1]] : ['beta', m[1]];
    const edits = removeSegments(ctx, call.callee, segments);
    // The callee as written, on one line (`calleeText` drops every space, `as any` included).
    const written = ctx.textOf(call.callee).replace(/\s*\n\s*/g, '');
    const cut = written.replace(keepBeta ? `.${m[1]}` : `.beta.${m[1]}`, '');
    // `(client.beta as any).promptCaching...`: no one piece to cut in the text; name the method chain.
    const target = cut !== written ? cut : `${keepBeta ? 'beta.' : ''}messages.${call.calleeText.split('.').pop()}`;
    const error = call.sdk === 'python' ? "AttributeError ('Beta' object has no attribute 'prompt_caching')" : "TypeError (Cannot read properties of undefined (reading 'messages'))";
    ctx.report({
      message: `\`${written}\` was removed when prompt caching went GA (Python SDK 0.41.0 / TS SDK 0.33.0, 2024-12-17): the call raises ${error} before sending. Call \`${target}\`.`,
      at: call.callee,
      fix: edits ? { title: `Call \`${target}\``, applicability: 'safe', edits } : undefined,
    });
  },

  // The old namespace read without a call (`create=client.beta.prompt_caching.messages.create`
  // handed to a wrapper, `stream = client.beta.promptCaching.messages.stream`): the read itself fails.
  checkFile(ctx) {
    for (const prop of ['prompt_caching', 'promptCaching']) {
      for (const read of ctx.view.memberReads(prop)) {
        if (read.path[read.path.length - 1] !== 'beta' || read.at.file !== ctx.file) continue;
        // Up to the method it names (`….messages.create`), or as far as the chain names the namespace.
        const m = read.next.findIndex((x) => x.prop === 'messages');
        const at = m < 0 ? read.at : METHODS.has(read.next[m + 1]?.prop ?? '') ? read.next[m + 1].at : read.next[m].at;
        // A request through the old namespace is the call check's (with its own guards).
        if (ctx.calls.some((c) => c.callee.file === at.file && c.callee.start === at.start && c.callee.end === at.end)) continue;
        const client = read.rootClass;
        if (!client || !/^(anthropic|@anthropic-ai\/[\w-]+)(\.|$)/.test(client)) continue;
        // The spelling says the SDK: `prompt_caching` is Python's, `promptCaching` TypeScript's.
        const python = prop === 'prompt_caching';
        if (guarded(ctx, read.at, python)) continue;
        // With the parameters not in sight, the beta namespace stays: it accepts whatever the old one did.
        const edits = removeSegments(ctx, at, [prop]);
        const written = ctx.textOf(at).replace(/\s*\n\s*/g, '');
        const target = written.replace(`.${prop}`, '');
        const error = python ? "AttributeError ('Beta' object has no attribute 'prompt_caching')" : "TypeError (Cannot read properties of undefined (reading 'messages'))";
        ctx.report({
          message: `\`${written}\` was removed when prompt caching went GA (Python SDK 0.41.0 / TS SDK 0.33.0, 2024-12-17): reading it raises ${error}, before any request is sent. Use \`${target}\`.`,
          at,
          fix: edits ? { title: `Use \`${target}\``, applicability: 'safe', edits } : undefined,
        });
      }
    }
  },
});

/**
 * Code written for both SDK generations: the call runs only where the old namespace exists
 * (`if hasattr(client.beta, "prompt_caching"):`, `if ('promptCaching' in client.beta)`), or its
 * AttributeError is caught (`except AttributeError:`) and handled by a fallback.
 */
function guarded(ctx: RuleContext, at: Loc, python: boolean): boolean {
  const condition = ctx.view.enclosingCondition(at);
  if (condition && /prompt_caching|promptCaching/.test(condition.conditionText)) return true;
  const fn = ctx.view.enclosingFunction(at);
  return python && !!fn && /\bexcept\s*\(?[\w.,\s]*\bAttributeError\b/.test(fn.text);
}

/** `client.beta.prompt_caching.messages.create` minus `beta` and `prompt_caching`: each `.segment` deleted, each found once. */
function removeSegments(ctx: RuleContext, callee: Loc, segments: readonly string[]): TextEdit[] | undefined {
  const edits: TextEdit[] = [];
  const found = new Set<string>();
  let s = ctx.edits.shape(callee);
  while (s?.kind === 'member') {
    if (segments.includes(s.name)) {
      if (found.has(s.name)) return undefined;
      found.add(s.name);
      const cut = ctx.edits.replace({ file: s.at.file, start: s.object.end, end: s.at.end }, '');
      if (!cut) return undefined;
      edits.push(...cut);
    }
    // `(client.beta).prompt_caching`: the chain goes on inside the parentheses.
    s = ctx.edits.shape(s.object);
    if (s?.kind === 'parenthesized') s = ctx.edits.shape(s.inner);
  }
  return found.size === segments.length ? edits : undefined;
}
