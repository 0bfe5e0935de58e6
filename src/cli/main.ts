/**
 * The `prefixlint` command line: `check`, `rules`, `explain`. Exit codes: 0 clean, 1 findings,
 * 2 usage or internal error.
 */
import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { version } from '../../package.json';
import { Analyzer } from '../analyzer';
import type { Rule } from '../core/rule';
import { allRules } from '../rules/index';
import { checkFile } from './check';
import type { FileOutcome } from './check';
import { colorWanted, createColors } from './color';
import { discoverFiles } from './files';
import { displayPath, formatFindings, formatSummary, toJson, totals } from './report';
import { explainRule, findRule, rulesJson, rulesTable, selectRules, splitList } from './rules';
import { DiskHost } from './source';

export const EXIT_CLEAN = 0;
export const EXIT_FINDINGS = 1;
export const EXIT_ERROR = 2;

const MAIN_HELP = `prefixlint ${version}: finds the mistakes that break Anthropic prompt caching

Usage:
  prefixlint check [options] [paths or globs...]   lint files (default: the current folder)
  prefixlint rules [--format text|json]           list the rules
  prefixlint explain <rule-id>                    show a rule's documentation
  prefixlint --version | --help

Run 'prefixlint check --help' for the options of check.
`;

const CHECK_HELP = `Usage: prefixlint check [options] [paths or globs...]

Lints Python (.py .pyi), TypeScript (.ts .mts .cts .tsx), JavaScript (.js .jsx .mjs .cjs) and
Jupyter notebooks (.ipynb). Folders are walked; files ignored by .gitignore and the folders
node_modules, .git, dist, .venv, venv, __pycache__ and .ipynb_checkpoints are skipped. A file
named explicitly is always checked. Globs (quote them) are matched from the current folder.

Options:
  --format text|json     output format (default: text)
  --fix                  apply safe fixes and write the files
  --unsafe-fixes         with --fix, apply unsafe fixes too; without it, show them as available
  --select ids           run only these rules (comma-separated rule ids or groups)
  --ignore ids           do not run these rules (comma-separated rule ids or groups)
  --no-color             no colours (also: the NO_COLOR environment variable)
  --exit-zero            exit 0 even when problems are found (usage and internal errors still exit 2)
  -h, --help             show this help

Output:
  text   path:line:column: rule-id [*] message        ([*]: --fix can fix it)
  json   an array, one object per finding: ruleId, severity, file, line, column, endLine,
         endColumn, message, url, fix (null or {title, applicability, edits}); notebook
         findings add cell, cellLine, cellColumn, cellEndLine and cellEndColumn.
  Lines and columns are 1-based; columns count UTF-16 code units (a character outside the
  Basic Multilingual Plane, such as most emoji, counts as 2); an end column points just past
  the range. For a notebook, line and column point into the .ipynb file; cell is the 0-based
  index in the notebook's cell list and cellLine/cellColumn the position inside that cell.
  Files that cannot be checked (unreadable, binary, not UTF-8, over 5 MB, not parsable) get a
  one-line notice on stderr and the run goes on.

Exit codes: 0 no findings, 1 findings, 2 usage or internal error.
`;

const RULES_HELP = `Usage: prefixlint rules [--format text|json] [--no-color]

Lists every rule: id, group, severity, fix availability and summary.
`;

const EXPLAIN_HELP = `Usage: prefixlint explain <rule-id> [--no-color]

Prints a rule's documentation: what it finds, why it matters, an example, the fix.
`;

class UsageError extends Error {}

interface Io {
  out(text: string): void;
  err(text: string): void;
  stdoutIsTTY: boolean;
  cwd: string;
}

function parse<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, allowPositionals: boolean) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Node's message goes on about `--`; its first sentence is what the user needs.
    throw new UsageError(message.split(/\.\s/)[0].replace(/\.$/, ''));
  }
}

function format(value: string | undefined, allowed: readonly string[]): string {
  const f = value ?? 'text';
  if (!allowed.includes(f)) throw new UsageError(`unknown format '${f}' (expected ${allowed.join(' or ')})`);
  return f;
}

