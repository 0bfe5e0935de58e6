// Weekly changelog writer, half-way through a migration to the 2026-10-21 API version.
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic({ defaultHeaders: { 'anthropic-version': '2026-10-21' } });

const MODELS = {
  writer: 'claude-opus-4-5',
  desktop: 'claude-sonnet-5-5',
} as const;

// Shared by every call of the writer since the 0.x SDK.
const SAMPLING = { top_p: 0.9 };

export async function changelog(commits: string[]): Promise<string> {
  const msg = await client.messages.create({
    model: MODELS.writer,
    max_tokens: 2048,
    ...SAMPLING,
    messages: [{ role: 'user', content: `Write the changelog for these commits:\n${commits.join('\n')}` }],
  });
  return msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
}

export async function screenshotRelease(url: string) {
  return client.beta.messages.create({
    model: MODELS.desktop,
    max_tokens: 4096,
    betas: ['computer-use-2025-11-24'],
    tools: [{ type: 'computer_20251124', name: 'computer', display_width_px: 1280, display_height_px: 800 }],
    messages: [{ role: 'user', content: `Open ${url} and take a screenshot of the release banner.` }],
  });
}
