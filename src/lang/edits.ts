/** The edit primitives for a file: its language's implementation of src/core/edits.ts. */
import type { EditBuilder } from '../core/edits';
import { PythonEdits } from './python/edits';
import { TypeScriptEdits } from './typescript/edits';
import type { FileUnit } from './workspace';

export function editBuilderFor(unit: FileUnit): EditBuilder {
  return unit.adapter.family === 'python' ? new PythonEdits(unit) : new TypeScriptEdits(unit);
}
