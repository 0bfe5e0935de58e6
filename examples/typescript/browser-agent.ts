/*
 * Browser agent that books meeting rooms through the intranet UI (Playwright + computer use).
 * Findings: only the last four screenshots are kept, so the cached prefix moves every turn;
 * old tool output is removed by filtering out tool_result blocks (their tool_use stays); the
 * history is cut on every turn; and the page summarizer puts its breakpoint on the block
 * with the page URL and time.
 */
import Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright';
import { performAction } from './browser-actions';

const client = new Anthropic();
const BOOKING_GUIDE = readFileSync(new URL('./booking-guide.md', import.meta.url), 'utf8');
const tools: Anthropic.Beta.BetaToolUnion[] = [
  { type: 'computer_20250124', name: 'computer', display_width_px: 1280, display_height_px: 800 },
];

function keepRecentScreenshots(messages: Anthropic.Beta.BetaMessageParam[], keep: number) {
  let seen = 0;
  for (const message of [...messages].reverse()) {
    if (!Array.isArray(message.content)) continue;
    message.content = message.content.filter((block) => block.type !== 'image' || ++seen <= keep);
  }
}

function dropOldToolOutput(messages: Anthropic.Beta.BetaMessageParam[]) {
  for (const message of messages.slice(0, -4)) {
    if (Array.isArray(message.content)) message.content = message.content.filter((b) => b.type !== 'tool_result');
  }
  return messages;
}

export async function bookRoom(page: Page, request: string) {
  let messages: Anthropic.Beta.BetaMessageParam[] = [{ role: 'user', content: `${BOOKING_GUIDE}\n\n${request}` }];
  for (let step = 0; step < 50; step++) {
    keepRecentScreenshots(messages, 4);
    const msg = await client.beta.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 2048,
      betas: ['computer-use-2025-01-24'],
      tools,
      messages,
      cache_control: { type: 'ephemeral' },
    });
    messages.push({ role: 'assistant', content: msg.content });
    if (msg.stop_reason !== 'tool_use') return msg;
    const results: Anthropic.Beta.BetaToolResultBlockParam[] = [];
    for (const block of msg.content) {
      if (block.type === 'tool_use') {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: await performAction(page, block.input) });
      }
    }
    messages.push({ role: 'user', content: results });
    messages = dropOldToolOutput(messages);
    messages = [messages[0], ...messages.slice(-30)];
  }
  throw new Error('booking did not finish in 50 steps');
}

export async function summarizePage(page: Page): Promise<string> {
  const shot = (await page.screenshot()).toString('base64');
  const msg = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 512,
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: BOOKING_GUIDE },
          { type: 'text', text: `Page ${page.url()} at ${new Date().toISOString()}`, cache_control: { type: 'ephemeral' } },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: shot } },
          { type: 'text', text: 'Summarize the free rooms shown on this page.' },
        ],
      },
    ],
  });
  return msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}
