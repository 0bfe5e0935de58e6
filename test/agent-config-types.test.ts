/**
 * Managed Agents agent-configuration types (`agents.create`'s `tools` and `multiagent`): read
 * from the SDK, kept apart from the Messages tool types, and reported as what they are when a
 * Messages request sends one in `tools`.
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/core/diagnostic';
import type { KnownNamesFile } from '../src/core/knownNames';
import { loadKnownNames } from '../src/core/knownNames';
import { readSdkNames, sdkPackageDir } from '../scripts/known-names/readSdk';
import { mergeSdkNames, missingFromTable } from '../scripts/known-names/update';
import data from '../src/data/known-names.json';
import { analyzer, ROOT } from './helpers';

const sdk = readSdkNames(sdkPackageDir(ROOT));
const known = loadKnownNames();
const table = data as unknown as KnownNamesFile;
const dir = path.join(ROOT, 'test', 'fixtures', '_agents');
const of = (ds: Diagnostic[], id: string) => ds.filter((d) => d.ruleId === id);

/** A Python request for `model`, with `tools` written as Python source. */
function request(model: string, tools = '[]'): string {
  return ['import anthropic', '', 'client = anthropic.Anthropic()', '', '', 'def ask(question: str):', `    return client.messages.create(model=${JSON.stringify(model)}, max_tokens=1024, tools=${tools}, messages=[{"role": "user", "content": question}])`, ''].join('\n');
}

describe('Managed Agents agent-configuration types', () => {
  it('are read from the SDK and are not Messages tool types', () => {
    const messagesTools = new Set([...sdk.toolTypes, ...sdk.betaToolTypes]);
    expect(sdk.agentConfigTypes).toContainEqual({ name: 'agent_toolset_20260401', field: 'tools' });
    expect(messagesTools.has('agent_toolset_20260401')).toBe(false);
    expect(known.toolTypes.has('agent_toolset_20260401')).toBe(false);
    expect(known.agentConfigTypes.get('agent_toolset_20260401')?.field).toBe('tools');
    for (const name of known.agentConfigTypes.keys()) expect(messagesTools.has(name), name).toBe(false);
  });

  it('the check and the merge keep them out of toolTypes', () => {
    const tainted: KnownNamesFile = { ...table, toolTypes: [...table.toolTypes, { name: 'agent_toolset_20260401', betas: ['managed-agents-2026-04-01'] }] };
    expect(missingFromTable(tainted, sdk)).toEqual({ agentConfigTypesInToolTypes: ['agent_toolset_20260401'] });
    const merged = mergeSdkNames(tainted, sdk);
    expect(merged.table.toolTypes.some((t) => t.name === 'agent_toolset_20260401')).toBe(false);
    expect(merged.notes.some((n) => n.startsWith('removed agent_toolset_20260401 from toolTypes'))).toBe(true);
    const lacking: KnownNamesFile = { ...table, agentConfigTypes: [] };
    expect(missingFromTable(lacking, sdk).agentConfigTypes).toContain('multiagent_20261001');
  });

  it('in a Messages request are reported as what they are, with where they belong and no fix', async () => {
    const a = await analyzer();
    const found = of(a.analyze(path.join(dir, 'tools.py'), request('claude-sonnet-4-6', '[{"type": "agent_toolset_20260401"}, {"type": "multiagent_20261001"}, {"type": "bash_20250124", "name": "bash"}]')).diagnostics, 'unknown-type');
    expect(found.map((d) => [d.severity, d.message, d.fix])).toEqual([
      ['error', "`agent_toolset_20260401` is a Managed Agents tool type: it goes in the `tools` of an agent (`client.beta.agents.create`), not in a Messages API request's `tools`. The Messages API rejects it with a 400.", undefined],
      ['error', "`multiagent_20261001` is a Managed Agents agent-configuration type: it goes in an agent's `multiagent` setting (`client.beta.agents.create`), not in a Messages API request's `tools`. The Messages API rejects it with a 400.", undefined],
    ]);
    // No other rule takes it for a Messages tool (beta-not-enabled used to ask for the managed-agents beta).
    expect(of(a.analyze(path.join(dir, 'tools.py'), request('claude-sonnet-4-6', '[{"type": "agent_toolset_20260401"}]')).diagnostics, 'beta-not-enabled')).toEqual([]);
  });

  it('declared in the configuration as a tool type, is not reported', async () => {
    const a = await analyzer();
    const withDeclared = loadKnownNames({ toolTypes: ['agent_toolset_20260401'] });
    const found = of(a.analyze(path.join(dir, 'tools.py'), request('claude-sonnet-4-6', '[{"type": "agent_toolset_20260401"}]'), undefined, { known: withDeclared }).diagnostics, 'unknown-type');
    expect(found).toEqual([]);
  });
});
