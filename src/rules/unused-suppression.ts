import { defineRule } from '../core/rule';

/**
 * Its findings come from the suppression pass that the analyzer runs after every other rule
 * (`suppressFindings` in core/suppress.ts), not from a check of its own: only then is it known
 * what each suppression comment silenced.
 */
const rule = defineRule({
  meta: {
    id: 'unused-suppression',
    group: 'api',
    severity: 'warning',
    fix: 'sometimes',
    summary: 'A suppression comment that silences nothing, names an unknown rule, or does not parse.',
    docs: `## What it does
Checks every suppression comment (\`# prefixlint: disable=...\`, \`disable-next-line=\`, \`disable-file=\` in Python; \`// prefixlint-disable-line ...\`, \`-disable-next-line\`, \`-disable-file\` in TypeScript and JavaScript, also in \`/* */\` and JSX \`{/* */}\`) and reports one that silences no finding, names a rule that does not exist (or a rule group, which a suppression cannot name), names a rule twice, or is malformed.

Only rules that ran are judged: a suppression of a rule that \`--select\`, \`--ignore\` or the configuration turned off is left alone.

## Why is this bad?
A suppression outlives the finding it was written for. Once the code is fixed it silences nothing, and later it hides a new, real finding on that line without anyone deciding so. A misspelled rule id silences nothing from the start, so the finding it was meant for is still reported (or, worse, someone believes it is handled).

## Example
\`\`\`python
import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a support agent."  # prefixlint: disable=volatile-system-prompt -- the clock was removed in March

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=SYSTEM,
    messages=[{"role": "user", "content": "Where is my order?"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

// prefixlint-disable-next-line volatile-tool
await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Where is my order?' }],
});
\`\`\`

## Use instead
\`\`\`python
import anthropic

client = anthropic.Anthropic()
SYSTEM = "You are a support agent."

response = client.messages.create(
    model="claude-sonnet-4-6",
    max_tokens=1024,
    system=SYSTEM,
    messages=[{"role": "user", "content": "Where is my order?"}],
)
\`\`\`

\`\`\`ts
import Anthropic from '@anthropic-ai/sdk';

const client = new Anthropic();

await client.messages.create({
  model: 'claude-sonnet-4-6',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Where is my order?' }],
});
\`\`\`

## Fix safety
The fix removes the comment (the whole line when the comment is alone on it), or only the useless names when the comment names other rules that it does silence. It is safe: what it removes silences nothing, so the findings stay the same. A malformed comment gets no fix, since what it was meant to say is unclear.
`,
  },
});

export default rule;
