/** The TypeScript, TSX and JavaScript front end. */
import type { FrontEnd } from '../frontEnd';
import { typescriptAdapter } from './adapter';
import { typescriptCalls } from './calls';
import { typescriptComments } from './comments';
import { typescriptFacts } from './facts';
import { typescriptStatements } from './statements';
import { typescriptLibrary } from './library';
import { typescriptModules } from './modules';

export const typescript: FrontEnd = {
  sdk: 'typescript',
  adapter: typescriptAdapter,
  modules: typescriptModules,
  library: typescriptLibrary,
  calls: typescriptCalls,
  comments: typescriptComments,
  facts: typescriptFacts,
  statements: typescriptStatements,
};
