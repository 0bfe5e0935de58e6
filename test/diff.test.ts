/**
 * `prefixlint diff`: the engine's comparison of two request dumps (src/core/requestDiff.ts)
 * and the command that prints it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { diffRequests } from '../src/core/requestDiff';
import type { RequestDiff } from '../src/core/requestDiff';
import { textTokens } from '../src/core/tokens';
import { project, run, useCli } from './cli-harness';

useCli();
// Every test runs the CLI, several times; a busy machine makes that slow.
vi.setConfig({ testTimeout: 180_000 });

type Body = Record<string, unknown>;

const TOOLS = [
  { name: 'lookup_order', description: 'Find an order by id.', input_schema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] } },
  { name: 'refund', description: 'Refund an order.', input_schema: { type: 'object', properties: { id: { type: 'string' }, reason: { type: 'string' } } }, cache_control: { type: 'ephemeral' } },
];

/** A conversation as the SDK sends it: breakpoint on the last tool and on the last user turn. */
function body(over: { system?: string; turns?: string[]; last?: string; extra?: Body } = {}): Body {
  const turns = over.turns ?? ['Where is order 42?', 'It shipped on Monday.'];
  const messages: Body[] = turns.map((t, i) => ({ role: i % 2 ? 'assistant' : 'user', content: t }));
  messages.push({ role: 'user', content: [{ type: 'text', text: over.last ?? 'Can I get a refund?', cache_control: { type: 'ephemeral' } }] });
  return {
    model: 'claude-sonnet-4-6',
    max_tokens: 1024,
    tools: TOOLS,
    system: [{ type: 'text', text: over.system ?? 'You are the Acme support agent. Be brief — and kind.' }],
    messages,
    ...over.extra,
  };
}

/** What Python's json.dumps(body, sort_keys=True, indent=2) writes (ensure_ascii escapes too). */
function pythonDump(value: unknown): string {
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sortKeys) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Body)[k])])) : v;
  return JSON.stringify(sortKeys(value), null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function diff(a: Body | string, b: Body | string): RequestDiff {
  const r = diffRequests({ name: 'a.json', text: typeof a === 'string' ? a : JSON.stringify(a) }, { name: 'b.json', text: typeof b === 'string' ? b : JSON.stringify(b) });
  if ('error' in r) throw new Error(r.error);
  return r;
}

describe('diffRequests', () => {
  it('finds no difference between the SDK body and a sorted, indented, ASCII-escaped dump of it', () => {
    const r = diff(body(), pythonDump(body()));
    expect(r.difference).toBeUndefined();
    expect(r.breaksCache).toBe(false);
    expect(r.keyOrder).toBe('ignored');
    expect(r.sortedDump).toBe('b.json');
  });

  it('finds the first differing byte in the system prompt, inside the cached prefix', () => {
    const a = body({ system: 'You are the Acme support agent. Today is Monday.' });
    const b = body({ system: 'You are the Acme support agent. Today is Tuesday.' });
    const r = diff(a, b);
    expect(r.keyOrder).toBe('compared');
    expect(r.difference).toMatchObject({ path: 'system[0]', detail: 'system[0].text', reason: 'content' });
    // The byte offset counts the canonical rendering: both tools (without their markers), then the block.
    const tools = TOOLS.map(({ cache_control: _cc, ...t }) => JSON.stringify(t)).join('');
    const block = JSON.stringify({ type: 'text', text: 'You are the Acme support agent. Today is Monday.' });
    const inBlock = block.indexOf('Monday');
    expect(r.difference?.offsetInBlock).toBe(inBlock);
    expect(r.difference?.byte).toBe(Buffer.byteLength(tools) + inBlock);
    expect(r.difference?.before).toContain('Monday');
    expect(r.difference?.after).toContain('Tuesday');
    expect(r.lastBreakpoint).toBe('messages[2].content[0]');
    expect(r.breaksCache).toBe(true);
    expect(r.tokensLost).toBeGreaterThan(textTokens('Tuesday.'));
    expect(r.tokensLost).toBeLessThanOrEqual(r.tokensAfter);
  });

  it('counts bytes in UTF-8 and follows the path into nested values', () => {
    const a = body();
    const b = structuredClone(a);
    ((b.tools as Body[])[1].input_schema as { properties: Body }).properties.reason = { type: 'string', enum: ['late', 'broken'] };
    const r = diff(a, b);
    expect(r.difference?.path).toBe('tools[1]');
    expect(r.difference?.detail).toBe('tools[1].input_schema.properties.reason');
    const sys = body({ system: 'Café — ünïcode. X' });
    const sys2 = body({ system: 'Café — ünïcode. Y' });
    const u = diff(sys, sys2).difference!;
    expect(u.offsetInBlock).toBe(Buffer.byteLength(JSON.stringify({ type: 'text', text: 'Café — ünïcode. ' })) - '"}'.length);
  });

  it('lets the cache stand when the difference comes after the last breakpoint', () => {
    const a = body({ turns: ['Where is order 42?', 'It shipped on Monday.'], last: 'Thanks!' });
    const b = structuredClone(a);
    (b.messages as Body[]).push({ role: 'assistant', content: 'You are welcome.' }, { role: 'user', content: 'Bye' });
    const r = diff(a, b);
    expect(r.difference?.path).toBe('messages[3]');
    expect(r.breaksCache).toBe(false);
    expect(r.tokensLost).toBe(0);
    expect(r.tokensAfter).toBeGreaterThan(0);
  });

  it('moves a breakpoint without a difference: markers are not part of the cached bytes', () => {
    const a = body();
    const b = structuredClone(a);
    delete ((b.messages as Body[])[2].content as Body[])[0].cache_control;
    (b.messages as Body[]).push({ role: 'assistant', content: 'Sure.' }, { role: 'user', content: [{ type: 'text', text: 'Thanks', cache_control: { type: 'ephemeral' } }] });
    const r = diff(a, b);
    expect(r.difference?.path).toBe('messages[3]');
    expect(r.breaksCache).toBe(false);
  });

  it('with a top-level cache_control, all of the first request is the prefix; without markers, nothing is', () => {
    const strip = (x: Body) => JSON.parse(JSON.stringify(x).replace(/,"cache_control":\{"type":"ephemeral"\}/g, '')) as Body;
    const a = strip(body());
    const b = strip(body({ last: 'Can I get a refund, please?' }));
    const none = diff(a, b);
    expect(none.lastBreakpoint).toBeUndefined();
    expect(none.breaksCache).toBe(false);
    const auto = diff({ ...a, cache_control: { type: 'ephemeral' } }, { ...b, cache_control: { type: 'ephemeral' } });
    expect(auto.automatic).toBe(true);
    expect(auto.difference?.path).toBe('messages[2].content[0]');
    expect(auto.breaksCache).toBe(true);
    expect(auto.tokensLost).toBeGreaterThan(0);
    // A conversation that only grows keeps the automatic prefix.
    const grown = structuredClone(a);
    (grown.messages as Body[]).push({ role: 'assistant', content: 'Yes.' });
    expect(diff({ ...a, cache_control: { type: 'ephemeral' } }, { ...grown, cache_control: { type: 'ephemeral' } }).breaksCache).toBe(false);
  });

  it('knows what else invalidates: the model, tool_choice (from the messages on); not max_tokens or betas', () => {
    const model = diff(body(), body({ extra: { model: 'claude-opus-4-7' } }));
    expect(model.difference).toMatchObject({ path: 'model', reason: 'model', byte: 0 });
    expect(model.breaksCache).toBe(true);
    const choice = diff(body(), body({ extra: { tool_choice: { type: 'any' } } }));
    expect(choice.difference).toMatchObject({ path: 'tool_choice', reason: 'parameter' });
    expect(choice.breaksCache).toBe(true);
    const other = diff(body(), body({ extra: { max_tokens: 64, betas: ['context-management-2025-06-27'], metadata: { user_id: 'u1' } } }));
    expect(other.difference).toBeUndefined();
    expect(other.otherChanges).toEqual(['betas', 'max_tokens', 'metadata']);
  });

  it('compares key order when neither dump is sorted: it changes the bytes (tool_use input)', () => {
    const withInput = (input: Body) => {
      const b = body();
      (b.messages as Body[]).splice(1, 1, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'refund', input }] });
      return b;
    };
    const r = diff(withInput({ id: '42', reason: 'late' }), withInput({ reason: 'late', id: '42' }));
    expect(r.keyOrder).toBe('compared');
    expect(r.difference?.detail).toBe('messages[1].content[0].input');
    expect(r.breaksCache).toBe(true);
  });

  it('reads wrapped and extended bodies, and names what it cannot read', () => {
    expect(diff({ custom_id: 'r1', params: body() }, { ...body(), extra_body: { service_tier: 'auto' } }).difference).toBeUndefined();
    expect(diff(body({ system: 'x' }), { ...body(), system: 'x' }).difference).toBeUndefined();
    const bad = diffRequests({ name: 'a.json', text: '{"model": ' }, { name: 'b.json', text: '{}' });
    expect('error' in bad && bad.error).toMatch(/^a\.json: not valid JSON/);
    const notBody = diffRequests({ name: 'a.json', text: JSON.stringify(body()) }, { name: 'b.json', text: '[1, 2]' });
    expect('error' in notBody && notBody.error).toBe('b.json: not a JSON object');
  });
});

