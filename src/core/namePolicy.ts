/**
 * What to say about a dated name (a beta header, a tool or edit type) that is not known, and
 * which fix is safe. The table lags the API: a well-formed name dated near or after the table's
 * date may be new, so it is a warning with no fix. A fix is safe only when it keeps both the
 * feature and the date (a misspelling, the other namespace's spelling, a badly written date);
 * a fix that changes the date may turn a new valid name into an old one, so it is unsafe.
 */
import { closeNames } from './knownNames';

export type Spelling = 'beta' | 'type';

/**
 * SDKs add a beta to their unions up to months after the date in its name (the 2026-08-21 table
 * lacked six names dated up to 51 days before it; `context-management-2025-06-27` reached the
 * TypeScript SDK 110 days after its date). Names dated after the table's date minus this many
 * days may be real and newer than the table.
 */
export const RECENT_DAYS = 180;

export interface DatedName {
  /** `interleaved-thinking`, `web_search`. */
  feature: string;
  /** YYYY-MM-DD, when the name ends in a valid date in any spelling. */
  date?: string;
  /** Spelled by the convention of its namespace: `feature-YYYY-MM-DD` or `feature_YYYYMMDD`. */
  wellFormed: boolean;
}

const BETA_SHAPE = /^([a-z0-9]+(?:-[a-z0-9]+)*)-(\d{4})-(\d{2})-(\d{2})$/;
const TYPE_SHAPE = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)*)_(\d{4})(\d{2})(\d{2})$/;
/** A date at the end in any separator style, with one- or two-digit month and day. */
const ANY_DATE = /^(.*?)[-_]?(\d{4})[-_]?(\d{1,2})[-_]?(\d{1,2})$/;

function validDate(y: string, m: string, d: string): string | undefined {
  const date = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== date ? undefined : date;
}

export function parseDatedName(name: string, spelling: Spelling): DatedName {
  const shape = (spelling === 'beta' ? BETA_SHAPE : TYPE_SHAPE).exec(name);
  if (shape) {
    const date = validDate(shape[2], shape[3], shape[4]);
    if (date) return { feature: shape[1], date, wellFormed: true };
  }
  // Compact dates (`20250219`) match here too: the lazy feature part leaves the digits to the date.
  const loose = ANY_DATE.exec(name);
  if (loose && loose[1]) {
    const date = validDate(loose[2], loose[3], loose[4]);
    if (date) return { feature: loose[1].replace(/[-_]+$/, ''), date, wellFormed: false };
  }
  return { feature: name, wellFormed: false };
}

/** The name spelled by the namespace's convention, e.g. `interleaved-thinking-2025-5-14` -> `interleaved-thinking-2025-05-14`. */
export function canonicalSpelling(name: string, spelling: Spelling): string | undefined {
  const p = parseDatedName(name, spelling);
  if (!p.date) return undefined;
  const [y, m, d] = p.date.split('-');
  return spelling === 'beta' ? `${p.feature.replace(/_/g, '-')}-${y}-${m}-${d}` : `${p.feature.replace(/-/g, '_')}_${y}${m}${d}`;
}

export interface NameVerdict {
  /**
   * - `respelled`: the known name in the namespace's spelling (same feature, same date);
   * - `misspelled`: one known name of the same date, a few letters away;
   * - `misdated`: one known name a few letters away, with another date;
   * - `recent`: well formed and dated near or after the table: may be newer than the table;
   * - `unknown`: none of those.
   */
  kind: 'respelled' | 'misspelled' | 'misdated' | 'recent' | 'unknown';
  /** The close known names (one when the fix has a single target). */
  suggestions: string[];
  /** The applicability of replacing the name with `suggestions[0]`, when a fix is offered. */
  fix?: 'safe' | 'unsafe';
}

export interface VerdictOptions {
  spelling: Spelling;
  /** The table's date, YYYY-MM-DD. */
  asOf: string;
  /** Edit distance for "close". */
  maxDistance: number;
  /** Known names of the other namespace's spelling checked first (a type used as a beta, or the reverse). */
  otherSpelling?: (name: string) => string | undefined;
}

function isRecent(date: string, asOf: string): boolean {
  return Date.parse(date) > Date.parse(asOf) - RECENT_DAYS * 86_400_000;
}

/**
 * closeNames over a table, kept per table: the same unknown name is judged on every analysis
 * of a file (each keystroke in an editor), and each judgement measures its distance to every
 * known name. The tables are never changed once made.
 */
const closeByTable = new WeakMap<object, Map<string, readonly string[]>>();

function closeKnownNames(name: string, known: ReadonlySet<string> | ReadonlyMap<string, unknown>, max: number): string[] {
  let byName = closeByTable.get(known);
  if (!byName) closeByTable.set(known, (byName = new Map()));
  const key = `${max}\u0000${name}`;
  let close = byName.get(key);
  if (!close) {
    close = closeNames(name, known.keys(), max);
    // Bounded: a file's names are few, but a table lives as long as its configuration.
    if (byName.size >= 4096) byName.clear();
    byName.set(key, close);
  }
  return [...close];
}

/** The verdict on a name that is not in `known`. */
export function judgeUnknownName(name: string, known: ReadonlySet<string> | ReadonlyMap<string, unknown>, opts: VerdictOptions): NameVerdict {
  const other = opts.otherSpelling?.(name);
  if (other && known.has(other)) return { kind: 'respelled', suggestions: [other], fix: 'safe' };
  const canonical = canonicalSpelling(name, opts.spelling);
  if (canonical && canonical !== name && known.has(canonical)) return { kind: 'respelled', suggestions: [canonical], fix: 'safe' };

  const parsed = parseDatedName(name, opts.spelling);
  const suggestions = closeKnownNames(name, known, opts.maxDistance);
  if (suggestions.length === 1) {
    const target = parseDatedName(suggestions[0], opts.spelling);
    if (target.date === parsed.date) return { kind: 'misspelled', suggestions, fix: 'safe' };
  }
  if (parsed.wellFormed && parsed.date && isRecent(parsed.date, opts.asOf)) return { kind: 'recent', suggestions };
  if (suggestions.length === 1) return { kind: 'misdated', suggestions, fix: 'unsafe' };
  return { kind: 'unknown', suggestions };
}
