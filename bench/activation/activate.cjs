/**
 * Loads dist/extension.js in a fresh Node with its `vscode` module stubbed and runs activate()
 * until it resolves; prints {"loaded": ms, "activated": ms} (both from before the load) and
 * exits, ending the server thread activate() started. `node activate.cjs <dist> <vscode version>`.
 *
 * The stub: every namespace, class and enum of the API the bundle names is a function-like
 * object whose members, calls and constructions give such objects again; it is never a thenable
 * (so awaiting one does not hang), and assignments to it are accepted.
 */
'use strict';
const Module = require('module');
const path = require('path');
const fs = require('fs');

const [given, version] = process.argv.slice(2);
const dist = path.resolve(given);
const bundle = path.join(dist, 'extension.js');
const handler = {
  get: (_target, key) => (key === 'then' ? undefined : key === 'prototype' ? {} : key === Symbol.toPrimitive ? () => '' : key === Symbol.iterator ? function* () {} : stub()),
  apply: () => stub(),
  construct: () => stub(),
  set: () => true,
  defineProperty: () => true,
};
function stub() {
  return new Proxy(function () {}, handler);
}
// What the bundle reads of the API (`vscode.window`, `code.Range`, ...): a namespace import is
// copied member by member, so the stub names each one.
const names = new Set(['window', 'workspace', 'languages', 'commands', 'env', 'extensions', 'notebooks', 'l10n']);
for (const m of fs.readFileSync(bundle, 'utf8').matchAll(/\b(?:vscode|import_vscode|code)\w*\.([A-Za-z]\w*)/g)) names.add(m[1]);
const vscode = Object.fromEntries([...names].map((n) => [n, stub()]));
vscode.version = version;
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'vscode' ? vscode : load.call(this, request, ...rest);
};

const t0 = process.hrtime.bigint();
const ms = () => Number(process.hrtime.bigint() - t0) / 1e6;
const ext = require(bundle);
const loaded = ms();
const context = { subscriptions: [], asAbsolutePath: (p) => path.join(dist, '..', p), secrets: stub(), extensionUri: stub(), globalState: stub(), workspaceState: stub() };
ext.activate(context).then(
  () => {
    process.stdout.write(JSON.stringify({ loaded, activated: ms() }));
    process.exit(0);
  },
  (err) => {
    process.stderr.write(`activate() failed: ${err && err.stack ? err.stack : err}\n`);
    process.exit(1);
  },
);
