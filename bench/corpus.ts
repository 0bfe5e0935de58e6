/**
 * A deterministic corpus of agent code for the benchmarks: Python and TypeScript/JavaScript
 * projects of the kinds in test/fixtures and examples/ (agents with tool loops, chat routes,
 * batch jobs, prompt and tool modules imported across files, React components, plain helper
 * modules without any API call), scaled to a target file count and size.
 *
 * Everything comes from one seeded PRNG: the same seed gives the same bytes on every machine.
 * About a quarter of the request call sites carry one of the mistakes the rules look for (a
 * clock in the system prompt, `messages[-N:]`, an unsorted `json.dumps` in tools, a misspelled
 * beta, ...), so the rules have work to do; the rest is clean code.
 */

// ---------------------------------------------------------------------------------------------
// Randomness
// ---------------------------------------------------------------------------------------------

/** sfc32: small, fast, good enough, and the same in every JS engine. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    this.a >>>= 0;
    this.b >>>= 0;
    this.c >>>= 0;
    this.d >>>= 0;
    let t = (this.a + this.b) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.d = (this.d + 1) | 0;
    t = (t + this.d) | 0;
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [number, T]>): T {
    const total = items.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1][1];
  }

  /** A log-normal sample with the given median (sigma in log space). */
  logNormal(median: number, sigma: number): number {
    const u = Math.max(1e-12, this.next());
    const v = this.next();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return median * Math.exp(sigma * z);
  }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------------------------

const NOUNS = [
  'order', 'invoice', 'ticket', 'customer', 'document', 'report', 'summary', 'shipment', 'refund', 'account',
  'message', 'session', 'article', 'contract', 'claim', 'payment', 'product', 'review', 'incident', 'alert',
  'note', 'task', 'lead', 'quote', 'policy', 'booking', 'profile', 'record', 'snippet', 'chunk',
];
const VERBS = ['load', 'fetch', 'build', 'parse', 'format', 'score', 'rank', 'filter', 'merge', 'validate', 'render', 'collect', 'normalize', 'group', 'summarize', 'export'];
const ADJS = ['pending', 'recent', 'active', 'open', 'flagged', 'archived', 'priority', 'stale', 'verified', 'draft'];
const FIELDS = ['status', 'title', 'email', 'amount', 'created_at', 'owner', 'region', 'priority', 'tags', 'body', 'score', 'currency'];
const DOMAINS = ['support', 'billing', 'research', 'legal', 'sales', 'devops', 'onboarding', 'analytics', 'hr', 'security', 'compliance', 'marketing', 'logistics', 'finance', 'docs', 'coding'];
const MODELS = ['claude-sonnet-4-6', 'claude-opus-4-7', 'claude-haiku-4-5', 'claude-haiku-4-5-20251001', 'claude-opus-4-8'];
const GOOD_BETAS = ['context-management-2025-06-27', 'interleaved-thinking-2025-05-14', 'token-efficient-tools-2025-02-19', 'output-128k-2025-02-19', 'files-api-2025-04-14', 'code-execution-2025-05-22', 'mcp-client-2025-11-20'];
const BAD_BETAS = ['context-management-2025-06-28', 'interleaved-thinking-2025-04-14', 'token-efficient-tool-2025-02-19', 'files-api-2025-14-04', 'prompt-caching-2024-07-13'];
const PROSE = [
  'Answer in two short paragraphs.', 'Cite the article you used.', 'Never promise a delivery date.', 'Ask one clarifying question when the request is ambiguous.',
  'Use the tools before you answer questions about accounts.', 'Keep a neutral, friendly tone.', 'Do not reveal internal notes to the customer.',
  'Summaries use past tense and name the owner of each action item.', 'Prefer bullet points for lists of three or more items.',
  'When a tool fails, say so and offer to escalate.', 'Quote numbers exactly as they appear in the data.', 'Reply in the language of the user.',
  'Flag anything that looks like personal data.', 'Stop after the final answer; do not add a sign-off.', 'Return JSON only when the user asks for it.',
];

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

function camel(...parts: string[]): string {
  return parts.map((p, i) => (i ? cap(p) : p)).join('').replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
}

