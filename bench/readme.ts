/**
 * Renders bench/results/latest.json into bench/results/latest.md and the README's speed section
 * (`npm run bench:readme`; a full `npm run bench` does it too). The section sits between the
 * two markers in bench/report.ts; a unit test checks that it matches latest.json.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Results } from './report';
import { renderMarkdown, replaceReadmeSection } from './report';

export function writeReports(root: string): void {
  const dir = path.join(root, 'bench', 'results');
  const md = renderMarkdown(JSON.parse(fs.readFileSync(path.join(dir, 'latest.json'), 'utf8')) as Results);
  fs.writeFileSync(path.join(dir, 'latest.md'), `# prefixlint benchmark\n\n${md}`);
  const readme = path.join(root, 'README.md');
  fs.writeFileSync(readme, replaceReadmeSection(fs.readFileSync(readme, 'utf8'), md));
}

// As a script (scripts/run-ts.mjs runs it from the repository root).
if (/readme\.c?js$/.test(process.argv[1] ?? '')) {
  writeReports(process.cwd());
  console.log('bench/results/latest.md and the speed section of README.md: regenerated from bench/results/latest.json');
}
