/**
 * The language server proper (dist/server-core.js): the LSP handlers and the engine behind
 * them. dist/server.js (main.ts) loads it once it has answered `initialize`.
 */
export { startServer } from './server';
