/**
 * `npm run docs`: writes src/rules/index.ts (the registry: every rule file of src/rules, in group
 * order), docs/rules/<id>.md for every rule, and docs/rules/README.md, from the
 * rule files with the renderer that `prefixlint explain` and the editor use (engine/docs.ts);
 * removes pages of rules that no longer exist; and puts the rule table (`prefixlint rules
 * --format markdown`) into README.md. `-- --check` only reports what is out of date and exits 1
 * (test/docs.test.ts and test/readme.test.ts check the same).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RULE_PAGES_DIR } from '../src/core/rule';
import { readmeWithRuleTable, repositoryPages, ruleRegistry } from '../src/engine/docs';
import { allRules } from '../src/engine/registry';

const root = process.cwd();
const check = process.argv.includes('--check');
const stale: string[] = [];

// The rule registry is written from the files of src/rules: a new rule is its file (and its
// fixtures); its import, its page and its row in the table follow from here.
const rulesDir = path.join(root, 'src', 'rules');
const registry = path.join(rulesDir, 'index.ts');
const registryText = ruleRegistry(fs.readdirSync(rulesDir));
if ((fs.existsSync(registry) ? fs.readFileSync(registry, 'utf8') : '') !== registryText) {
  stale.push('src/rules/index.ts');
  if (!check) fs.writeFileSync(registry, registryText);
}
const pages = repositoryPages(allRules);
const dir = path.join(root, RULE_PAGES_DIR);

for (const [rel, text] of pages) {
  const file = path.join(root, rel);
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  if (old === text) continue;
  stale.push(rel);
  if (!check) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}
for (const name of fs.existsSync(dir) ? fs.readdirSync(dir) : []) {
  const rel = `${RULE_PAGES_DIR}/${name}`;
  if (pages.has(rel)) continue;
  stale.push(rel);
  if (!check) fs.rmSync(path.join(root, rel));
}

const readme = path.join(root, 'README.md');
const readmeText = fs.readFileSync(readme, 'utf8');
const newReadme = readmeWithRuleTable(readmeText, allRules);
if (newReadme !== readmeText) {
  stale.push('README.md');
  if (!check) fs.writeFileSync(readme, newReadme);
}

if (check) {
  if (stale.length) {
    console.error(`Out of date (run npm run docs): ${stale.join(', ')}`);
    process.exitCode = 1;
  }
} else {
  console.log(stale.length ? `Updated ${stale.length} page${stale.length === 1 ? '' : 's'} in ${RULE_PAGES_DIR}/.` : `${RULE_PAGES_DIR}/ is up to date.`);
}
