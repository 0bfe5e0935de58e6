/** The rule registry, written by `npm run docs` from the files of this folder (do not edit). */
import type { Rule } from '../core/rule';
import automaticBreakpointConflict from './automatic-breakpoint-conflict';
import betaNotEnabled from './beta-not-enabled';
import betaParamOnGaClient from './beta-param-on-ga-client';
import breakpointOnVolatileBlock from './breakpoint-on-volatile-block';
import compactionBlockDropped from './compaction-block-dropped';
import dynamicContentBeforeBreakpoint from './dynamic-content-before-breakpoint';
import editOrder from './edit-order';
import emptyTextBreakpoint from './empty-text-breakpoint';
import imagesSlidingWindow from './images-sliding-window';
import memoryPathUnchecked from './memory-path-unchecked';
import nonAtomicCheckpoint from './non-atomic-checkpoint';
import perUserPrefix from './per-user-prefix';
import prefixBelowMinimum from './prefix-below-minimum';
import rejectedByApiVersion from './rejected-by-api-version';
import removedNamespace from './removed-namespace';
import retiredModel from './retired-model';
import staleBeta from './stale-beta';
import systemRebuiltInLoop from './system-rebuilt-in-loop';
import tooManyBreakpoints from './too-many-breakpoints';
import toolResultRemoved from './tool-result-removed';
import trimEveryTurn from './trim-every-turn';
import ttlOrder from './ttl-order';
import unknownBeta from './unknown-beta';
import unknownType from './unknown-type';
import unsafeHistorySlice from './unsafe-history-slice';
import unstableSerialization from './unstable-serialization';
import unsupportedByModel from './unsupported-by-model';
import unusedSuppression from './unused-suppression';
import volatileSystemPrompt from './volatile-system-prompt';
import volatileTools from './volatile-tools';

export const allRules: readonly Rule[] = [
  automaticBreakpointConflict,
  betaNotEnabled,
  betaParamOnGaClient,
  breakpointOnVolatileBlock,
  compactionBlockDropped,
  dynamicContentBeforeBreakpoint,
  editOrder,
  emptyTextBreakpoint,
  imagesSlidingWindow,
  memoryPathUnchecked,
  nonAtomicCheckpoint,
  perUserPrefix,
  prefixBelowMinimum,
  rejectedByApiVersion,
  removedNamespace,
  retiredModel,
  staleBeta,
  systemRebuiltInLoop,
  tooManyBreakpoints,
  toolResultRemoved,
  trimEveryTurn,
  ttlOrder,
  unknownBeta,
  unknownType,
  unsafeHistorySlice,
  unstableSerialization,
  unsupportedByModel,
  unusedSuppression,
  volatileSystemPrompt,
  volatileTools,
];
