/** The rule registry: an explicit list (a test checks it matches the files in this folder). */
import type { Rule } from '../core/rule';
import automaticBreakpointConflict from './automatic-breakpoint-conflict';
import breakpointOnVolatileBlock from './breakpoint-on-volatile-block';
import dynamicContentBeforeBreakpoint from './dynamic-content-before-breakpoint';
import emptyTextBreakpoint from './empty-text-breakpoint';
import imagesSlidingWindow from './images-sliding-window';
import perUserPrefix from './per-user-prefix';
import prefixBelowMinimum from './prefix-below-minimum';
import systemRebuiltInLoop from './system-rebuilt-in-loop';
import tooManyBreakpoints from './too-many-breakpoints';
import ttlOrder from './ttl-order';
import betaNotEnabled from './beta-not-enabled';
import betaParamOnGaClient from './beta-param-on-ga-client';
import compactionBlockDropped from './compaction-block-dropped';
import editOrder from './edit-order';
import memoryPathUnchecked from './memory-path-unchecked';
import nonAtomicCheckpoint from './non-atomic-checkpoint';
import rejectedByApiVersion from './rejected-by-api-version';
import removedNamespace from './removed-namespace';
import retiredModel from './retired-model';
import staleBeta from './stale-beta';
import toolResultRemoved from './tool-result-removed';
import trimEveryTurn from './trim-every-turn';
import unknownBeta from './unknown-beta';
import unknownType from './unknown-type';
import unsafeHistorySlice from './unsafe-history-slice';
import unstableSerialization from './unstable-serialization';
import unsupportedByModel from './unsupported-by-model';
import unusedSuppression from './unused-suppression';
import volatileSystemPrompt from './volatile-system-prompt';
import volatileTools from './volatile-tools';

export const allRules: readonly Rule[] = [
  volatileSystemPrompt,
  volatileTools,
  dynamicContentBeforeBreakpoint,
  breakpointOnVolatileBlock,
  tooManyBreakpoints,
  prefixBelowMinimum,
  perUserPrefix,
  systemRebuiltInLoop,
  ttlOrder,
  emptyTextBreakpoint,
  automaticBreakpointConflict,
  imagesSlidingWindow,
  unstableSerialization,
  unsafeHistorySlice,
  unknownBeta,
  unknownType,
  betaNotEnabled,
  toolResultRemoved,
  compactionBlockDropped,
  trimEveryTurn,
  editOrder,
  betaParamOnGaClient,
  removedNamespace,
  staleBeta,
  retiredModel,
  unsupportedByModel,
  rejectedByApiVersion,
  nonAtomicCheckpoint,
  memoryPathUnchecked,
  unusedSuppression,
];
