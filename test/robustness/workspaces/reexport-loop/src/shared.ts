export * from './prompts';
export const SUPPORT = 'You are a support agent for a bookshop. Answer briefly.';
