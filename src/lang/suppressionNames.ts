/** What the suppression-comment parsers of every language share: the rule-id list and its ranges. */
import type { SuppressionName } from '../core/suppress';

/** A comma-separated list of rule ids. */
export const NAME_LIST = /^[A-Za-z0-9_-]+(?:[ \t]*,[ \t]*[A-Za-z0-9_-]+)*/;

/** The rule ids of a list, with their offsets. */
export function suppressionNames(list: string, offset: number): SuppressionName[] {
  return [...list.matchAll(/[A-Za-z0-9_-]+/g)].map((m) => ({ name: m[0], start: offset + m.index, end: offset + m.index + m[0].length }));
}
