/* Chats of the dashboard, one JSON file each. */
import type Anthropic from '@anthropic-ai/sdk';
import * as fs from 'node:fs/promises';

export interface Chat {
  id: string;
  messages: Anthropic.MessageParam[];
}

const file = (chatId: string) => `chats/${encodeURIComponent(chatId)}.json`;

export async function loadChat(chatId: string): Promise<Chat> {
  return JSON.parse(await fs.readFile(file(chatId), 'utf8')) as Chat;
}

/** Writes a temp file beside the chat, flushes it, and renames it over the chat: never half a file. */
export async function saveChat(chatId: string, messages: Anthropic.MessageParam[]): Promise<void> {
  const target = file(chatId);
  const temp = `${target}.${process.pid}.tmp`;
  const handle = await fs.open(temp, 'w');
  try {
    await handle.writeFile(JSON.stringify({ id: chatId, messages }));
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temp, target);
}
