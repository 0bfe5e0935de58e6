/**
 * What a rule may ask about other files of the project when the cause of a finding is written
 * there (a prompt built in a module the request imports): the edits it can make in them, the
 * top-level definition that holds a value, and every other use of that definition. A fix that
 * changes a definition is offered only when all its uses are seen and the request is the only one.
 */
import type { EditBuilder } from './edits';
import type { Loc } from './span';

/** A top-level function or constant of a file, by name. */
export interface Definition {
  file: string;
  name: string;
  kind: 'function' | 'constant';
  /** The whole definition statement. */
  at: Loc;
  /** Where its name is written in the definition. */
  nameAt: Loc;
}

/**
 * The uses of a definition besides the one the request makes. `seen: false` when some may not
 * be seen: a file of its project that is not checked, a package's public module, an import this
 * analysis does not follow.
 */
export type OtherUses = { seen: true; others: Loc[] } | { seen: false; why: string };

/** An import statement another file needs for an expression moved into it. */
export interface NeededImport {
  /** The statement as written in the file the expression comes from. */
  statement: string;
}

export interface CrossFileView {
  /** The edit builder of another file (edits in its offsets), or undefined when it cannot be read. */
  edits(file: string): EditBuilder | undefined;
  /** The top-level definition of another file that holds `at` directly (a function's own body, or a constant's value). */
  definitionAround(at: Loc): Definition | undefined;
  /** Uses of `def` other than the one the request makes inside `requestAt` (a request call of the file being analysed). */
  otherUses(def: Definition, requestAt: Loc): OtherUses;
  /**
   * The imports the expression at `at` (in another file) needs to mean the same at `into` in
   * the file being analysed: undefined when it cannot (a name defined in its own file, a
   * relative import from another folder, a name the analysed file binds to something else).
   */
  importsFor(at: Loc, into: Loc): NeededImport[] | undefined;
}
