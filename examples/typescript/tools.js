// Tool implementations plus a docs-grounded helper.
// Findings: the docs listing is joined into the system prompt unsorted, and a server tool
// type is misdated.
import Anthropic from '@anthropic-ai/sdk';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';

const run = promisify(execFile);
const client = new Anthropic();
const RUNBOOKS = new URL('./runbooks/', import.meta.url).pathname;

export async function runTool(name, input) {
  switch (name) {
    case 'service_status': {
      const { stdout } = await run('acme', ['status', input.service, '--json']);
      return stdout;
    }
    case 'tail_logs': {
      const { stdout } = await run('acme', ['logs', input.service, '--lines', String(input.lines ?? 200)]);
      return stdout;
    }
    case 'rollback': {
      const { stdout } = await run('acme', ['rollback', input.service, '--to', input.release]);
      return stdout;
    }
    default:
      return `unknown tool ${name}`;
  }
}

export async function explainIncident(alertText) {
  const runbooks = readdirSync(RUNBOOKS).map((f) => readFileSync(RUNBOOKS + f, 'utf8'));
  const msg = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1500,
    system: [
      { type: 'text', text: 'You explain production alerts using the runbooks below and recent public incidents.' },
      { type: 'text', text: runbooks.join('\n\n---\n\n'), cache_control: { type: 'ephemeral' } },
    ],
    tools: [{ type: 'web_search_20250306', name: 'web_search', max_uses: 3 }],
    messages: [{ role: 'user', content: alertText }],
  });
  return msg.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}
