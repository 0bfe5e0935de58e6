export * from './shared';
export * from './prompts';
export { SUPPORT as SUPPORT_PROMPT } from './index';
