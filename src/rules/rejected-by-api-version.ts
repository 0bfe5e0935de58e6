import type { Fix } from '../core/fix';
import { compareVersions, projectSdkFor } from '../core/knownNames';
import { param, prefixBlocks } from '../core/model';
import type { RequestCall } from '../core/model';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import { getEntry, getEntryRecord } from '../core/value';
import { paramEntry, requestPlatform } from './util';

/**
 * API version 2026-10-21 (https://platform.claude.com/docs/fr/api/migration-2026-10-21.md):
 * sampling parameters, `document` blocks in assistant turns and citations on user text blocks
 * give 400. The SDK majors of that day send it by default.
 */
const API_VERSION = '2026-10-21';
const SAMPLING = ['temperature', 'top_p', 'top_k'];
/** The first SDK versions whose client sends `anthropic-version: 2026-10-21`, for SDKs whose files do not say. */
const FIRST_SENDING: Record<string, string> = { '@anthropic-ai/sdk': '1.0.0', anthropic: '2.0.0' };

export default defineRule({
  meta: {
    id: 'rejected-by-api-version',
    group: 'api',
    severity: 'error',
    fix: 'sometimes',
    summary: 'A request that API version 2026-10-21 rejects (`temperature` / `top_p` / `top_k`, a `document` in an assistant turn, citations on a user text block), sent with that version.',
    docs: `## What it does
Finds what the Messages API rejects under \`anthropic-version: 2026-10-21\` — \`temperature\`, \`top_p\` and \`top_k\` (even at their defaults), \`document\` blocks in assistant messages, and non-empty \`citations\` on text blocks of user messages — in requests that are known to be sent with that version:

- the code sets the \`anthropic-version\` header to \`2026-10-21\` on the client or the call, or
- the project's own SDK sends it by default (\`@anthropic-ai/sdk\` 1.0.0 and later, \`anthropic\` 2.0.0 and later, read from \`node_modules\` or the Python environment's files), the client is the Claude API's (\`Anthropic\`, \`AsyncAnthropic\`), and every place a header could be set for the request is seen.

When the version cannot be proved — no SDK found, an older one, a client passed in from elsewhere, headers built at run time, Bedrock or Vertex clients — nothing is reported.

## Why is this bad?
The request fails with a 400 on every call. Code written for the older API version keeps \`temperature=0.2\` through an SDK upgrade, and the upgrade is what breaks it.

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic(default_headers={"anthropic-version": "2026-10-21"})

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    temperature=0.2,
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({ defaultHeaders: { 'anthropic-version': '2026-10-21' } });

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  top_p: 0.9,
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic(default_headers={"anthropic-version": "2026-10-21"})

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    messages=[{"role": "user", "content": "Hello"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({ defaultHeaders: { 'anthropic-version': '2026-10-21' } });

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hello' }],
});
\`\`\`

## Fix safety
For \`temperature\`, \`top_p\` and \`top_k\` the fix removes the parameter. It is unsafe: the proof that the request goes out with this version rests on the SDK found on disk and the headers in the code (an \`ANTHROPIC_CUSTOM_HEADERS\` environment setting, for one, can change the header), and removing the parameter is one of two repairs — pinning an older \`anthropic-version\` keeps the sampling the code asked for. Blocks in messages get no fix.
`,
  },

  check(call, ctx) {
    if (call.method === 'batch' || call.framework) return;
    const version = apiVersionOf(call, ctx);
    if (!version || version.version !== API_VERSION) return;
    const under = `under \`anthropic-version: ${API_VERSION}\` (${version.why})`;
    for (const key of SAMPLING) {
      const e = paramEntry(call, key);
      if (!e?.keyAt || e.keyAt.file !== ctx.file) continue;
      const edits = ctx.edits.removeEntry(e.keyAt);
      const fix: Fix | undefined = edits ? { title: `Remove \`${key}\``, applicability: 'unsafe', edits } : undefined;
      ctx.report({ message: `\`${key}\` is rejected ${under}: the API answers 400 even at its default value. Remove it.`, at: e.keyAt, fix });
    }
    for (const block of prefixBlocks(call)) {
      if (block.section !== 'messages' || block.value.kind !== 'obj') continue;
      const type = getEntry(block.value, 'type');
      if (type?.kind !== 'str' || !type.complete) continue;
      if (block.role === 'assistant' && type.text === 'document' && type.at?.file === ctx.file) {
        ctx.report({ message: `A \`document\` block in an assistant message is rejected ${under}: the API answers 400. Send documents in user messages.`, at: type.at });
      }
      if (block.role === 'user' && type.text === 'text') {
        const citations = getEntryRecord(block.value, 'citations');
        if (citations?.value.kind === 'list' && citations.value.items.length > 0 && citations.keyAt?.file === ctx.file) {
          ctx.report({ message: `\`citations\` on a text block of a user message is rejected ${under}: the API answers 400. Drop the citations from user turns.`, at: citations.keyAt });
        }
      }
    }
  },
});

/** The `anthropic-version` the request is sent with, when it can be proved. */
function apiVersionOf(call: RequestCall, ctx: RuleContext): { version: string; why: string } | undefined {
  const header = call.apiVersionHeader;
  if (header) {
    // A client's header can be replaced by per-call headers we cannot see.
    if (header.on === 'client' && !call.headersKnown) return undefined;
    return header.value.kind === 'str' && header.value.complete ? { version: header.value.text, why: 'the header set in the code' } : undefined;
  }
  if (!call.headersKnown || !call.clientHeadersKnown) return undefined;
  const model = param(call, 'model');
  if (requestPlatform(call, model?.kind === 'str' ? model.text : undefined) !== 'anthropic') return undefined;
  const sdk = projectSdkFor(ctx.known, call.sdk);
  if (!sdk) return undefined;
  if (sdk.apiVersion) return { version: sdk.apiVersion, why: `the default of this project's ${sdk.package} ${sdk.version}` };
  const first = FIRST_SENDING[sdk.package];
  if (first && compareVersions(sdk.version, first) >= 0) return { version: API_VERSION, why: `the default of ${sdk.package} ${first} and later; this project has ${sdk.version}` };
  return undefined;
}
