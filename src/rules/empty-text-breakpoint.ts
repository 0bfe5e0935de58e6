import type { Fix } from '../core/fix';
import type { Marker } from '../core/breakpoints';
import { displayPath, explicitMarkers } from '../core/breakpoints';
import { prefixBlocks } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import { getEntry, getEntryRecord } from '../core/value';
import { inFile } from './util';

const API_ERROR = 'cache_control cannot be set for empty text blocks';

export default defineRule({
  meta: {
    id: 'empty-text-breakpoint',
    group: 'cache',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A cache_control marker on an empty text block: the API rejects it.',
    docs: `## What it does
Finds a \`cache_control\` marker on a text block whose text is the empty string, in \`system\` or in any message. The usual source is a block added only to carry the marker, the way Bedrock's Converse API uses a separate \`cachePoint\` block.

## Why is this bad?
The Messages API does not accept a breakpoint on an empty text block and answers the whole request with a 400: \`${API_ERROR}\`. The marker belongs on the last block with content: it caches everything up to and including that block.

## Example
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
MANUAL = Path("docs/router-manual.md").read_text()


def ask(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        system=[
            {"type": "text", "text": MANUAL},
            {"type": "text", "text": "", "cache_control": {"type": "ephemeral"}},
        ],
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const MANUAL = readFileSync('docs/router-manual.md', 'utf8');

export async function ask(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [
      { type: 'text', text: MANUAL },
      { type: 'text', text: '', cache_control: { type: 'ephemeral' } },
    ],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Use instead
\`\`\`python
from pathlib import Path

import anthropic

client = anthropic.Anthropic()
MANUAL = Path("docs/router-manual.md").read_text()


def ask(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=1024,
        system=[{"type": "text", "text": MANUAL, "cache_control": {"type": "ephemeral"}}],
        messages=[{"role": "user", "content": question}],
    )
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const MANUAL = readFileSync('docs/router-manual.md', 'utf8');

export async function ask(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [{ type: 'text', text: MANUAL, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: question }],
  });
}
\`\`\`

## Fix safety
The fix deletes the empty block and moves its \`cache_control\` onto the block right before it in the same list (or only deletes the empty block when that block is already marked). The breakpoint stays at the same place in the prompt and the model sees the same text, so the fix is safe. It is offered only when both blocks are written as literals in the same list.
`,
  },

  check(call, ctx) {
    for (const m of explicitMarkers(call)) {
      const block = m.block?.value;
      if (block?.kind !== 'obj') continue;
      const type = getEntry(block, 'type');
      if (type && !(type.kind === 'str' && type.text === 'text')) continue;
      const text = getEntry(block, 'text');
      if (!(text?.kind === 'str' && text.complete && text.text === '')) continue;
      const at = inFile(ctx, m.at, block.at, call.callee);
      if (!at) continue;
      ctx.report({
        message: `\`cache_control\` is set on an empty text block (\`${displayPath(call, m.path)}\`); the API rejects the request with 400: \`${API_ERROR}\`.`,
        at,
        fix: moveToPrevious(call, m, ctx),
      });
    }
  },
});

/** Deletes the empty block and puts its marker on the block before it in the same list. */
function moveToPrevious(call: RequestCall, m: Marker, ctx: RuleContext): Fix | undefined {
  const block = m.block?.value;
  if (block?.kind !== 'obj' || !block.at || block.at.file !== ctx.file || !m.at || m.repeated) return undefined;
  const blocks = prefixBlocks(call);
  const i = blocks.findIndex((b) => b.path === m.path);
  const prev = i > 0 ? blocks[i - 1] : undefined;
  const sameList = prev && prev.section === m.section && prev.path.replace(/\[\d+\]$/, '') === m.path.replace(/\[\d+\]$/, '');
  if (!prev || !sameList || prev.value.kind !== 'obj' || !prev.value.at || prev.value.at.file !== ctx.file) return undefined;
  const remove = ctx.edits.removeListItem(block.at);
  if (!remove) return undefined;
  const marker = getEntryRecord(block, 'cache_control');
  // The request is rejected as it is; the breakpoint stays where it was and the model reads the same text.
  if (prev.cacheControl) return { title: 'Remove the empty text block', applicability: 'safe', edits: remove };
  const copy = marker?.valueAt ? ctx.edits.addEntry(prev.value.at, 'cache_control', ctx.textOf(marker.valueAt)) : undefined;
  if (!copy) return undefined;
  return { title: 'Move the marker to the previous block and remove the empty text block', applicability: 'safe', edits: [...copy, ...remove] };
}
