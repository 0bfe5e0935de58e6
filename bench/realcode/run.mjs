#!/usr/bin/env node
/**
 * Lints every repository of a real-code corpus whole, as a user would (`prefixlint check .` in
 * the repository's folder, JSON output), and reports per repository: files, wall time, peak
 * memory, files that could not be analysed (and why), findings per rule and the slowest files.
 * Then scores the judged findings in expectations.tsv: TP rows must be reported, FP rows must
 * be silent, MISS rows must become reported.
 *
 *   npm run realcode -- <corpus> [--only owner+name,...] [--out DIR] [--expectations FILE]
 *                                [--timeout SECONDS] [-- extra check options]
 *
 * <corpus> holds one folder per repository (`owner+name`, as built by the corpus script of the
 * team's shared real-code folder). Not part of `npm test`: the corpus is not in the repository.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    only: { type: 'string' },
    out: { type: 'string' },
    expectations: { type: 'string', default: path.join(HERE, 'expectations.tsv') },
    timeout: { type: 'string', default: '900' },
    cli: { type: 'string', default: path.join(ROOT, 'dist', 'cli.js') },
  },
});
const [corpusArg, ...checkArgs] = positionals;
if (!corpusArg) {
  console.error('usage: npm run realcode -- <corpus folder> [--only a+b,c+d] [--out DIR] [--expectations FILE]');
  process.exit(2);
}
const corpus = path.resolve(corpusArg);
const outDir = path.resolve(values.out ?? fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-realcode-')));
fs.mkdirSync(outDir, { recursive: true });
const only = values.only ? new Set(values.only.split(',')) : undefined;
const repos = fs
  .readdirSync(corpus, { withFileTypes: true })
  .filter((d) => d.isDirectory() && (!only || only.has(d.name)))
  .map((d) => d.name)
  .sort();

function lint(repo) {
  const cwd = path.join(corpus, repo);
  const statsFile = path.join(outDir, `${repo}.stats.json`);
  fs.rmSync(statsFile, { force: true });
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [values.cli, 'check', '--format', 'json', '--exit-zero', ...checkArgs, '.'], {
      cwd,
      // PREFIXLINT_STALE_VIEWS: a node view read after the workspace let go of it (Workspace.dropViews)
      // fails the file (an internal error in the report) instead of going unseen.
      env: { ...process.env, PREFIXLINT_STATS: statsFile, PREFIXLINT_STALE_VIEWS: '1', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), Number(values.timeout) * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      let findings;
      try {
        findings = JSON.parse(stdout);
      } catch {
        findings = undefined;
      }
      let stats;
      try {
        stats = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
      } catch {
        stats = undefined;
      }
      fs.writeFileSync(path.join(outDir, `${repo}.json`), stdout);
      fs.writeFileSync(path.join(outDir, `${repo}.stderr.txt`), stderr);
      resolve({ repo, code, signal, wallMs: performance.now() - started, findings, stats, stderr });
    });
  });
}

function fmtMs(ms) {
  return (ms / 1000).toFixed(1);
}

const results = [];
for (const repo of repos) {
  const r = await lint(repo);
  results.push(r);
  const files = r.stats?.files.length ?? '?';
  console.error(`${repo}: exit ${r.signal ?? r.code}, ${files} files, ${fmtMs(r.wallMs)} s, ${r.stats ? Math.round(r.stats.maxRssKb / 1024) : '?'} MB${r.findings ? `, ${r.findings.length} findings` : ', no JSON result'}`);
}

const lines = [];
const say = (s = '') => lines.push(s);
say(`# Real-code run: ${results.length} repositories`);
say();
say(`Linted with \`prefixlint check --format json --exit-zero ${checkArgs.join(' ')} .\` from each repository's folder; times are wall times of the whole run (node start included), per-file times are measured around each file's check inside the run; RSS is the process's peak resident memory.`);
say();
say('| repository | files | wall s | peak RSS MB | exit | JSON | internal errors | not analysed | analysed in part | findings | files > 1 s | slowest file (ms) |');
say('|---|---|---|---|---|---|---|---|---|---|---|---|');
const total = { files: 0, wallMs: 0, maxRss: 0, internal: 0, notAnalysed: 0, partial: 0, findings: 0, slow: 0, complete: 0 };
const byRule = new Map();
for (const r of results) {
  const files = r.stats?.files ?? [];
  const internal = files.filter((f) => f.status === 'failed').length + (r.stderr.match(/internal error/g)?.length && !files.length ? 1 : 0);
  const notAnalysed = files.filter((f) => f.status === 'skipped' || f.status === 'failed').length;
  const partial = files.filter((f) => f.status === 'partial').length;
  const slow = files.filter((f) => f.ms > 1000).length;
  const slowest = [...files].sort((a, b) => b.ms - a.ms)[0];
  const rss = r.stats ? Math.round(r.stats.maxRssKb / 1024) : undefined;
  const n = r.findings?.length;
  total.files += files.length;
  total.wallMs += r.wallMs;
  total.maxRss = Math.max(total.maxRss, rss ?? 0);
  total.internal += internal;
  total.notAnalysed += notAnalysed;
  total.partial += partial;
  total.findings += n ?? 0;
  total.slow += slow;
  if (r.findings && r.code !== null && r.code !== 2) total.complete++;
  for (const f of r.findings ?? []) {
    const m = byRule.get(f.ruleId) ?? new Map();
    m.set(r.repo, (m.get(r.repo) ?? 0) + 1);
    byRule.set(f.ruleId, m);
  }
  say(`| ${r.repo} | ${files.length} | ${fmtMs(r.wallMs)} | ${rss ?? '—'} | ${r.signal ?? r.code} | ${r.findings ? 'yes' : '**no**'} | ${internal} | ${notAnalysed} | ${partial} | ${n ?? '—'} | ${slow} | ${slowest ? `${slowest.file} (${Math.round(slowest.ms)})` : '—'} |`);
}
say(`| **all** | ${total.files} | ${fmtMs(total.wallMs)} | max ${total.maxRss} | ${total.complete}/${results.length} complete | | ${total.internal} | ${total.notAnalysed} | ${total.partial} | ${total.findings} | ${total.slow} | |`);
say();
say('## Findings per rule');
say();
say('| rule | findings | repositories |');
say('|---|---|---|');
for (const [rule, m] of [...byRule].sort((a, b) => [...b[1].values()].reduce((x, y) => x + y, 0) - [...a[1].values()].reduce((x, y) => x + y, 0))) {
  const sum = [...m.values()].reduce((x, y) => x + y, 0);
  say(`| ${rule} | ${sum} | ${[...m].sort((a, b) => b[1] - a[1]).map(([repo, c]) => `${repo} ${c}`).join(', ')} |`);
}
say();
say('## Slowest files');
say();
const allFiles = results.flatMap((r) => (r.stats?.files ?? []).map((f) => ({ ...f, repo: r.repo })));
for (const f of allFiles.sort((a, b) => b.ms - a.ms).slice(0, 10)) say(`- ${f.repo}/${f.file}: ${Math.round(f.ms)} ms (${f.status})`);
say();

// Notices by kind: what stderr said about files that could not be analysed whole.
const noticeKinds = new Map();
for (const r of results) {
  for (const line of r.stderr.split('\n')) {
    const m = /^[^:]+(?::\d+:\d+)?: (skipped: [^(]+|internal error[^:]*|has syntax errors|analysis stopped at its limit[^;]*|not analysed[^:]*|values imported from)/.exec(line);
    if (!m) continue;
    const k = m[1].trim();
    noticeKinds.set(k, (noticeKinds.get(k) ?? 0) + 1);
  }
}
if (noticeKinds.size) {
  say('## Notices');
  say();
  for (const [k, n] of [...noticeKinds].sort((a, b) => b[1] - a[1])) say(`- ${k}: ${n}`);
  say();
}

// Expectations.
const rows = fs
  .readFileSync(values.expectations, 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.startsWith('#'))
  .slice(1)
  .map((l) => {
    const [repo, commit, file, line, rule, verdict, note] = l.split('\t');
    return { repo, commit, file, line: Number(line), rule, verdict, note };
  });
const byRepo = new Map(results.map((r) => [r.repo, r]));
const scored = [];
for (const row of rows) {
  const r = byRepo.get(row.repo.replace('/', '+'));
  if (!r) continue;
  const pinned = fs.readFileSync(path.join(corpus, row.repo.replace('/', '+'), '.corpus-commit'), 'utf8').trim();
  if (pinned !== row.commit) {
    scored.push({ row, outcome: 'other commit' });
    continue;
  }
  const hit = (r.findings ?? []).some(
    // The finding's range covers the judged line, or one of its related places does (a constant in
    // another file that the request reads).
    (f) => f.ruleId === row.rule && [f, ...(f.related ?? [])].some((x) => x.file === row.file && x.line <= row.line && row.line <= (x.endLine ?? x.line)),
  );
  const outcome =
    row.verdict === 'TP' ? (hit ? 'TP kept' : 'TP lost') : row.verdict === 'FP' ? (hit ? 'FP still reported' : 'FP silent') : row.verdict === 'MISS' ? (hit ? 'MISS found' : 'MISS still missed') : hit ? 'UNSURE reported' : 'UNSURE silent';
  scored.push({ row, outcome, hit });
}
if (scored.length) {
  const count = (o) => scored.filter((s) => s.outcome === o).length;
  const holds = scored.filter((s) => ['TP kept', 'FP silent', 'MISS found'].includes(s.outcome)).length;
  const judged = scored.filter((s) => s.row.verdict !== 'UNSURE').length;
  const truePos = count('TP kept') + count('MISS found');
  const falsePos = count('FP still reported');
  say('## Expectations');
  say();
  say(`${path.relative(ROOT, values.expectations)}: ${scored.length} rows in the repositories run; ${holds} of ${judged} judged rows hold.`);
  say();
  say(`| TP kept | TP lost | FP silent | FP still reported | MISS found | MISS still missed | precision on judged findings | recall on judged problems |`);
  say('|---|---|---|---|---|---|---|---|');
  const precision = truePos + falsePos ? `${truePos}/${truePos + falsePos} = ${Math.round((100 * truePos) / (truePos + falsePos))}%` : '—';
  const problems = scored.filter((s) => s.row.verdict === 'TP' || s.row.verdict === 'MISS').length;
  say(`| ${count('TP kept')} | ${count('TP lost')} | ${count('FP silent')} | ${count('FP still reported')} | ${count('MISS found')} | ${count('MISS still missed')} | ${precision} | ${problems ? `${truePos}/${problems} = ${Math.round((100 * truePos) / problems)}%` : '—'} |`);
  say();
  const failing = scored.filter((s) => ['TP lost', 'FP still reported', 'MISS still missed', 'other commit'].includes(s.outcome));
  if (failing.length) {
    say('Rows that do not hold:');
    say();
    for (const s of failing) say(`- ${s.outcome}: ${s.row.repo} ${s.row.file}:${s.row.line} ${s.row.rule} — ${s.row.note}`);
    say();
  }

  // Each finding of this run judged by the rows that cover it (as above: its range or a related
  // place covers the row's line): right (TP, MISS), wrong (FP), or not judged.
  say('## Precision per rule');
  say();
  say('Every finding of this run, judged by the rows that cover it.');
  say();
  say('| rule | findings | right | wrong | not judged | precision of the judged |');
  say('|---|---|---|---|---|---|');
  const perRule = new Map();
  for (const r of results) {
    for (const f of r.findings ?? []) {
      const covering = rows.filter(
        (row) => row.repo.replace('/', '+') === r.repo && row.rule === f.ruleId && row.verdict !== 'UNSURE' && [f, ...(f.related ?? [])].some((x) => x.file === row.file && x.line <= row.line && row.line <= (x.endLine ?? x.line)),
      );
      const c = perRule.get(f.ruleId) ?? { findings: 0, right: 0, wrong: 0, unjudged: 0 };
      c.findings++;
      if (!covering.length) c.unjudged++;
      else if (covering.some((row) => row.verdict === 'FP')) c.wrong++;
      else c.right++;
      perRule.set(f.ruleId, c);
    }
  }
  const sum = { findings: 0, right: 0, wrong: 0, unjudged: 0 };
  for (const [rule, c] of [...perRule].sort((a, b) => b[1].findings - a[1].findings)) {
    for (const k of Object.keys(sum)) sum[k] += c[k];
    say(`| ${rule} | ${c.findings} | ${c.right} | ${c.wrong} | ${c.unjudged} | ${c.right + c.wrong ? `${Math.round((100 * c.right) / (c.right + c.wrong))}%` : '—'} |`);
  }
  say(`| **all** | ${sum.findings} | ${sum.right} | ${sum.wrong} | ${sum.unjudged} | ${sum.right + sum.wrong ? `${Math.round((100 * sum.right) / (sum.right + sum.wrong))}%` : '—'} |`);
  say();
}
const report = lines.join('\n') + '\n';
fs.writeFileSync(path.join(outDir, 'report.md'), report);
process.stdout.write(report);
console.error(`results in ${outDir}`);
