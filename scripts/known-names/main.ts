/**
 * `npm run known-names`: updates src/data/known-names.json from the installed (pinned)
 * `@anthropic-ai/sdk`. `npm run known-names -- --check` changes nothing and exits 1 when the
 * table is not what the SDK would make it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { KnownNamesFile } from '../../src/core/knownNames';
import { readSdkNames, sdkPackageDir } from './readSdk';
import { formatTable, mergeSdkNames } from './update';
import type { HistoricalBeta } from './update';

const root = process.argv[2] && !process.argv[2].startsWith('--') ? path.resolve(process.argv[2]) : process.cwd();
const check = process.argv.includes('--check');
const file = path.join(root, 'src', 'data', 'known-names.json');
const before = fs.readFileSync(file, 'utf8');
const sdk = readSdkNames(sdkPackageDir(root));
const historical = (JSON.parse(fs.readFileSync(path.join(root, 'scripts', 'known-names', 'historical-betas.json'), 'utf8')) as { betas: HistoricalBeta[] }).betas;
const { table, notes } = mergeSdkNames(JSON.parse(before) as KnownNamesFile, sdk, '@anthropic-ai/sdk', historical);
const after = formatTable(table);

console.log(`@anthropic-ai/sdk ${sdk.version}${sdk.published ? ` (${sdk.published})` : ''}, anthropic-version ${sdk.apiVersion ?? 'unknown'}: ${sdk.betas.length} betas in AnthropicBeta, ${sdk.models.length} models, ${new Set([...sdk.toolTypes, ...sdk.betaToolTypes]).size} tool types, ${sdk.editTypes.length} edit types, ${new Set([...sdk.contentBlockTypes, ...sdk.betaContentBlockTypes]).size} content block types, ${sdk.agentConfigTypes.length} Managed Agents agent-configuration types`);
for (const n of notes) if (!n.startsWith('kept ')) console.log(`  ${n}`);
if (after === before) {
  console.log('src/data/known-names.json is up to date');
} else if (check) {
  console.error('src/data/known-names.json is not up to date with the installed SDK: run `npm run known-names`');
  process.exitCode = 1;
} else {
  fs.writeFileSync(file, after);
  console.log('updated src/data/known-names.json (fill in what the notes above ask for from the docs)');
}
