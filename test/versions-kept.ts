/**
 * How many of an editor buffer's versions stay reachable after typing: run by
 * statement-index.test.ts in a process of its own (in vitest's worker threads the collector left
 * weak references set). Prints the count as JSON, with a control object that must be collected.
 */
import { editorFile } from '../bench/corpus';
import { frontEndFor } from '../src/lang/frontEnds';
import { Parsers } from '../src/lang/parsers';
import { Workspace } from '../src/lang/workspace';
import { heapCollector } from '../src/host/heap';

const VERSIONS = 30;

/** Types into one buffer; weak references to each version's tree. */
function typed(workspace: Workspace): Array<WeakRef<object>> {
  let text = editorFile('python', 20261204).slice(0, 20_000);
  const trees: Array<WeakRef<object>> = [];
  for (let k = 0; k < VERSIONS; k++) {
    const at = 400 + k * 53;
    text = text.slice(0, at) + 'x' + text.slice(at);
    workspace.edited('typed.py', text, 'python');
    const unit = workspace.setText('typed.py', text, 'python');
    unit.nodesOfTypes(frontEndFor('python').adapter.functionTypes);
    trees.push(new WeakRef(unit.tree));
  }
  return trees;
}

async function main(): Promise<void> {
  const collect = heapCollector();
  if (!collect) throw new Error('no collector');
  const workspace = new Workspace(await Parsers.load(), { readFile: () => undefined });
  const trees = typed(workspace);
  const control = ((): WeakRef<object> => new WeakRef({ a: [1, 2, 3] }))();
  await new Promise((resolve) => setTimeout(resolve, 0));
  collect('full');
  process.stdout.write(JSON.stringify({ versions: VERSIONS, alive: trees.filter((t) => t.deref() !== undefined).length, control: control.deref() !== undefined }) + '\n');
}

void main();
