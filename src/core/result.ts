/** What the analysis of one file gives every surface: its findings, its requests, and why it was not analysed in full. */
import type { Diagnostic } from './diagnostic';
import type { LanguageId, RequestCall } from './model';

export interface FileResult {
  file: string;
  language: LanguageId;
  diagnostics: Diagnostic[];
  calls: RequestCall[];
  /** Set when the file could not be analysed (or only partly): one line for the user. */
  notice?: string;
  /** What the notice is about: syntax errors (analysed what parsed) or an internal failure (nothing analysed). */
  noticeKind?: 'syntax' | 'internal' | 'limit';
  /** Evaluation steps the analysis took (of its budget), for benchmarks and the real-code runs. */
  steps?: number;
}
