/** The Python front end. */
import type { FrontEnd } from '../frontEnd';
import { pythonAdapter } from './adapter';
import { pythonCalls } from './calls';
import { pythonComments } from './comments';
import { pythonFacts } from './facts';
import { pythonStatements } from './statements';
import { pythonLibrary } from './library';
import { pythonModules } from './modules';

export const python: FrontEnd = {
  sdk: 'python',
  adapter: pythonAdapter,
  modules: pythonModules,
  library: pythonLibrary,
  calls: pythonCalls,
  comments: pythonComments,
  facts: pythonFacts,
  statements: pythonStatements,
};
