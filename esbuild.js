// @ts-check
/**
 * Builds the bundles into dist/ and copies the tree-sitter WASM files next to them (the
 * parsers module looks for them beside the bundle, via __dirname).
 *
 *   node esbuild.js            build every bundle once
 *   node esbuild.js --watch    rebuild on change
 *
 * A bundle is one entry in BUNDLES; the extension and language server bundles are added there.
 */
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const root = __dirname;
const dist = path.join(root, 'dist');

/**
 * @typedef {object} Bundle
 * @property {string} name
 * @property {string} entry
 * @property {string} outfile
 * @property {string} [banner]     first line of the output (a shebang for executables)
 * @property {string} [footer]     last line of the output
 * @property {boolean} [executable]
 * @property {string[]} [external] modules the host provides (e.g. 'vscode' for the extension)
 * @property {string[]} [forbidden] modules that must never reach this bundle
 * @property {Record<string, string>} [elsewhere] imports (as written) that are another bundle
 *   of dist/, loaded at run time: `{ './core': './server-core.js' }`
 */

/** @type {Bundle[]} */
const BUNDLES = [
  // The command (dist/cli.js) is a loader of the CLI's bundle (src/cli/bin.ts says why).
  {
    name: 'bin',
    entry: 'src/cli/bin.ts',
    outfile: 'dist/cli.js',
    banner: '#!/usr/bin/env node',
    executable: true,
    forbidden: ['vscode'],
  },
  { name: 'cli', entry: 'src/cli/main.ts', outfile: 'dist/cli-main.js', forbidden: ['vscode'] },
  // The server is three bundles: the LSP connection (which answers `initialize` at once), the
  // server proper (which it loads then, src/server/main.ts), and the Anthropic SDK (which exact
  // token counts load).
  { name: 'server', entry: 'src/server/main.ts', outfile: 'dist/server.js', forbidden: ['vscode'] },
  { name: 'server-core', entry: 'src/server/core.ts', outfile: 'dist/server-core.js', forbidden: ['vscode'], elsewhere: { '@anthropic-ai/sdk': './anthropic-sdk.js' } },
  // Its module.exports is the SDK's default export, as `import()` of a CommonJS file gives that.
  { name: 'anthropic-sdk', entry: 'src/server/anthropicSdk.ts', outfile: 'dist/anthropic-sdk.js', forbidden: ['vscode'], footer: 'module.exports = module.exports.default;' },
  { name: 'extension', entry: 'src/client/extension.ts', outfile: 'dist/extension.js', external: ['vscode'] },
];

/**
 * [package-relative source in node_modules, name in dist/]: the parser's runtime (its script is
 * run once per runtime, src/lang/treeSitterRuntime.ts, so it is not bundled) and the grammars.
 */
const WASM_FILES = [
  ['web-tree-sitter', 'web-tree-sitter.cjs'],
  ['web-tree-sitter/web-tree-sitter.wasm', 'web-tree-sitter.wasm'],
  ['tree-sitter-python/tree-sitter-python.wasm', 'tree-sitter-python.wasm'],
  ['tree-sitter-typescript/tree-sitter-typescript.wasm', 'tree-sitter-typescript.wasm'],
  ['tree-sitter-typescript/tree-sitter-tsx.wasm', 'tree-sitter-tsx.wasm'],
  ['tree-sitter-javascript/tree-sitter-javascript.wasm', 'tree-sitter-javascript.wasm'],
];

/**
 * Fails the build when a forbidden module is imported anywhere in the bundle's graph, naming
 * the file that imports it.
 * @param {string} bundle
 * @param {string[]} modules
 * @returns {import('esbuild').Plugin}
 */
function forbidImports(bundle, modules) {
  const escaped = modules.map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const filter = new RegExp(`^(?:${escaped.join('|')})(?:/.*)?$`);
  return {
    name: 'forbid-imports',
    setup(build) {
      build.onResolve({ filter }, (args) => ({
        errors: [
          {
            text: `'${args.path}' must not be imported into the ${bundle} bundle (imported from ${path.relative(root, args.importer) || args.importer})`,
          },
        ],
      }));
    },
  };
}

/**
 * Makes the imports named in `elsewhere` (as written in the sources) run-time requires of
 * another bundle beside this one.
 * @param {Record<string, string>} elsewhere
 * @returns {import('esbuild').Plugin}
 */
