/** The one place that picks a file's front end by its language. */
import type { LanguageId } from '../core/model';
import type { FrontEnd, ImportedName } from './frontEnd';
import { python } from './python';
import { typescript } from './typescript';
import { pythonSdkNames, pythonSdkVersion } from './python/sdkNames';
import { typescriptSdkNames, typescriptSdkVersion } from './typescript/sdkNames';

export function frontEndFor(language: LanguageId): FrontEnd {
  return language === 'python' ? python : typescript;
}

/** The reader of an installed SDK's declarations, by the SDK's ecosystem. */
export function sdkReaderFor(ecosystem: 'python' | 'javascript'): { version: typeof pythonSdkVersion; names: typeof pythonSdkNames } {
  return ecosystem === 'python' ? { version: pythonSdkVersion, names: pythonSdkNames } : { version: typescriptSdkVersion, names: typescriptSdkNames };
}

/**
 * Texts whose imports importedNamesOf keeps (the modules a few analyses in a row look at), and
 * their characters in all (the texts are the keys, so the texts themselves are kept). The parsed
 * files and the module texts read for their functions are kept elsewhere with a megabyte each;
 * on the real-code corpus (2 threads, 6 alternating runs) 16 texts and 256 K characters here
 * instead of 64 and 1 M took peak RSS from 239–247 MB to 239–246 (median 245 → 242), in the
 * same time.
 */
const KEPT_IMPORT_LISTS = 16;
const KEPT_IMPORT_CHARS = 256 * 1024;
let keptChars = 0;
/** In least recently asked order. */
const importLists = new Map<string, { frontEnd: FrontEnd; names: readonly ImportedName[] }>();

/**
 * What a text imports (ModuleSyntax.importedNames), kept for the last texts asked about: the
 * trigger of a file, its analysis, and the reading of each module it imports ask for the same
 * texts' imports again. The text itself is the key (the same text, the same imports); the lists
 * are shared, never to be changed. `keep` false: the list is found (or taken from those kept)
 * but not kept, for a text read only to be summed up (Workspace.importFacts); kept as a key,
 * such a text outlived the young generation for nothing (real-code corpus, 2 threads, with the
 * text not kept by the host either: 70 MB less promoted to the old generation, 9% of it).
 */
export function importedNamesOf(language: LanguageId, text: string, keep = true): readonly ImportedName[] {
  const frontEnd = frontEndFor(language);
  const kept = importLists.get(text);
  if (!keep) return kept && kept.frontEnd === frontEnd ? kept.names : frontEnd.modules.importedNames(text);
  if (kept) importLists.delete(text);
  else keptChars += text.length;
  const found = kept && kept.frontEnd === frontEnd ? kept : { frontEnd, names: frontEnd.modules.importedNames(text) };
  importLists.set(text, found);
  for (const old of importLists.keys()) {
    if (importLists.size <= KEPT_IMPORT_LISTS && keptChars <= KEPT_IMPORT_CHARS) break;
    if (old === text) break;
    importLists.delete(old);
    keptChars -= old.length;
  }
  return found.names;
}
