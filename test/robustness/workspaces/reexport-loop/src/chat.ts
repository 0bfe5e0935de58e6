import Anthropic from '@anthropic-ai/sdk';
import { SUPPORT_PROMPT, MISSING } from './prompts';
import * as self from './chat';

const client = new Anthropic();

export const greeting = 'hello';

export async function chat(question: string) {
  return client.messages.create({
    model: 'claude-sonnet-4-6',
    max_tokens: 512,
    cache_control: { type: 'ephemeral' },
    system: `${SUPPORT_PROMPT} ${MISSING} ${self.greeting} Now: ${new Date().toISOString()}`, // expect: [volatile-system-prompt] `new Date()`
    messages: [{ role: 'user', content: question }],
  });
}