async function check(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      format: { type: 'string' },
      fix: { type: 'boolean' },
      'unsafe-fixes': { type: 'boolean' },
      select: { type: 'string', multiple: true },
      ignore: { type: 'string', multiple: true },
      'no-color': { type: 'boolean' },
      'exit-zero': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.out(CHECK_HELP);
    return EXIT_CLEAN;
  }
  const fmt = format(values.format, ['text', 'json']);
  const selected = selectRules(allRules, splitList(values.select), splitList(values.ignore));
  if ('error' in selected) throw new UsageError(selected.error);
  const discovery = discoverFiles(positionals, io.cwd);
  if (discovery.errors.length) throw new UsageError(discovery.errors.join('\n'));
  for (const w of discovery.warnings) io.err(`prefixlint: warning: ${w}\n`);
  for (const s of discovery.skipped) io.err(`${displayPath(s.file, io.cwd)}: skipped: ${s.reason}\n`);

  const opts = { fix: values.fix === true, unsafeFixes: values['unsafe-fixes'] === true };
  const host = new DiskHost();
  const analyzer = await Analyzer.create({ host, rules: selected.rules });
  const outcomes: FileOutcome[] = [];
  for (const file of discovery.files) {
    const outcome = checkFile(analyzer, host, file, opts);
    for (const n of outcome.notices) io.err(`${displayPath(file, io.cwd)}: ${n}\n`);
    outcomes.push(outcome);
  }

  const t = totals(outcomes);
  if (fmt === 'json') {
    io.out(JSON.stringify(toJson(outcomes, io.cwd), null, 2) + '\n');
    if (t.fixed) io.err(`Fixed ${t.fixed} problem${t.fixed === 1 ? '' : 's'}.\n`);
  } else {
    const c = createColors(colorWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true));
    const lines = formatFindings(outcomes, io.cwd, c);
    if (lines.length) lines.push('');
    io.out([...lines, ...formatSummary(t, c)].join('\n') + '\n');
  }
  if (outcomes.some((o) => o.crashed)) return EXIT_ERROR;
  return t.problems > 0 && values['exit-zero'] !== true ? EXIT_FINDINGS : EXIT_CLEAN;
}

function rules(args: string[], io: Io): number {
  const { values, positionals } = parse(
    args,
    { format: { type: 'string' }, 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.out(RULES_HELP);
    return EXIT_CLEAN;
  }
  if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const fmt = format(values.format, ['text', 'json']);
  const c = createColors(colorWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true));
  io.out(fmt === 'json' ? rulesJson(allRules) : rulesTable(allRules, c));
  return EXIT_CLEAN;
}

function explain(args: string[], io: Io): number {
  const { values, positionals } = parse(args, { 'no-color': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, true);
  if (values.help) {
    io.out(EXPLAIN_HELP);
    return EXIT_CLEAN;
  }
  if (positionals.length !== 1) throw new UsageError('explain takes one rule id');
  const rule: Rule | { error: string } = findRule(allRules, positionals[0]);
  if ('error' in rule) throw new UsageError(rule.error);
  io.out(explainRule(rule, createColors(colorWanted({ isTTY: io.stdoutIsTTY }, values['no-color'] === true))));
  return EXIT_CLEAN;
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'check':
        return await check(rest, io);
      case 'rules':
        return rules(rest, io);
      case 'explain':
        return explain(rest, io);
      case '--version':
      case '-V':
        io.out(`prefixlint ${version}\n`);
        return EXIT_CLEAN;
      case '--help':
      case '-h':
      case 'help':
        io.out(rest[0] === 'check' ? CHECK_HELP : rest[0] === 'rules' ? RULES_HELP : rest[0] === 'explain' ? EXPLAIN_HELP : MAIN_HELP);
        return EXIT_CLEAN;
      case undefined:
        io.err(MAIN_HELP);
        return EXIT_ERROR;
      default:
        throw new UsageError(`unknown command '${command}' (expected check, rules or explain)`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`prefixlint: error: ${err.message}\n`);
      if (command === 'check' || command === 'rules' || command === 'explain') io.err(`Run 'prefixlint ${command} --help' for usage.\n`);
      else io.err(`Run 'prefixlint --help' for usage.\n`);
      return EXIT_ERROR;
    }
    const detail = process.env.PREFIXLINT_DEBUG && err instanceof Error ? err.stack : err instanceof Error ? err.message : String(err);
    io.err(`prefixlint: internal error: ${detail}\n`);
    return EXIT_ERROR;
  }
}

if (require.main === module) {
  const io: Io = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    stdoutIsTTY: process.stdout.isTTY === true,
    cwd: process.cwd(),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`prefixlint: internal error: ${String(err)}\n`);
      process.exitCode = EXIT_ERROR;
    },
  );
}
