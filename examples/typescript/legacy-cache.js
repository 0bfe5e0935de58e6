// Release-notes writer from the 2024 prompt-caching beta days (plain Node script).
// Findings: the old promptCaching namespace, GA beta names still sent, `betas` passed to the
// non-beta client, an empty text block added only to carry a marker, a 1h marker after a
// default (5m) one, and suppressions that silence nothing.
import Anthropic from '@anthropic-ai/sdk';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const client = new Anthropic({ defaultHeaders: { 'anthropic-beta': 'prompt-caching-2024-07-31' } });
const STYLE_GUIDE = readFileSync('docs/release-notes-style.md', 'utf8');
const PRODUCT_GLOSSARY = readFileSync('docs/glossary.md', 'utf8');

async function draftNotes(log) {
  const msg = await client.beta.promptCaching.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 2048,
    system: [{ type: 'text', text: STYLE_GUIDE, cache_control: { type: 'ephemeral' } }],
    messages: [{ role: 'user', content: `Write release notes for these commits:\n${log}` }],
  });
  return msg.content[0].text;
}

async function polish(draft) {
  const msg = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 2048,
    betas: ['extended-cache-ttl-2025-04-11'],
    system: [
      { type: 'text', text: STYLE_GUIDE, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: PRODUCT_GLOSSARY, cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    messages: [{ role: 'user', content: `Tighten this draft and fix product names:\n${draft}` }],
  });
  return msg.content[0].text;
}

async function headline(notes) {
  // prefixlint-disable-next-line volatile-system-prompt -- the build date was removed in v2
  const msg = await client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 100,
    system: [
      { type: 'text', text: STYLE_GUIDE },
      { type: 'text', text: '', cache_control: { type: 'ephemeral' } },
    ],
    messages: [{ role: 'user', content: `One-line headline for:\n${notes}` }],
  });
  return msg.content[0].text;
}

const range = process.argv[2] ?? 'HEAD~50..HEAD';
const log = execFileSync('git', ['log', '--oneline', range], { encoding: 'utf8' });
const notes = await polish(await draftNotes(log)); // prefixlint-disable-line unknown-betas
console.log(`# ${await headline(notes)}\n\n${notes}`);
