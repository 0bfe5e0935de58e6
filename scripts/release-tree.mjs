// @ts-check
/**
 * The tree of a release tag: `node scripts/release-tree.mjs <out-dir> [--tarball <file.tgz>]`.
 *
 * A release tag (`v0.1.0`) is what `uses: prefixlint/prefixlint@v0.1.0` (the GitHub Action) and
 * `rev: v0.1.0` (pre-commit) check out. Both run the CLI straight from that checkout, with no
 * install step and no network, so the tag's tree is the npm package itself (the bundles, the
 * WASM grammars, README, CHANGELOG, LICENSE) plus `action.yml` and `.pre-commit-hooks.yaml`,
 * and a package.json without scripts or devDependencies: installing it from git runs nothing
 * and needs nothing. The main branch stays free of generated files; the release workflow
 * (.github/workflows/release.yml) commits this tree on top of main's head and tags it.
 *
 * Without --tarball the package is packed first (`npm pack`, which builds it). With --tag, the
 * tree is committed on top of HEAD of the git repository in the current folder (without touching
 * its working tree, index or branches) and tagged v<version>; the workflow then pushes the tag.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Files of the repository that the tag carries besides the package. */
export const RELEASE_EXTRAS = ['action.yml', '.pre-commit-hooks.yaml'];

/**
 * Writes the release tree of `tarball` (or of a fresh `npm pack`) into `out`, which must not
 * exist or be empty. Returns the package.json written.
 * @param {string} out
 * @param {{ tarball?: string }} [options]
 */
export function releaseTree(out, options = {}) {
  if (fs.existsSync(out) && fs.readdirSync(out).length) throw new Error(`${out} is not empty`);
  fs.mkdirSync(out, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-release-'));
  try {
    let tarball = options.tarball;
    if (!tarball) {
      const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', scratch], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
      tarball = path.join(scratch, packed[0].filename);
    }
    // npm packs into a top-level `package/` folder.
    execFileSync('tar', ['-xzf', path.resolve(tarball), '-C', out, '--strip-components=1']);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const manifestFile = path.join(out, 'package.json');
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
  // A git install of the tag must run no script (pre-commit installs it without devDependencies).
  delete manifest.scripts;
  delete manifest.devDependencies;
  delete manifest.overrides;
  fs.writeFileSync(manifestFile, JSON.stringify(manifest, null, 2) + '\n');
  for (const extra of RELEASE_EXTRAS) fs.copyFileSync(path.join(root, extra), path.join(out, extra));
  return manifest;
}

/**
 * Commits `tree` as a child of HEAD in the repository at `repo` and tags the commit
 * v<version>, through a temporary index: the repository's working tree, index and branches
 * stay as they are. Returns the commit id.
 * @param {string} tree
 * @param {string} repo
 * @param {string} version
 */
export function tagRelease(tree, repo, version) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-release-index-'));
  try {
    const env = { ...process.env, GIT_INDEX_FILE: path.join(scratch, 'index') };
    /** @param {string[]} args */
    const git = (args) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' }).trim();
    // -f: the repository's .gitignore leaves out dist/, which is what the tag is for.
    git(['--work-tree', path.resolve(tree), 'add', '-A', '-f', '.']);
    const id = git(['write-tree']);
    const commit = git(['commit-tree', id, '-p', 'HEAD', '-m', `prefixlint ${version}\n\nThe release tree (scripts/release-tree.mjs): the npm package, action.yml and .pre-commit-hooks.yaml.`]);
    git(['tag', `v${version}`, commit]);
    return commit;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--tarball');
  const tarball = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const tag = args.includes('--tag');
  const rest = args.filter((a) => a !== '--tag');
  if (rest.length !== 1) {
    console.error('usage: node scripts/release-tree.mjs <out-dir> [--tarball <file.tgz>] [--tag]');
    process.exit(2);
  }
  const manifest = releaseTree(path.resolve(rest[0]), { tarball });
  console.log(`${rest[0]}: the release tree of ${manifest.name} ${manifest.version}`);
  if (tag) console.log(`v${manifest.version}: ${tagRelease(rest[0], process.cwd(), manifest.version)}`);
}