describe('prefixlint diff', () => {
  const a = body({ system: 'You are the Acme support agent. Today is Monday.' });
  const b = body({ system: 'You are the Acme support agent. Today is Tuesday.' });

  it('prints where the cached prefix breaks and exits 1', () => {
    const dir = project({ 'a.json': JSON.stringify(a, null, 2), 'b.json': pythonDump(b) });
    const r = run(dir, ['diff', 'a.json', 'b.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^First difference in render order at byte [\d,]+: system\[0\], at system\[0\]\.text, byte \d+ of the block\.$/);
    expect(lines[1]).toMatch(/^ {2}a\.json: .*Monday/);
    expect(lines[2]).toMatch(/^ {2}b\.json: .*Tuesday/);
    expect(lines[3]).toMatch(/^It is inside the cached prefix \(last breakpoint: messages\[2\]\.content\[0\]\): about [\d,]+ tokens from there on are no longer read from the cache \(estimate\)\.$/);
    expect(r.stdout).toContain('Key order is not compared: b.json has sorted keys');
    const asJson = run(dir, ['diff', '--format', 'json', 'a.json', 'b.json']);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout)).toEqual(diff(JSON.stringify(a, null, 2), pythonDump(b)));
  });

  it('exits 0 when the prefix is the same, and 2 naming a missing or unreadable dump', () => {
    const dir = project({ 'a.json': JSON.stringify(a), 'same.json': pythonDump(a), 'broken.json': '{"messages": [' });
    const same = run(dir, ['diff', 'a.json', 'same.json']);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^No difference in tools, system or messages: the cached prefix is reused\./);
    for (const [other, message] of [
      ['missing.json', /^prefixlint: error: missing\.json: no such file\n$/],
      ['broken.json', /^prefixlint: error: broken\.json: not valid JSON \(.+\)\n$/],
    ] as const) {
      const r = run(dir, ['diff', 'a.json', other]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe('');
    }
    expect(run(dir, ['diff', 'a.json']).code).toBe(2);
    expect(fs.existsSync(path.join(dir, 'a.json'))).toBe(true);
  });
});
