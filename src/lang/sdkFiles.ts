/**
 * Reading an installed Anthropic SDK's declarations (config/projectSdk.ts finds the packages):
 * what every language's reader shares. Files are read through the host and parsed with the
 * engine's parsers; nothing of the project is run.
 */
import type { SdkHost } from '../core/knownNames';
import type { LanguageId } from '../core/model';
import type { SyntaxNode } from './syntaxTree';

/** A declaration file larger than this is not read (the largest SDK file is ~330 kB). */
const MAX_FILE_BYTES = 4_000_000;
/** At most this many files per SDK (the Python SDK spreads a union over one file per member). */
export const MAX_FILES_PER_SDK = 400;

export type Parse = (lang: LanguageId, text: string) => { rootNode: SyntaxNode };

export function readSmall(host: SdkHost, file: string): string | undefined {
  const text = host.readFile(file);
  return text !== undefined && text.length <= MAX_FILE_BYTES ? text : undefined;
}

export function unique(xs: string[]): string[] {
  return [...new Set(xs)];
}

/**
 * The string value of the first `'anthropic-version': '…'` pair in a client's source files: the
 * API version the SDK sends by default. `pair` and `string` read that language's nodes.
 */
export function defaultApiVersion(host: SdkHost, parse: Parse, dir: string, files: string[], lang: LanguageId, pair: (n: SyntaxNode) => { key: SyntaxNode; value: SyntaxNode } | undefined, string: (n: SyntaxNode) => string | undefined): string | undefined {
  for (const rel of files) {
    const text = readSmall(host, `${dir}/${rel}`);
    if (text === undefined) continue;
    let found: string | undefined;
    parse(lang, text).rootNode.forEachDescendant((n) => {
      if (found) return;
      const p = pair(n);
      if (p && string(p.key) === 'anthropic-version') found = string(p.value);
    });
    if (found) return found;
  }
  return undefined;
}
