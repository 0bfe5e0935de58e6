/** The one place that picks a file's front end by its language. */
import type { LanguageId } from '../core/model';
import type { FrontEnd } from './frontEnd';
import { python } from './python';
import { typescript } from './typescript';

export function frontEndFor(language: LanguageId): FrontEnd {
  return language === 'python' ? python : typescript;
}
