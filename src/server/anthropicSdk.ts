/**
 * The Anthropic SDK, as a bundle of its own (dist/anthropic-sdk.js): only exact token counts
 * use it, and it is half the size of the rest of the server. exactTokens.ts imports it when a
 * count is first asked for.
 */
import Anthropic from '@anthropic-ai/sdk';

export default Anthropic;
