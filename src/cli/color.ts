/** ANSI styling for terminal output, off unless the stream is a terminal (or FORCE_COLOR is set). */

export interface Colors {
  enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  underline(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  green(s: string): string;
}

const style =
  (enabled: boolean, open: number, close: number) =>
  (s: string): string =>
    enabled && s ? `\u001b[${open}m${s}\u001b[${close}m` : s;

export function createColors(enabled: boolean): Colors {
  return {
    enabled,
    bold: style(enabled, 1, 22),
    dim: style(enabled, 2, 22),
    underline: style(enabled, 4, 24),
    red: style(enabled, 31, 39),
    yellow: style(enabled, 33, 39),
    cyan: style(enabled, 36, 39),
    green: style(enabled, 32, 39),
  };
}

/** NO_COLOR (https://no-color.org) and `--no-color` turn colour off; FORCE_COLOR turns it on. */
export function colorWanted(stream: { isTTY?: boolean }, noColorFlag: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  if (noColorFlag || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return stream.isTTY === true;
}