function snake(...parts: string[]): string {
  return parts.join('_');
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

export type Lang = 'python' | 'typescript' | 'tsx' | 'javascript' | 'jsx';

const EXT: Record<Lang, string> = { python: '.py', typescript: '.ts', tsx: '.tsx', javascript: '.js', jsx: '.jsx' };

export interface CorpusFile {
  /** Relative path with forward slashes. */
  path: string;
  text: string;
}

export interface CorpusOptions {
  seed: number;
  files: number;
  /** Target total size in bytes (reached within a few percent). */
  bytes: number;
}

/** Per-file generation state: the module's known names and which mistakes it may contain. */
class Gen {
  readonly lines: string[] = [];
  size = 0;
  counter = 0;

  constructor(
    readonly rng: Rng,
    readonly lang: Lang,
    /** Probability that a request call site carries a mistake. */
    readonly mistakeRate: number,
  ) {}

  get py(): boolean {
    return this.lang === 'python';
  }

  get typed(): boolean {
    return this.lang === 'typescript' || this.lang === 'tsx';
  }

  emit(text: string): void {
    this.lines.push(text);
    this.size += text.length + 1;
  }

  id(base: string): string {
    return `${base}${++this.counter}`;
  }

  prose(min: number, max: number): string {
    const n = this.rng.int(min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.rng.pick(PROSE));
    return out.join(' ');
  }

  get text(): string {
    return this.lines.join('\n') + '\n';
  }
}

// ---- Python ---------------------------------------------------------------------------------

function pyHeader(g: Gen, opts: { api: boolean; importsFrom?: string; domain: string }): void {
  const r = g.rng;
  g.emit(`"""${cap(opts.domain)} ${r.pick(['assistant', 'agent', 'pipeline', 'service', 'worker'])}: ${g.prose(1, 2)}"""`);
  g.emit('from __future__ import annotations');
  g.emit('');
  const std = ['import json', 'import logging', 'import os', 'import time', 'from dataclasses import dataclass, field', 'from datetime import datetime, timezone', 'from typing import Any, Iterable'];
  for (const s of std) if (r.chance(0.75) || s.includes('dataclass') || s.includes('datetime') || s.includes('json') || s.includes('typing')) g.emit(s);
  if (opts.api) {
    g.emit('');
    g.emit('import anthropic');
    if (opts.importsFrom) g.emit(`from .${opts.importsFrom} import SYSTEM_PROMPT, TOOLS, STYLE_GUIDE`);
  }
  g.emit('');
  g.emit('log = logging.getLogger(__name__)');
  if (opts.api) {
    g.emit(r.pick(['client = anthropic.Anthropic()', 'client = anthropic.Anthropic(max_retries=3)', 'client = anthropic.Anthropic(timeout=60.0)']));
    g.emit(`MODEL = "${r.pick(MODELS)}"`);
    g.emit(`MAX_HISTORY = ${r.int(6, 60)}`);
    if (!opts.importsFrom) {
      g.emit(`SYSTEM_PROMPT = """You are the ${opts.domain} assistant for Acme. ${g.prose(2, 6)}"""`);
      g.emit(`STYLE_GUIDE = "${g.prose(1, 3)}"`);
      g.emit('TOOLS: list[dict[str, Any]] = []');
    }
  }
  g.emit('');
}

function pyToolDict(g: Gen, name: string, indent = ''): string[] {
  const r = g.rng;
  const props = Array.from({ length: r.int(1, 4) }, () => r.pick(FIELDS));
  const uniq = [...new Set(props)];
  return [
    `${indent}{`,
    `${indent}    "name": "${name}",`,
    `${indent}    "description": "${cap(r.pick(VERBS))} ${r.pick(ADJS)} ${r.pick(NOUNS)}s. ${r.pick(PROSE)}",`,
    `${indent}    "input_schema": {`,
    `${indent}        "type": "object",`,
    `${indent}        "properties": {${uniq.map((p) => `"${p}": {"type": "${r.pick(['string', 'integer', 'boolean'])}", "description": "The ${p.replace('_', ' ')}"}`).join(', ')}},`,
    `${indent}        "required": [${uniq.slice(0, r.int(1, uniq.length)).map((p) => `"${p}"`).join(', ')}],`,
    `${indent}    },`,
    `${indent}},`,
  ];
}

function pyToolsModule(g: Gen, domain: string): void {
  const r = g.rng;
  g.emit(`"""Prompts and tool definitions for the ${domain} agents."""`);
  g.emit('import json');
  g.emit('from typing import Any');
  g.emit('');
  g.emit(`SYSTEM_PROMPT = """You are the ${domain} assistant for Acme.`);
  for (let i = 0; i < r.int(3, 12); i++) g.emit(`- ${r.pick(PROSE)}`);
  g.emit('"""');
  g.emit(`STYLE_GUIDE = "${g.prose(2, 4)}"`);
  g.emit('');
  g.emit('TOOLS: list[dict[str, Any]] = [');
  for (let i = 0; i < r.int(2, 7); i++) for (const l of pyToolDict(g, snake(r.pick(VERBS), r.pick(NOUNS), String(i)), '    ')) g.emit(l);
  g.emit(']');
  g.emit('');
}

/** Statements of a function body at an indent, with nested blocks up to `depth`. */
function pyStatements(g: Gen, indent: string, vars: string[], depth: number, count: number): void {
  const r = g.rng;
  for (let i = 0; i < count; i++) {
    const v = g.id(r.pick(['value', 'item', 'row', 'total', 'key', 'entry', 'result', 'batch']));
    const src = r.pick(vars);
    const kind = depth > 0 ? r.int(0, 9) : r.int(0, 5);
    switch (kind) {
      case 0:
        g.emit(`${indent}${v} = ${src}.get("${r.pick(FIELDS)}", ${r.pick(['None', '0', '""', '[]'])}) if isinstance(${src}, dict) else ${src}`);
        vars.push(v);
        break;
      case 1:
        g.emit(`${indent}${v} = [x for x in ${src} if x] if isinstance(${src}, list) else []`);
        vars.push(v);
        break;
      case 2:
        g.emit(`${indent}log.debug("${r.pick(VERBS)} %s (%d)", ${src}, len(str(${src})))`);
        break;
      case 3:
        g.emit(`${indent}${v} = f"{${src}!r}:${r.pick(FIELDS)}:{len(str(${src})) * ${r.int(2, 9)}}"`);
        vars.push(v);
        break;
      case 4:
        g.emit(`${indent}${v} = {"id": ${src}, "${r.pick(FIELDS)}": ${r.int(0, 999)}, "${r.pick(FIELDS)}": "${r.pick(ADJS)}"}`);
        vars.push(v);
        break;
      case 5:
        g.emit(`${indent}${v} = sum(len(str(x)) for x in (${src} or [])) + ${r.int(1, 50)}`);
        vars.push(v);
        break;
      case 6:
      case 7: {
        g.emit(`${indent}if ${src} ${r.pick(['is None', 'is not None', '== 0', '> 3', 'in ("a", "b")'])}:`);
        pyStatements(g, indent + '    ', [...vars], depth - 1, r.int(1, 3));
        if (r.chance(0.5)) {
          g.emit(`${indent}else:`);
          pyStatements(g, indent + '    ', [...vars], depth - 1, r.int(1, 2));
        }
        break;
      }
      case 8: {
        const x = g.id('x');
        g.emit(`${indent}for ${x} in list(${src} or [])[:${r.int(5, 100)}]:`);
        pyStatements(g, indent + '    ', [...vars, x], depth - 1, r.int(1, 3));
        break;
      }
      default: {
        g.emit(`${indent}try:`);
        pyStatements(g, indent + '    ', [...vars], depth - 1, r.int(1, 2));
        g.emit(`${indent}except (KeyError, ValueError) as exc:`);
        g.emit(`${indent}    log.warning("${r.pick(VERBS)} failed: %s", exc)`);
      }
    }
  }
}

function pyFiller(g: Gen): void {
  const r = g.rng;
  const k = r.int(0, 3);
  const noun = r.pick(NOUNS);
  if (k === 0) {
    const cls = g.id(cap(noun));
    g.emit('');
    g.emit('@dataclass');
    g.emit(`class ${cls}:`);
    g.emit(`    """A ${r.pick(ADJS)} ${noun} as stored in the ${r.pick(DOMAINS)} database."""`);
    g.emit('');
    g.emit('    id: str');
    for (const f of new Set(Array.from({ length: r.int(2, 6) }, () => r.pick(FIELDS)))) g.emit(`    ${f}: ${r.pick(['str', 'int', 'float', 'str | None', 'list[str]'])} = ${r.pick(['""', '0', 'None', 'field(default_factory=list)'])}`);
    for (let m = 0; m < r.int(1, 3); m++) {
      g.emit('');
      g.emit(`    def ${g.id(snake(r.pick(VERBS), r.pick(FIELDS)))}(self, other: dict[str, Any] | None = None) -> dict[str, Any]:`);
      pyStatements(g, '        ', ['self.id', 'other'], 2, r.int(2, 5));
      g.emit(`        return {"id": self.id, "kind": "${noun}"}`);
    }
  } else {
    g.emit('');
    g.emit('');
    g.emit(`def ${g.id(snake(r.pick(VERBS), r.pick(ADJS), noun + 's'))}(items: Iterable[dict[str, Any]], limit: int = ${r.int(5, 500)}) -> list[dict[str, Any]]:`);
    g.emit(`    """${cap(r.pick(VERBS))} the ${noun}s and keep the first \`limit\`."""`);
    g.emit('    out: list[dict[str, Any]] = []');
    g.emit('    for item in items:');
    pyStatements(g, '        ', ['item', 'limit', 'out'], 2, r.int(2, 6));
    g.emit('        out.append(item)');
    g.emit('        if len(out) >= limit:');
    g.emit('            break');
    g.emit(`    return sorted(out, key=lambda row: str(row.get("${r.pick(FIELDS)}", "")))`);
  }
}

/** A function with one request call site; one in `mistakeRate` carries a mistake. */
function pyCallSite(g: Gen, domain: string): void {
  const r = g.rng;
  const fn = g.id(snake(r.pick(['answer', 'ask', 'draft', 'classify', 'summarize', 'review', 'plan', 'triage']), r.pick(NOUNS)));
  const mistake = r.chance(g.mistakeRate) ? r.int(0, 7) : -1;
  const cached = r.chance(0.5);
  const method = r.weighted([[6, 'create'], [2, 'stream'], [1, 'count_tokens']] as const);
  g.emit('');
  g.emit('');
  if (method === 'stream') {
    g.emit(`def ${fn}(question: str, history: list[dict[str, Any]] | None = None) -> str:`);
  } else {
    g.emit(`def ${fn}(question: str, history: list[dict[str, Any]] | None = None) -> Any:`);
  }
  g.emit(`    """${cap(r.pick(VERBS))} a ${r.pick(NOUNS)} for the ${domain} team."""`);
  g.emit('    messages = list(history or [])');
  g.emit('    messages.append({"role": "user", "content": question})');
  let system = cached
    ? '[{"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}]'
    : r.pick(['SYSTEM_PROMPT', 'SYSTEM_PROMPT + "\\n\\n" + STYLE_GUIDE', 'f"{SYSTEM_PROMPT}\\n\\n{STYLE_GUIDE}"']);
  let msgs = 'messages';
  let tools = r.chance(0.6) ? 'TOOLS' : undefined;
  let extra = '';
  let beta = false;
  switch (mistake) {
    case 0:
      g.emit(`    now = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M")`);
      system = 'f"{SYSTEM_PROMPT}\\nCurrent time: {now}"';
      break;
    case 1:
      system = `f"You are the ${domain} assistant. Today is {datetime.now().date()}. {STYLE_GUIDE}"`;
      break;
    case 2:
      msgs = `messages[-MAX_HISTORY:]`;
      tools = 'TOOLS';
      break;
    case 3:
      g.emit('    tool_specs = [json.loads(json.dumps(t)) for t in TOOLS]');
      g.emit('    schema_blob = json.dumps({"tools": tool_specs})');
      system = `SYSTEM_PROMPT + "\\nTools: " + schema_blob`;
      break;
    case 4:
      beta = true;
      extra = `        betas=["${r.pick(BAD_BETAS)}"],`;
      break;
    case 5:
      tools = 'list({t["name"]: t for t in TOOLS}.values())';
      g.emit(`    enabled = {t["name"] for t in TOOLS}`);
      system = 'SYSTEM_PROMPT + "\\nEnabled tools: " + ", ".join(enabled)';
      break;
    case 6:
      g.emit(`    session_id = os.environ.get("SESSION_ID", "local")`);
      system = 'f"{SYSTEM_PROMPT}\\nSession: {session_id}"';
      break;
    default:
      if (mistake === 7) {
        g.emit('    while len(messages) > MAX_HISTORY:');
        g.emit('        messages.pop(0)');
      } else if (r.chance(0.3)) {
        beta = true;
        extra = `        betas=["${r.pick(GOOD_BETAS)}"],`;
      }
  }
  const callee = `client.${beta ? 'beta.' : ''}messages.${method}`;
  const args = [`        model=MODEL,`];
  if (method !== 'count_tokens') args.push(`        max_tokens=${r.pick([256, 512, 1024, 2048, 4096])},`);
  args.push(`        system=${system},`);
  if (tools) args.push(`        tools=${tools},`);
  args.push(`        messages=${msgs},`);
  if (extra) args.push(extra);
  if (method === 'stream') {
    g.emit(`    with ${callee}(`);
    for (const a of args) g.emit('    ' + a);
    g.emit('    ) as stream:');
    g.emit('        for text in stream.text_stream:');
    g.emit('            log.debug("delta %d", len(text))');
    g.emit('        return stream.get_final_message().content[0].text');
  } else {
    g.emit(`    resp = ${callee}(`);
    for (const a of args) g.emit(a);
    g.emit('    )');
    g.emit(method === 'count_tokens' ? '    return resp.input_tokens' : '    return resp');
  }
}

/** A tool-use loop that trims its history. */
function pyAgentLoop(g: Gen): void {
  const r = g.rng;
  const cls = g.id(`${cap(r.pick(NOUNS))}Agent`);
  const bad = r.chance(g.mistakeRate);
  g.emit('');
  g.emit('');
  g.emit(`class ${cls}:`);
  g.emit(`    """Runs the tool loop for ${r.pick(NOUNS)} requests."""`);
  g.emit('');
  g.emit('    def __init__(self, max_turns: int = 20) -> None:');
  g.emit('        self.max_turns = max_turns');
  g.emit('        self.history: list[dict[str, Any]] = []');
  g.emit('');
  g.emit('    def run_tool(self, block: Any) -> dict[str, Any]:');
  g.emit('        try:');
  g.emit(`            output = json.dumps(block.input, sort_keys=True)`);
  g.emit('        except (TypeError, ValueError) as exc:');
  g.emit('            output = str(exc)');
  g.emit('        return {"type": "tool_result", "tool_use_id": block.id, "content": output[:4000]}');
  g.emit('');
  g.emit('    def run(self, task: str) -> str:');
  g.emit('        self.history.append({"role": "user", "content": task})');
  g.emit('        for _ in range(self.max_turns):');
  g.emit('            resp = client.messages.create(');
  g.emit('                model=MODEL,');
  g.emit(`                max_tokens=${r.pick([1024, 2048, 4096, 8192])},`);
  g.emit('                system=[{"type": "text", "text": SYSTEM_PROMPT, "cache_control": {"type": "ephemeral"}}],');
  g.emit('                tools=TOOLS,');
  g.emit(bad ? '                messages=self.history[-MAX_HISTORY:],' : '                messages=self.history,');
  g.emit('            )');
  g.emit('            self.history.append({"role": "assistant", "content": resp.content})');
  g.emit('            if resp.stop_reason != "tool_use":');
  g.emit('                return "".join(b.text for b in resp.content if b.type == "text")');
  g.emit('            self.history.append({"role": "user", "content": [self.run_tool(b) for b in resp.content if b.type == "tool_use"]})');
  g.emit('        raise RuntimeError("no answer")');
}

function pyBatch(g: Gen): void {
  const r = g.rng;
  g.emit('');
  g.emit('');
  g.emit(`def ${g.id('submit_batch')}(questions: list[str]) -> str:`);
  g.emit('    batch = client.messages.batches.create(');
  g.emit('        requests=[');
  g.emit('            {');
  g.emit('                "custom_id": f"q-{i}",');
  g.emit(`                "params": {"model": MODEL, "max_tokens": ${r.pick([256, 512])}, "system": SYSTEM_PROMPT, "messages": [{"role": "user", "content": q}]},`);
  g.emit('            }');
  g.emit('            for i, q in enumerate(questions)');
  g.emit('        ]');
  g.emit('    )');
  g.emit('    return batch.id');
}

// ---- TypeScript / JavaScript ----------------------------------------------------------------

function tsHeader(g: Gen, opts: { api: boolean; importsFrom?: string; domain: string }): void {
  const r = g.rng;
  g.emit(`// ${cap(opts.domain)} ${r.pick(['assistant', 'agent', 'route', 'service', 'worker'])}: ${g.prose(1, 2)}`);
  if (opts.api) g.emit(`import Anthropic from '@anthropic-ai/sdk';`);
  if (g.lang === 'tsx' || g.lang === 'jsx') g.emit(`import { useEffect, useMemo, useState } from 'react';`);
  if (r.chance(0.4)) g.emit(`import { createHash } from 'node:crypto';`);
  if (opts.api && opts.importsFrom) g.emit(`import { SYSTEM_PROMPT, STYLE_GUIDE, TOOLS } from './${opts.importsFrom}';`);
  g.emit('');
  if (opts.api) {
    g.emit(r.pick(['const client = new Anthropic();', 'const client = new Anthropic({ maxRetries: 3 });', 'const client = new Anthropic({ timeout: 60_000 });']));
    g.emit(`const MODEL = '${r.pick(MODELS)}';`);
    g.emit(`const MAX_HISTORY = ${r.int(6, 60)};`);
    if (!opts.importsFrom) {
      g.emit(`const SYSTEM_PROMPT = \`You are the ${opts.domain} assistant for Acme. ${g.prose(2, 6)}\`;`);
      g.emit(`const STYLE_GUIDE = '${g.prose(1, 3)}';`);
      g.emit(`const TOOLS${g.typed ? ': Anthropic.Tool[]' : ''} = [];`);
    }
  }
  g.emit('');
}

function tsToolObject(g: Gen, name: string, indent: string): string[] {
  const r = g.rng;
  const props = [...new Set(Array.from({ length: r.int(1, 4) }, () => r.pick(FIELDS)))];
  return [
    `${indent}{`,
    `${indent}  name: '${name}',`,
    `${indent}  description: '${cap(r.pick(VERBS))} ${r.pick(ADJS)} ${r.pick(NOUNS)}s. ${r.pick(PROSE)}',`,
    `${indent}  input_schema: {`,
    `${indent}    type: 'object'${g.typed ? ' as const' : ''},`,
    `${indent}    properties: { ${props.map((p) => `${p}: { type: '${r.pick(['string', 'integer', 'boolean'])}', description: 'The ${p.replace('_', ' ')}' }`).join(', ')} },`,
    `${indent}    required: [${props.slice(0, r.int(1, props.length)).map((p) => `'${p}'`).join(', ')}],`,
    `${indent}  },`,
    `${indent}},`,
  ];
}

function tsToolsModule(g: Gen, domain: string): void {
  const r = g.rng;
  g.emit(`// Prompts and tool definitions for the ${domain} agents.`);
  if (g.typed) g.emit(`import type Anthropic from '@anthropic-ai/sdk';`);
  g.emit('');
  g.emit(`export const SYSTEM_PROMPT = \`You are the ${domain} assistant for Acme.`);
  for (let i = 0; i < r.int(3, 12); i++) g.emit(`- ${r.pick(PROSE)}`);
  g.emit('`;');
  g.emit(`export const STYLE_GUIDE = '${g.prose(2, 4)}';`);
  g.emit('');
  g.emit(`export const TOOLS${g.typed ? ': Anthropic.Tool[]' : ''} = [`);
  for (let i = 0; i < r.int(2, 7); i++) for (const l of tsToolObject(g, snake(r.pick(VERBS), r.pick(NOUNS), String(i)), '  ')) g.emit(l);
  g.emit('];');
  g.emit('');
}

function tsStatements(g: Gen, indent: string, vars: string[], depth: number, count: number): void {
  const r = g.rng;
  for (let i = 0; i < count; i++) {
    const v = g.id(r.pick(['value', 'item', 'row', 'total', 'key', 'entry', 'result', 'batch']));
    const src = r.pick(vars);
    const kind = depth > 0 ? r.int(0, 9) : r.int(0, 5);
    switch (kind) {
      case 0:
        g.emit(`${indent}const ${v} = typeof ${src} === 'object' && ${src} !== null ? (${src} as ${g.typed ? 'Record<string, unknown>' : 'any'})['${r.pick(FIELDS)}'] : ${src};`.replace(' as any', ''));
        vars.push(v);
        break;
      case 1:
        g.emit(`${indent}const ${v} = Array.isArray(${src}) ? ${src}.filter(Boolean).slice(0, ${r.int(3, 50)}) : [];`);
        vars.push(v);
        break;
      case 2:
        g.emit(`${indent}console.debug('${r.pick(VERBS)}', ${src}, String(${src}).length);`);
        break;
      case 3:
        g.emit(`${indent}const ${v} = \`\${String(${src})}:${r.pick(FIELDS)}:\${String(${src}).length * ${r.int(2, 9)}}\`;`);
        vars.push(v);
        break;
      case 4:
        g.emit(`${indent}const ${v} = { id: ${src}, ${r.pick(FIELDS)}: ${r.int(0, 999)}, label: '${r.pick(ADJS)}' };`);
        vars.push(v);
        break;
      case 5:
        g.emit(`${indent}const ${v} = [${src}].flat().reduce${g.typed ? '<number>' : ''}((n, x) => n + String(x).length, ${r.int(0, 9)});`);
        vars.push(v);
        break;
      case 6:
      case 7:
        g.emit(`${indent}if (${src} ${r.pick(['== null', '!= null', "=== ''", '!== undefined'])}) {`);
        tsStatements(g, indent + '  ', [...vars], depth - 1, r.int(1, 3));
        if (r.chance(0.5)) {
          g.emit(`${indent}} else {`);
          tsStatements(g, indent + '  ', [...vars], depth - 1, r.int(1, 2));
        }
        g.emit(`${indent}}`);
        break;
      case 8: {
        const x = g.id('x');
        g.emit(`${indent}for (const ${x} of [${src}].flat().slice(0, ${r.int(5, 100)})) {`);
        tsStatements(g, indent + '  ', [...vars, x], depth - 1, r.int(1, 3));
        g.emit(`${indent}}`);
        break;
      }
      default:
        g.emit(`${indent}try {`);
        tsStatements(g, indent + '  ', [...vars], depth - 1, r.int(1, 2));
        g.emit(`${indent}} catch (err) {`);
        g.emit(`${indent}  console.warn('${r.pick(VERBS)} failed', err);`);
        g.emit(`${indent}}`);
    }
  }
}

function tsFiller(g: Gen): void {
  const r = g.rng;
  const noun = r.pick(NOUNS);
  const k = r.int(0, 3);
  const t = (s: string) => (g.typed ? s : '');
  if ((g.lang === 'tsx' || g.lang === 'jsx') && k === 0) {
    const name = g.id(`${cap(noun)}List`);
    g.emit('');
    if (g.typed) g.emit(`interface ${name}Props {\n  items: Array<{ id: string; ${r.pick(FIELDS)}: string }>;\n  onSelect?: (id: string) => void;\n}\n`);
    g.emit(`export function ${name}({ items, onSelect }${t(`: ${name}Props`)}) {`);
    g.emit(`  const [query, setQuery] = useState('');`);
    g.emit(`  const visible = useMemo(() => items.filter((i) => JSON.stringify(i).includes(query)), [items, query]);`);
    g.emit(`  useEffect(() => {\n    document.title = \`\${visible.length} ${noun}s\`;\n  }, [visible.length]);`);
    g.emit('  return (');
    g.emit(`    <section className="${noun}-list">`);
    g.emit(`      <input value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Filter ${noun}s" />`);
    g.emit('      <ul>');
    g.emit('        {visible.map((item) => (');
    g.emit(`          <li key={item.id} onClick={() => onSelect?.(item.id)}>`);
    g.emit(`            <strong>{item.id}</strong> <span>{String(Object.values(item)[1] ?? '')}</span>`);
    g.emit('          </li>');
    g.emit('        ))}');
    g.emit('      </ul>');
    g.emit('    </section>');
    g.emit('  );');
    g.emit('}');
    return;
  }
  if (k === 1 && g.typed) {
    const iface = g.id(cap(noun));
    g.emit('');
    g.emit(`export interface ${iface} {`);
    g.emit('  id: string;');
    for (const f of new Set(Array.from({ length: r.int(2, 6) }, () => r.pick(FIELDS)))) g.emit(`  ${f}${r.chance(0.3) ? '?' : ''}: ${r.pick(['string', 'number', 'string[]', 'boolean', 'Date'])};`);
    g.emit('}');
  }
  g.emit('');
  g.emit(`export function ${g.id(camel(r.pick(VERBS), r.pick(ADJS), noun + 's'))}(items${t(': Array<Record<string, unknown>>')}, limit = ${r.int(5, 500)})${t(': Array<Record<string, unknown>>')} {`);
  g.emit(`  const out${t(': Array<Record<string, unknown>>')} = [];`);
  g.emit('  for (const item of items) {');
  tsStatements(g, '    ', ['item', 'limit', 'out'], 2, r.int(2, 6));
  g.emit('    out.push(item);');
  g.emit('    if (out.length >= limit) break;');
  g.emit('  }');
  g.emit(`  return out.sort((a, b) => String(a['${r.pick(FIELDS)}']).localeCompare(String(b['${r.pick(FIELDS)}'])));`);
  g.emit('}');
}

function tsCallSite(g: Gen, domain: string): void {
  const r = g.rng;
  const t = (s: string) => (g.typed ? s : '');
  const fn = g.id(camel(r.pick(['answer', 'ask', 'draft', 'classify', 'summarize', 'review', 'plan', 'triage']), r.pick(NOUNS)));
  const mistake = r.chance(g.mistakeRate) ? r.int(0, 7) : -1;
  const cached = r.chance(0.5);
  const method = r.weighted([[6, 'create'], [2, 'stream'], [1, 'countTokens']] as const);
  g.emit('');
  g.emit(`export async function ${fn}(question${t(': string')}, history${t(': Anthropic.MessageParam[]')} = [])${t(': Promise<unknown>')} {`);
  g.emit(`  const messages${t(': Anthropic.MessageParam[]')} = [...history, { role: 'user', content: question }];`);
  let system = cached
    ? `[{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }]`
    : r.pick(['SYSTEM_PROMPT', '`${SYSTEM_PROMPT}\\n\\n${STYLE_GUIDE}`', "SYSTEM_PROMPT + '\\n\\n' + STYLE_GUIDE"]);
  let msgs = 'messages';
  let tools = r.chance(0.6) ? 'TOOLS' : undefined;
  let extra = '';
  let beta = false;
  switch (mistake) {
    case 0:
      g.emit(`  const now = new Date().toISOString();`);
      system = '`${SYSTEM_PROMPT}\\nCurrent time: ${now}`';
      break;
    case 1:
      system = `\`You are the ${domain} assistant. Today is \${new Date().toDateString()}. \${STYLE_GUIDE}\``;
      break;
    case 2:
      msgs = 'messages.slice(-MAX_HISTORY)';
      tools = 'TOOLS';
      break;
    case 3:
      g.emit('  const schemaBlob = JSON.stringify({ tools: TOOLS, at: Date.now() });');
      system = "SYSTEM_PROMPT + '\\nTools: ' + schemaBlob";
      break;
    case 4:
      beta = true;
      extra = `    betas: ['${r.pick(BAD_BETAS)}'],`;
      break;
    case 5:
      g.emit(`  const enabled = new Set(TOOLS.map((x) => x.name));`);
      system = "`${SYSTEM_PROMPT}\\nEnabled tools: ${[...enabled].join(', ')}`";
      break;
    case 6:
      g.emit(`  const sessionId = process.env.SESSION_ID ?? crypto.randomUUID();`);
      system = '`${SYSTEM_PROMPT}\\nSession: ${sessionId}`';
      break;
    default:
      if (mistake === 7) {
        g.emit('  while (messages.length > MAX_HISTORY) messages.shift();');
      } else if (r.chance(0.3)) {
        beta = true;
        extra = `    betas: ['${r.pick(GOOD_BETAS)}'],`;
      }
  }
  const callee = `client.${beta ? 'beta.' : ''}messages.${method}`;
  const args = [`    model: MODEL,`];
  if (method !== 'countTokens') args.push(`    max_tokens: ${r.pick([256, 512, 1024, 2048, 4096])},`);
  args.push(system === 'SYSTEM_PROMPT' && r.chance(0.3) ? '    system: SYSTEM_PROMPT,' : `    system: ${system},`);
  if (tools) args.push(`    tools: ${tools},`);
  args.push(`    messages: ${msgs},`);
  if (extra) args.push(extra);
  if (method === 'stream') {
    g.emit(`  const stream = ${callee}({`);
    for (const a of args) g.emit(a);
    g.emit('  });');
    g.emit(`  stream.on('text', (delta${t(': string')}) => console.debug('delta', delta.length));`);
    g.emit('  return stream.finalMessage();');
  } else {
    g.emit(`  const resp = await ${callee}({`);
    for (const a of args) g.emit(a);
    g.emit('  });');
    g.emit(method === 'countTokens' ? '  return resp.input_tokens;' : '  return resp;');
  }
  g.emit('}');
}

function tsAgentLoop(g: Gen): void {
  const r = g.rng;
  const t = (s: string) => (g.typed ? s : '');
  const bad = r.chance(g.mistakeRate);
  const cls = g.id(`${cap(r.pick(NOUNS))}Agent`);
  g.emit('');
  g.emit(`export class ${cls} {`);
  g.emit(`  ${t('private ')}history${t(': Anthropic.MessageParam[]')} = [];`);
  g.emit('');
  g.emit(`  constructor(${t('private readonly ')}maxTurns = ${r.int(5, 30)}) {${g.typed ? '' : '\n    this.maxTurns = maxTurns;\n  '}}`);
  g.emit('');
  g.emit(`  async run(task${t(': string')})${t(': Promise<string>')} {`);
  g.emit(`    this.history.push({ role: 'user', content: task });`);
  g.emit('    for (let turn = 0; turn < this.maxTurns; turn++) {');
  g.emit('      const resp = await client.messages.create({');
  g.emit('        model: MODEL,');
  g.emit(`        max_tokens: ${r.pick([1024, 2048, 4096, 8192])},`);
  g.emit(`        system: [{ type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } }],`);
  g.emit('        tools: TOOLS,');
  g.emit(bad ? '        messages: this.history.slice(-MAX_HISTORY),' : '        messages: this.history,');
  g.emit('      });');
  g.emit(`      this.history.push({ role: 'assistant', content: resp.content });`);
  g.emit(`      if (resp.stop_reason !== 'tool_use') return resp.content.map((b) => (b.type === 'text' ? b.text : '')).join('');`);
  g.emit('      const results = resp.content');
  g.emit(`        .filter((b) => b.type === 'tool_use')`);
  g.emit(`        .map((b) => ({ type: 'tool_result'${t(' as const')}, tool_use_id: ${g.typed ? '(b as Anthropic.ToolUseBlock)' : 'b'}.id, content: 'ok' }));`);
  g.emit(`      this.history.push({ role: 'user', content: results });`);
  g.emit('    }');
  g.emit(`    throw new Error('no answer');`);
  g.emit('  }');
  g.emit('}');
}

// ---- corpus ---------------------------------------------------------------------------------

interface Plan {
  path: string;
  lang: Lang;
  kind: 'tools' | 'agent' | 'plain';
  domain: string;
  importsFrom?: string;
  target: number;
}

function planCorpus(rng: Rng, opts: CorpusOptions): Plan[] {
  const plans: Plan[] = [];
  let project = 0;
  while (plans.length < opts.files) {
    const domain = rng.pick(DOMAINS);
    const isPython = rng.chance(0.55);
    const name = `${domain}-${rng.pick(['bot', 'agent', 'service', 'assistant', 'worker', 'api'])}-${++project}`;
    const files = rng.int(15, 70);
    if (isPython) {
      const pkg = `${name}/${domain.replace(/-/g, '_')}_${project}`;
      plans.push({ path: `${pkg}/prompts.py`, lang: 'python', kind: 'tools', domain, target: 0 });
      for (let i = 0; i < files && plans.length < opts.files; i++) {
        const kind = rng.chance(0.55) ? 'agent' : 'plain';
        const stem = kind === 'agent' ? rng.pick(['agent', 'chat', 'routes', 'jobs', 'pipeline', 'handlers']) : rng.pick(['models', 'utils', 'store', 'schemas', 'format', 'metrics']);
        plans.push({ path: `${pkg}/${stem}_${i}.py`, lang: 'python', kind, domain, importsFrom: kind === 'agent' && rng.chance(0.7) ? 'prompts' : undefined, target: 0 });
      }
    } else {
      const tsLike = rng.chance(0.75);
      plans.push({ path: `${name}/src/prompts.${tsLike ? 'ts' : 'js'}`, lang: tsLike ? 'typescript' : 'javascript', kind: 'tools', domain, target: 0 });
      for (let i = 0; i < files && plans.length < opts.files; i++) {
        const lang: Lang = tsLike ? rng.weighted([[8, 'typescript'], [2, 'tsx']] as const) : rng.weighted([[8, 'javascript'], [2, 'jsx']] as const);
        const kind = rng.chance(0.55) ? 'agent' : 'plain';
        const dir = lang === 'tsx' || lang === 'jsx' ? 'components' : kind === 'agent' ? rng.pick(['agents', 'routes', 'jobs']) : rng.pick(['lib', 'utils', 'models']);
        const importsFrom = kind === 'agent' && rng.chance(0.7) ? (dir === 'components' || dir !== '' ? '../prompts' : 'prompts') : undefined;
        plans.push({ path: `${name}/src/${dir}/${camel(rng.pick(NOUNS), rng.pick(['handler', 'service', 'view', 'store', 'client', 'panel']))}${i}${EXT[lang]}`, lang, kind, domain, importsFrom, target: 0 });
      }
    }
  }
  plans.length = opts.files;
  // Sizes: log-normal around the mean, scaled so that the total comes out near `bytes`.
  const raw = plans.map((p) => (p.kind === 'tools' ? rng.logNormal(3000, 0.4) : rng.logNormal(1, 0.8)));
  const toolsTotal = plans.reduce((s, p, i) => s + (p.kind === 'tools' ? raw[i] : 0), 0);
  const weightTotal = plans.reduce((s, p, i) => s + (p.kind === 'tools' ? 0 : raw[i]), 0);
  const scale = Math.max(1, opts.bytes - toolsTotal) / weightTotal;
  plans.forEach((p, i) => (p.target = Math.round(Math.min(150_000, Math.max(800, p.kind === 'tools' ? raw[i] : raw[i] * scale)))));
  return plans;
}

function generateFile(rng: Rng, p: Plan): string {
  const g = new Gen(rng, p.lang, 0.25);
  if (p.kind === 'tools') {
    if (g.py) pyToolsModule(g, p.domain);
    else tsToolsModule(g, p.domain);
    return g.text;
  }
  const api = p.kind === 'agent';
  if (g.py) {
    pyHeader(g, { api, importsFrom: p.importsFrom, domain: p.domain });
    while (g.size < p.target) {
      const k = api ? rng.weighted([[5, 'filler'], [3, 'call'], [1, 'loop'], [0.3, 'batch']] as const) : 'filler';
      if (k === 'call') pyCallSite(g, p.domain);
      else if (k === 'loop') pyAgentLoop(g);
      else if (k === 'batch') pyBatch(g);
      else pyFiller(g);
    }
  } else {
    tsHeader(g, { api, importsFrom: p.importsFrom, domain: p.domain });
    while (g.size < p.target) {
      const k = api ? rng.weighted([[5, 'filler'], [3, 'call'], [1, 'loop']] as const) : 'filler';
      if (k === 'call') tsCallSite(g, p.domain);
      else if (k === 'loop') tsAgentLoop(g);
      else tsFiller(g);
    }
  }
  return g.text;
}

/** The corpus, file by file, in a fixed order. */
export function* generateCorpus(opts: CorpusOptions): Generator<CorpusFile> {
  const rng = new Rng(opts.seed);
  const plans = planCorpus(rng, opts);
  for (const p of plans) {
    // Each file has its own stream, so one file's content does not shift every later file.
    const fileRng = new Rng((opts.seed ^ hash(p.path)) >>> 0);
    yield { path: p.path, text: generateFile(fileRng, p) };
  }
}

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * One editor-sized file: `calls` request call sites spread over about `lines` lines of the
 * same kind of code, padded with comment lines to exactly `lines`.
 */
export function editorFile(lang: 'python' | 'typescript', seed: number, lines = 3000, calls = 40): string {
  const rng = new Rng(seed);
  const g = new Gen(rng, lang, 0.25);
  const domain = 'support';
  if (g.py) pyHeader(g, { api: true, domain });
  else tsHeader(g, { api: true, domain });
  const perCall = (lines - g.text.split('\n').length - 40) / calls;
  const lineCount = () => g.lines.join('\n').split('\n').length;
  for (let i = 0; i < calls; i++) {
    const until = (i + 1) * perCall - 20;
    while (lineCount() < until) (g.py ? pyFiller : tsFiller)(g);
    if (g.py) pyCallSite(g, domain);
    else tsCallSite(g, domain);
  }
  let text = g.lines.join('\n').split('\n');
  if (text.length > lines) text = text.slice(0, lines);
  while (text.length < lines) text.push(g.py ? '# end of module' : '// end of module');
  return text.join('\n') + '\n';
}
