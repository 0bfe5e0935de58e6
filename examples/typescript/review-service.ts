/*
 * Multi-tenant code-review service (Express): each team has its own review prompt and tool scopes.
 * Findings: the tool list is filtered by the caller's scopes and the system prompt is chosen by
 * the team's plan, so teams never share a cached prefix; every tool result gets its own cache
 * marker (five parallel reads are five markers); and the lint-explainer adds automatic caching
 * on top of four explicit markers.
 */
import Anthropic from '@anthropic-ai/sdk';
import express from 'express';
import { readFileSync } from 'node:fs';
import { ALL_TOOLS, runTool } from './review-tools';
import { requireTeam, type Team } from './auth';

const client = new Anthropic();
const app = express();
const ephemeral = { type: 'ephemeral' as const };
const PROMPTS: Record<string, string> = {
  free: readFileSync('prompts/review-free.md', 'utf8'),
  team: readFileSync('prompts/review-team.md', 'utf8'),
  enterprise: readFileSync('prompts/review-enterprise.md', 'utf8'),
};
const [GUIDE, GLOSSARY, EXAMPLES, RULES] = ['guide', 'glossary', 'examples', 'rules'].map((f) => readFileSync(`prompts/${f}.md`, 'utf8'));

app.post('/review', express.json(), requireTeam, async (req, res) => {
  const team = req.user as Team; // set by requireTeam
  const tools = ALL_TOOLS.filter((t) => team.scopes.includes(t.name));
  const system = [{ type: 'text' as const, text: PROMPTS[team.plan], cache_control: ephemeral }];
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: String(req.body.diff) }];
  for (;;) {
    const msg = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4096, tools, system, messages });
    messages.push({ role: 'assistant', content: msg.content });
    if (msg.stop_reason !== 'tool_use') return res.json(msg);
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of msg.content) {
      if (block.type === 'tool_use') {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: await runTool(block.name, block.input), cache_control: ephemeral });
      }
    }
    messages.push({ role: 'user', content: results });
  }
});

export async function explainLint(finding: string) {
  const msg = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    cache_control: { type: 'ephemeral' },
    system: [
      { type: 'text', text: GUIDE, cache_control: ephemeral },
      { type: 'text', text: GLOSSARY, cache_control: ephemeral },
      { type: 'text', text: EXAMPLES, cache_control: ephemeral },
      { type: 'text', text: RULES, cache_control: ephemeral },
    ],
    messages: [{ role: 'user', content: finding }],
  });
  return msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

app.listen(8080);
