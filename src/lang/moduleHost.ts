/**
 * What the front ends' module resolution shares: answers kept for the life of a ModuleHost (the
 * workspace gives a new host whenever what exists may have changed), and candidate paths built
 * as strings.
 */
import * as path from 'node:path';
import type { ModuleHost } from './frontEnd';

/**
 * A map of answers per host, by a key of the caller's (a folder): read from what the host says
 * exists, so kept as long as the host is, and dropped with it.
 */
export function answersPerHost<V>(): (host: ModuleHost) => Map<string, V> {
  const byHost = new WeakMap<ModuleHost, Map<string, V>>();
  return (host) => {
    let answers = byHost.get(host);
    if (!answers) byHost.set(host, (answers = new Map()));
    return answers;
  };
}

/**
 * `name` (plain names joined by the separator) inside `folder`, an absolute folder as
 * path.dirname or path.resolve give it: joined as a string, without normalising again (module
 * resolution builds tens of thousands of candidates in a run; path.join was a tenth of its
 * allocation).
 */
export function inFolder(folder: string, name: string): string {
  return folder.endsWith(path.sep) ? folder + name : folder + path.sep + name;
}
