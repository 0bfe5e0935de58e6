import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

export async function step(history: Anthropic.MessageParam[]) {
  return client.beta.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    betas: ['prompt-caching-2024-07-31'], // expect: [stale-beta] `'prompt-caching-2024-07-31'`
    messages: history,
  });
}
