/** The rule registry: an explicit list (a test checks it matches the files in this folder). */
import type { Rule } from '../core/rule';
import betaNotEnabled from './beta-not-enabled';
import unknownBeta from './unknown-beta';
import unknownType from './unknown-type';
import unsafeHistorySlice from './unsafe-history-slice';
import unstableSerialization from './unstable-serialization';
import volatileSystemPrompt from './volatile-system-prompt';
import volatileTools from './volatile-tools';

export const allRules: readonly Rule[] = [
  volatileSystemPrompt,
  volatileTools,
  unstableSerialization,
  unsafeHistorySlice,
  unknownBeta,
  unknownType,
  betaNotEnabled,
];