function otherBundles(elsewhere) {
  const escaped = Object.keys(elsewhere).map((m) => m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const filter = new RegExp(`^(?:${escaped.join('|')})$`);
  return {
    name: 'other-bundles',
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: elsewhere[args.path], external: true }));
    },
  };
}

const IMPORT_META_SHIM = 'prefixlint:import-meta-url';

/**
 * A virtual module, injected into every bundle, that gives `import.meta.url` a value in CJS.
 * @returns {import('esbuild').Plugin}
 */
function importMetaShim() {
  return {
    name: 'import-meta-url',
    setup(build) {
      build.onResolve({ filter: /^prefixlint:import-meta-url$/ }, (args) => ({ path: args.path, namespace: 'shim' }));
      build.onLoad({ filter: /.*/, namespace: 'shim' }, () => ({
        contents: "export const import_meta_url = require('node:url').pathToFileURL(__filename).href;",
        loader: 'js',
      }));
    },
  };
}

/**
 * @param {Bundle} b
 * @returns {import('esbuild').BuildOptions}
 */
function buildOptions(b) {
  return {
    absWorkingDir: root,
    entryPoints: [b.entry],
    outfile: b.outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    // The ESM builds first: some packages' UMD "main" hides its requires from the bundler.
    mainFields: ['module', 'main'],
    external: b.external ?? [],
    banner: b.banner ? { js: b.banner } : undefined,
    footer: b.footer ? { js: b.footer } : undefined,
    // ESM dependencies may ask `import.meta.url` where they are; in the CJS
    // bundle that is the bundle file itself.
    define: { 'import.meta.url': 'import_meta_url' },
    inject: [IMPORT_META_SHIM],
    plugins: [importMetaShim(), ...(b.elsewhere ? [otherBundles(b.elsewhere)] : []), ...(b.forbidden?.length ? [forbidImports(b.name, b.forbidden)] : [])],
    logLevel: 'warning',
  };
}

function copyWasm() {
  fs.mkdirSync(dist, { recursive: true });
  for (const [from, to] of WASM_FILES) {
    const src = require.resolve(from, { paths: [root] });
    fs.copyFileSync(src, path.join(dist, to));
  }
}

/**
 * Replaces the characters outside ASCII that esbuild leaves in the bundle's comments (it escapes
 * them in strings, templates and patterns, not in the doc comments it keeps) with `-`, one code
 * unit for one, so that every column of the source map stays right. Why: V8 holds a script that
 * has a single character outside Latin-1 as two bytes per character: a bundle of 1.4 MB took 2.8 MB
 * in every isolate that loads it (the CLI's main thread and each lint worker), 1.4 MB more each.
 * A character found outside a comment line fails the build rather than being changed.
 * @param {string} file
 */
function asciiComments(file) {
  const text = fs.readFileSync(file, 'utf8');
  if (!/[\u0080-\uffff]/.test(text)) return;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/[\u0080-\uffff]/.test(lines[i])) continue;
    if (!/^\s*(?:\/\/|\/\*|\*)/.test(lines[i])) throw new Error(`${path.relative(root, file)}:${i + 1}: a character outside ASCII that is not in a comment line`);
    lines[i] = lines[i].replace(/[\u0080-\uffff]/g, '-');
  }
  fs.writeFileSync(file, lines.join('\n'));
}

/** @param {Bundle} b */
function finish(b) {
  asciiComments(path.join(root, b.outfile));
  if (b.executable) fs.chmodSync(path.join(root, b.outfile), 0o755);
}

async function main() {
  const watch = process.argv.includes('--watch');
  copyWasm();
  if (watch) {
    for (const b of BUNDLES) {
      const ctx = await esbuild.context({
        ...buildOptions(b),
        plugins: [
          ...(buildOptions(b).plugins ?? []),
          { name: 'finish', setup: (build) => build.onEnd((r) => (r.errors.length ? undefined : finish(b))) },
        ],
      });
      await ctx.watch();
    }
    console.log('watching for changes...');
    return;
  }
  for (const b of BUNDLES) {
    await esbuild.build(buildOptions(b));
    finish(b);
  }
}

module.exports = { BUNDLES, WASM_FILES, buildOptions, forbidImports, asciiComments };

if (require.main === module) {
  main().catch(() => {
    // esbuild has already printed the errors.
    process.exitCode = 1;
  });
}
