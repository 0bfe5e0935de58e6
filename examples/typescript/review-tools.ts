/* The review service's tools and what they do. */
import type Anthropic from '@anthropic-ai/sdk';
import { readFileSync } from 'node:fs';

export const ALL_TOOLS: Anthropic.Tool[] = [
  { name: 'read_file', description: 'Read a file of the repository under review.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'run_linter', description: 'Run the team linter on one file.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
];

export async function runTool(name: string, input: unknown): Promise<string> {
  const { path } = input as { path: string };
  if (name === 'read_file') return readFileSync(path, 'utf8');
  return `no linter configured for ${path}`;
}
