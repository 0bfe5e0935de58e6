/**
 * The linted project's own Anthropic SDKs: `node_modules/@anthropic-ai/sdk` found from a file's
 * folder up, and the `anthropic` package of a Python environment (`.venv`, `venv`, or the
 * site-packages of a configured interpreter). Their declared names (betas, models, tool, edit and
 * content block types) count as known, so a project on a newer SDK than prefixlint's table gets
 * no finding on names only that SDK knows. Files are read through the host and parsed with the
 * engine's parsers; nothing of the project is run. One module for the CLI and the language
 * server: they call it through ConfigResolver.
 */
import * as path from 'node:path';
import type { ProjectSdkNames, SdkHost, SdkLocation } from '../core/knownNames';

export type { SdkHost, SdkLocation } from '../core/knownNames';

/**
 * What reading an SDK needs of the engine: its language front ends read the declarations
 * (lang/parsers.ts `Parsers` offers this).
 */
export interface DeclarationParser {
  /** The version of the SDK package at the location, or undefined when it is not the Anthropic SDK. */
  sdkVersion(host: SdkHost, at: SdkLocation): string | undefined;
  /** The names the SDK declares. */
  sdkNames(host: SdkHost, at: SdkLocation, version: string): ProjectSdkNames;
}

/**
 * Reads SDKs' names, cached by package folder and version (an upgrade in place is seen the next
 * time a resolver looks; the version file is small and read each time).
 */
export class ProjectSdkReader {
  private readonly cache = new Map<string, ProjectSdkNames | null>();

  constructor(private readonly parser: DeclarationParser) {}

  read(host: SdkHost, at: SdkLocation): ProjectSdkNames | undefined {
    // A package that does not look like the SDK we know gives no names, never a failure.
    try {
      const version = this.parser.sdkVersion(host, at);
      if (!version) return undefined;
      const key = `${at.dir}\0${version}`;
      let names = this.cache.get(key);
      if (names === undefined) {
        try {
          names = this.parser.sdkNames(host, at, version);
        } catch {
          names = null;
        }
        this.cache.set(key, names);
      }
      return names ?? undefined;
    } catch {
      return undefined;
    }
  }
}

/** What one folder holds of the SDK search: its own `node_modules` SDK, its Python env's, and whether the search stops there. */
export interface FolderSdks {
  js?: SdkLocation;
  py?: SdkLocation;
  /** The folder holds `.git` (or is the file system's root). */
  last: boolean;
}

/**
 * The SDK locations that serve files in `dir`: the nearest `node_modules/@anthropic-ai/sdk` and
 * the nearest Python environment with `anthropic`, from `dir` up to the folder that holds `.git`.
 * A configured interpreter (absolute) comes before `.venv` / `venv`. `folders` keeps what each
 * folder was found to hold: a run over a repository asks for every one of its folders, and
 * without it each would look into all its parents again.
 */
export function findSdkLocations(host: SdkHost, dir: string, pythonInterpreter?: string, folders?: Map<string, FolderSdks>): SdkLocation[] {
  const out: SdkLocation[] = [];
  let js: SdkLocation | undefined;
  let py: SdkLocation | undefined = pythonInterpreter ? pythonFromInterpreter(host, pythonInterpreter) : undefined;
  for (let d = dir; ; d = path.dirname(d)) {
    let here = folders?.get(d);
    if (!here) {
      here = folderSdks(host, d);
      folders?.set(d, here);
    }
    js ??= here.js;
    py ??= here.py;
    if ((js && py) || here.last) break;
  }
  if (js) out.push(js);
  if (py) out.push(py);
  return out;
}

function folderSdks(host: SdkHost, d: string): FolderSdks {
  const here: FolderSdks = { last: path.dirname(d) === d || host.exists(path.join(d, '.git')) };
  const pkg = path.join(d, 'node_modules', '@anthropic-ai', 'sdk');
  if (host.exists(path.join(pkg, 'package.json'))) here.js = { language: 'javascript', dir: pkg };
  for (const env of ['.venv', 'venv']) {
    const found = pythonFromEnv(host, path.join(d, env));
    if (found) {
      here.py = found;
      break;
    }
  }
  return here;
}

// ------------------------------------------------------------------------------------ Python environments

/** `…/env/bin/python3.12` or `…\env\Scripts\python.exe` -> the env's `anthropic` package. */
function pythonFromInterpreter(host: SdkHost, interpreter: string): SdkLocation | undefined {
  const prefix = path.dirname(path.dirname(interpreter));
  const fromName = /python(\d+\.\d+)/.exec(path.basename(interpreter))?.[1];
  return pythonFromEnv(host, prefix, fromName);
}

function pythonFromEnv(host: SdkHost, env: string, knownVersion?: string): SdkLocation | undefined {
  if (!host.exists(env)) return undefined;
  const candidates: string[] = [path.join(env, 'Lib', 'site-packages')];
  const versions = new Set<string>();
  if (knownVersion) versions.add(knownVersion);
  const cfg = host.readFile(path.join(env, 'pyvenv.cfg'));
  const cfgVersion = cfg && /^\s*(?:version|version_info)\s*=\s*(\d+\.\d+)/m.exec(cfg)?.[1];
  if (cfgVersion) versions.add(cfgVersion);
  for (const name of host.listDir?.(path.join(env, 'lib')) ?? []) {
    const m = /^python(\d+\.\d+)$/.exec(name);
    if (m) versions.add(m[1]);
  }
  for (const v of versions) {
    candidates.push(path.join(env, 'lib', `python${v}`, 'site-packages'), path.join(env, 'lib', `python${v}`, 'dist-packages'), path.join(env, 'local', 'lib', `python${v}`, 'dist-packages'));
  }
  candidates.push(path.join(env, 'lib', 'python3', 'dist-packages'));
  for (const sitePackages of candidates) {
    const pkg = path.join(sitePackages, 'anthropic');
    if (host.exists(path.join(pkg, '_version.py'))) return { language: 'python', dir: pkg };
  }
  return undefined;
}
