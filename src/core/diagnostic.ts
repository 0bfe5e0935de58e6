import type { Fix } from './fix';
import type { Loc } from './span';

export type Severity = 'error' | 'warning' | 'info';

export const SEVERITY_RANK: Record<Severity, number> = { info: 1, warning: 2, error: 3 };

export interface Related {
  at: Loc;
  message: string;
}

export interface Diagnostic {
  ruleId: string;
  severity: Severity;
  message: string;
  /** Always in the file being analysed. */
  at: Loc;
  fix?: Fix;
  related: Related[];
}
