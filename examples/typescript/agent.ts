/*
 * Deploy agent: loads tool definitions from ./tools and runs a tool-use loop.
 * Findings: the system prompt embeds the time, the tool list comes in readdirSync order,
 * and context editing is enabled without its beta.
 */
import Anthropic from '@anthropic-ai/sdk';
import fs from 'node:fs';
import path from 'node:path';
import { AGENT_PROMPT } from './prompts';
import { runTool } from './tools.js';

const client = new Anthropic();
const TOOLS_DIR = path.join(__dirname, 'tools');

const tools: Anthropic.Tool[] = fs.readdirSync(TOOLS_DIR).map((file) => JSON.parse(fs.readFileSync(path.join(TOOLS_DIR, file), 'utf8')));

export async function runAgent(task: string): Promise<string> {
  const messages: Anthropic.Beta.BetaMessageParam[] = [{ role: 'user', content: task }];
  for (let step = 0; step < 25; step++) {
    const msg = await client.beta.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 4096,
      cache_control: { type: 'ephemeral' },
      system: `${AGENT_PROMPT}\nCurrent time: ${new Date().toISOString()}`,
      tools,
      context_management: { edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 4 } }] },
      messages,
    });
    messages.push({ role: 'assistant', content: msg.content });
    if (msg.stop_reason !== 'tool_use') {
      return msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    }
    const results: Anthropic.Beta.BetaToolResultBlockParam[] = [];
    for (const block of msg.content) {
      if (block.type === 'tool_use') {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: await runTool(block.name, block.input) });
      }
    }
    messages.push({ role: 'user', content: results });
  }
  throw new Error('agent did not finish in 25 steps');
}
