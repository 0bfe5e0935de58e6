/**
 * `--format github`: one GitHub Actions workflow command per finding, which the runner turns
 * into an annotation on the pull request:
 *
 *   ::error file=src/app.py,line=12,col=5,endLine=12,endColumn=19,title=prefixlint (volatile-system-prompt)::The system prompt ...
 *
 * Levels: error -> error, warning -> warning, info -> notice. Escaping follows the Actions
 * toolkit (`@actions/core` command.ts): in the message `%`, CR and LF are percent-encoded; in
 * property values also `:` and `,`.
 */
import type { Severity } from '../core/diagnostic';
import type { FileOutcome } from './check';
import { displayPath } from './report';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function githubAnnotations(outcomes: readonly FileOutcome[], cwd: string): string[] {
  const lines: string[] = [];
  for (const o of outcomes) {
    if (!o.findings.length) continue;
    const file = displayPath(o.file, cwd);
    for (const f of o.findings) {
      const d = f.diagnostic;
      const props: Array<[string, string | number]> = [
        ['file', file],
        ['line', f.start.line + 1],
        ['col', f.start.column + 1],
        ['endLine', f.end.line + 1],
        ['endColumn', f.end.column + 1],
        ['title', `prefixlint (${d.ruleId})`],
      ];
      const list = props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
      lines.push(`::${COMMAND[d.severity]} ${list}::${escapeData(d.message)}`);
    }
  }
  return lines;
}
