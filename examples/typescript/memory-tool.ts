/*
 * Team assistant with the memory tool and server-side compaction (Node service).
 * Findings: the memory handler resolves the model's path against its root without a
 * containment check, memory files and the session are written in place, recalled facts
 * go into the cached system prompt, the system prompt is rebuilt from the plan each turn,
 * the compaction trigger is below the minimum, and only the reply text is kept.
 */
import Anthropic from '@anthropic-ai/sdk';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { searchMemories } from './recall';

const client = new Anthropic();
const MEMORY_ROOT = process.env.MEMORY_DIR ?? path.join(__dirname, 'memories');
const INSTRUCTIONS = fs.readFileSync(path.join(__dirname, 'assistant.md'), 'utf8');
const SESSION_FILE = path.join(__dirname, 'session.json');

type MemoryInput = { command: string; path: string; file_text?: string; old_str?: string; new_str?: string };

export function handleMemory(input: MemoryInput): string {
  const target = path.resolve(MEMORY_ROOT, input.path);
  switch (input.command) {
    case 'view':
      return fs.statSync(target).isDirectory() ? fs.readdirSync(target).sort().join('\n') : fs.readFileSync(target, 'utf8');
    case 'create':
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, input.file_text ?? '');
      return `created ${input.path}`;
    case 'str_replace': {
      const text = fs.readFileSync(target, 'utf8');
      fs.writeFileSync(target, text.replace(input.old_str ?? '', input.new_str ?? ''));
      return 'edited';
    }
    case 'delete':
      fs.rmSync(target, { recursive: true });
      return 'deleted';
    default:
      return `unsupported command: ${input.command}`;
  }
}

function saveSession(messages: Anthropic.Beta.BetaMessageParam[]) {
  fs.writeFileSync(SESSION_FILE, JSON.stringify(messages));
}

export async function quickAnswer(userId: string, question: string): Promise<string> {
  const facts = await searchMemories(userId, question);
  const msg = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    system: [{ type: 'text', text: `${INSTRUCTIONS}\nKnown about the user: ${facts}`, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: question }],
  });
  return msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

export async function run(task: string): Promise<Anthropic.Beta.BetaMessageParam[]> {
  const messages: Anthropic.Beta.BetaMessageParam[] = [{ role: 'user', content: task }];
  let plan = 'no plan yet';
  for (;;) {
    const system = [INSTRUCTIONS, 'Current plan:', plan].join('\n\n');
    const msg = await client.beta.messages.create({
      model: 'claude-opus-4-7',
      max_tokens: 4096,
      betas: ['context-management-2025-06-27', 'compact-2026-01-12'],
      system: [{ type: 'text', text: system, cache_control: { type: 'ephemeral' } }],
      tools: [{ type: 'memory_20250818', name: 'memory' }],
      context_management: { edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: 25000 } }] },
      messages,
    });
    if (msg.stop_reason !== 'tool_use') {
      messages.push({ role: 'assistant', content: msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('') });
      saveSession(messages);
      return messages;
    }
    messages.push({ role: 'assistant', content: msg.content });
    const results: Anthropic.Beta.BetaToolResultBlockParam[] = [];
    for (const block of msg.content) {
      if (block.type === 'tool_use') {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: handleMemory(block.input as MemoryInput) });
      }
    }
    messages.push({ role: 'user', content: results });
    plan = msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('') || plan;
    saveSession(messages);
  }
}
