/**
 * Which files of a project a run sees: the folders it walked and the source files it found
 * there. A project is the nearest folder above a file that holds a repository or a package
 * manifest; its files are all seen when the run walked that folder (or one above it), so that a
 * definition's every use in the project can be searched for.
 */
import * as path from 'node:path';
import { PROJECT_MARKERS } from '../core/project';
import { discoverFiles, isInside } from './files';

export { PROJECT_MARKERS };

export interface WalkedFiles {
  /** Folders walked whole (absolute paths). */
  folders: readonly string[];
  /**
   * The source files in them (absolute paths); walked when first needed otherwise. Files the
   * configuration excludes from linting are among them: they may still use what a fix changes.
   */
  files?: readonly string[];
}

export class ProjectScope {
  private readonly roots = new Map<string, string | undefined>();

  constructor(
    private readonly walked: WalkedFiles,
    private readonly exists: (absPath: string) => boolean,
  ) {}

  /** The nearest folder above `file` with a project marker, if any. */
  projectRoot(file: string): string | undefined {
    const start = path.dirname(file);
    if (this.roots.has(start)) return this.roots.get(start);
    let root: string | undefined;
    for (let d = start; ; d = path.dirname(d)) {
      if (PROJECT_MARKERS.some((m) => this.exists(path.join(d, m)))) {
        root = d;
        break;
      }
      if (path.dirname(d) === d) break;
    }
    this.roots.set(start, root);
    return root;
  }

  private files?: readonly string[];
  /** Texts of the project's files read for the search of uses, kept while this scope lives (the editor makes a new one when files change on disk). */
  private readonly texts = new Map<string, string | undefined>();

  /** A project file's text on disk, read once per scope. */
  text(file: string, read: (file: string) => string | undefined): string | undefined {
    if (!this.texts.has(file)) this.texts.set(file, read(file));
    return this.texts.get(file);
  }

  /** projectFiles by project root: asked for every method whose callers are searched. */
  private readonly filesByRoot = new Map<string, readonly string[] | undefined>();

  /** The source files of the project of `file` when the run walked all of it, else undefined. */
  projectFiles(file: string): readonly string[] | undefined {
    const root = this.projectRoot(file);
    if (!root) return undefined;
    if (this.filesByRoot.has(root)) return this.filesByRoot.get(root);
    let found: readonly string[] | undefined;
    if (this.walked.folders.some((f) => isInside(root, f))) {
      this.files ??= this.walked.files ?? [...new Set(this.walked.folders.flatMap((f) => discoverFiles([f], f).files))].sort();
      // The files are absolute and normalised, as the root is: inside it means under its path.
      const under = root.endsWith(path.sep) ? root : root + path.sep;
      found = this.files.filter((f) => f.startsWith(under));
    }
    this.filesByRoot.set(root, found);
    return found;
  }
}
