/**
 * What a rule may ask about other files of the project when the cause of a finding is written
 * there (a prompt built in a module the request imports): the edits it can make in them, the
 * top-level definition that holds a value, and every other use of that definition. A fix that
 * changes a definition is offered only when all its uses are seen; when the request is not the
 * only one, the fix is unsafe and names the others.
 */
import type { EditBuilder } from './edits';
import type { FileView } from './fileView';
import type { LanguageId } from './model';
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
export type OtherUses = { seen: true; others: Use[] } | { seen: false; why: string };

/** Where a definition's name is written, with its 1-based line (none in a notebook, whose JSON lines mean nothing to a reader). */
export interface Use extends Loc {
  line?: number;
}

/** An import statement another file needs for an expression moved into it. */
export interface NeededImport {
  /** The statement as written in the file the expression comes from. */
  statement: string;
}

/**
 * An expression of another file written to mean the same in the file being analysed: the
 * imports it needs there, and the text to write instead of each parameter of its function
 * that it reads (what the request's call passes for it).
 */
export interface Transplant {
  imports: NeededImport[];
  /** Offsets in the other file, inside the expression. */
  replace: Array<{ start: number; end: number; text: string }>;
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
  /**
   * importsFor, and for an expression in the body of a top-level function of another file that
   * reads the function's parameters: `call`, a call of that function in the file being
   * analysed, supplies them. Each parameter the expression reads is replaced by the argument
   * the call passes for it, which must be a name or an attribute read of one (reading it again
   * at `into`, in the same function as the call, gives the same value); undefined otherwise (a
   * parameter the call does not pass, a spread argument, a parameter assigned again in the
   * function, an argument that calls something).
   */
  transplant(at: Loc, into: Loc, call?: Loc): Transplant | undefined;
  /** The file view and language of another file of the workspace, for a fix that must know what a call there is. */
  view(file: string): { view: FileView; language: LanguageId } | undefined;
}
