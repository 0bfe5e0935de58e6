export * from './prompts';
export { SUPPORT } from './shared';
