import { hasBreakpoint } from '../core/breakpoints';
import { systemRebuilt } from '../core/evidence';
import { defineRule } from '../core/rule';
import type { RuleContext } from '../core/rule';
import type { Loc } from '../core/span';
import { caches, inFile } from './util';

export default defineRule({
  meta: {
    id: 'system-rebuilt-in-loop',
    group: 'cache',
    severity: 'warning',
    fix: 'none',
    summary: 'The system prompt is rebuilt on every turn of the conversation loop from changing state.',
    docs: `## What it does
Finds a request that uses caching inside a conversation loop (or inside a function that runs once per turn: called in a loop, or registered as a graph node with \`add_node\`) whose \`system\` is given a new value on every turn from something that changes between turns: a loop variable, the agent's state, the plan or notes kept by the loop. A \`system\` reassigned to the same constant, or built only from values that stay the same for the whole loop (the function's parameters, the environment, names set before it such as a module's text read once), is not reported; data retrieved per request is \`dynamic-content-before-breakpoint\`. A clock or random part is \`volatile-system-prompt\`'s finding, and the rest of the value is still read here: a plan rebuilt next to a timestamp is reported by both. When the loop around the request only retries it (\`for attempt in range(3)\`) and changes nothing, the function around both is the per-turn one: its parameters that the turn loop fills with changing values (\`current_iteration=iteration + 1\`) are the inputs, also through a helper that builds the text. The message names the loop (its header and line) and the value rebuilt.

## Why is this bad?
\`system\` renders before all messages. When it changes between turns, the cached prefix ends at the first changed byte of the system prompt, and the whole history after it (every earlier turn, every tool result) is written to the cache again on each turn instead of being read: the longer the conversation, the more each turn costs. Keep \`system\` fixed and send the changing part as a message after the cached prefix (a short user-turn note such as \`[plan] ...\`, or a mid-conversation \`system\` message on models that support it).

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()
BASE = "You are a coding agent. Work in small steps and run the tests after each change."


def run(task, tools):
    messages = [{"role": "user", "content": task}]
    plan = "no plan yet"
    while True:
        system = f"{BASE}\\n\\nCurrent plan:\\n{plan}"
        resp = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=2048,
            system=[{"type": "text", "text": system, "cache_control": {"type": "ephemeral"}}],
            tools=tools,
            messages=messages,
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason != "tool_use":
            return resp
        plan = resp.content[0].text
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const BASE = readFileSync('prompts/agent.md', 'utf8');

export async function run(task: string, steps: string[]) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: task }];
  for (const step of steps) {
    const system = \`\${BASE}\\n\\nCurrent step: \${step}\`;
    const resp = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 2048,
      system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
      messages,
    });
    messages.push({ role: 'assistant', content: resp.content });
  }
}
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()
BASE = "You are a coding agent. Work in small steps and run the tests after each change."


def run(task, tools):
    messages = [{"role": "user", "content": task}]
    while True:
        resp = client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=2048,
            system=[{"type": "text", "text": BASE, "cache_control": {"type": "ephemeral"}}],
            tools=tools,
            messages=messages,
        )
        messages.append({"role": "assistant", "content": resp.content})
        if resp.stop_reason != "tool_use":
            return resp
        messages.append({"role": "user", "content": f"[plan]\\n{resp.content[0].text}"})
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

const client = new Anthropic();
const BASE = readFileSync('prompts/agent.md', 'utf8');

export async function run(task: string, steps: string[]) {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: task }];
  for (const step of steps) {
    messages.push({ role: 'user', content: \`Current step: \${step}\` });
    const resp = await client.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 2048,
      system: [{ type: 'text', text: BASE, cache_control: { type: 'ephemeral' } }],
      messages,
    });
    messages.push({ role: 'assistant', content: resp.content });
  }
}
\`\`\`
`,
  },

  check(call, ctx) {
    if (!caches(call) || !hasBreakpoint(call, ctx.view, ctx.textOf)) return;
    const r = systemRebuilt(call, ctx.view, ctx.textOf);
    if (!r) return;
    const at = inFile(ctx, r.at);
    if (!at) return;
    const inputs = r.inputs.length ? ` from values that change between turns (${r.inputs.map((n) => `\`${n}\``).join(', ')})` : ' from values that change between turns';
    const value = `\`${short(ctx.textOf(r.part ?? r.at))}\``;
    const where =
      r.how === 'loop'
        ? `on every turn of ${loopName(ctx, r.scope)}`
        : `in \`${ctx.view.enclosingFunction(call.at)?.name ?? 'this function'}\`, which runs on every turn${r.turnLoop ? ` of ${loopName(ctx, r.turnLoop)}` : ''},`;
    ctx.report({
      message: `\`system\` is rebuilt as ${value} ${where}${inputs}: the cached prefix breaks at the system prompt every turn, so the whole history after it is written again instead of read. Keep \`system\` fixed and send the changing part as a message after the cached prefix.`,
      at,
      related: r.part && r.part.file === ctx.file ? [{ at: r.part, message: 'the value rebuilt on every turn' }] : undefined,
    });
  },
});

/** Source text on one line, cut to a length a message can hold. */
function short(text: string, max = 60): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** `the \`while True\` loop at line 17`: the loop's header as written, and where it is. */
function loopName(ctx: RuleContext, loop: Loc): string {
  const header = ctx.textOf(loop).split('\n')[0].replace(/\s*[:{]\s*$/, '').trim();
  return `the \`${short(header, 40)}\` loop at ${ctx.lineRef(loop)}`;
}

