/** The one place that picks a file's front end by its language. */
import type { LanguageId } from '../core/model';
import type { FrontEnd } from './frontEnd';
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
