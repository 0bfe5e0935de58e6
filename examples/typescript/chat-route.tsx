/*
 * Dashboard chat (Next.js server component with a server action).
 * Findings: the history is cut to its last 10 messages before sending, a beta header
 * name is misspelled, and the cached system prompt is far below the model's minimum
 * cacheable length, so the cache_control marker caches nothing.
 */
import Anthropic from '@anthropic-ai/sdk';
import { loadChat, saveChat } from '@/lib/chat-store';
import { CHAT_PROMPT } from './prompts';

const DASHBOARD_TOOLS: Anthropic.Tool[] = [
  { name: 'service_status', description: "Current status of one of the customer's services.", input_schema: { type: 'object', properties: { service: { type: 'string' } }, required: ['service'] } },
];

const anthropic = new Anthropic({
  defaultHeaders: { 'anthropic-beta': 'token-efficient-tool-2025-02-19' },
});

export default async function DashboardChat({ chatId }: { chatId: string }) {
  const chat = await loadChat(chatId);

  async function send(formData: FormData) {
    'use server';
    const history = (await loadChat(chatId)).messages;
    history.push({ role: 'user', content: String(formData.get('message') ?? '') });
    const msg = await anthropic.messages.create({
      model: 'claude-sonnet-4-6',
      max_tokens: 1024,
      system: [{ type: 'text', text: CHAT_PROMPT, cache_control: { type: 'ephemeral' } }],
      tools: DASHBOARD_TOOLS,
      messages: history.slice(-10),
    });
    history.push({ role: 'assistant', content: msg.content });
    await saveChat(chatId, history);
  }

  return (
    <section className="chat">
      {chat.messages.slice(-20).map((m, i) => (
        <p key={i} className={m.role}>
          {typeof m.content === 'string' ? m.content : '[tool activity]'}
        </p>
      ))}
      <form action={send}>
        <input name="message" placeholder="Ask about your services" />
      </form>
    </section>
  );
}
