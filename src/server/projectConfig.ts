/**
 * The project configuration (.prefixlintrc.json, [tool.prefixlint] in pyproject.toml,
 * "prefixlint" in package.json) in the editor, resolved by the same module as the CLI's.
 */
import * as fs from 'node:fs';
import { ConfigResolver } from '../config/resolve';
import type { ConfigHost } from '../config/resolve';
import { ProjectSdkReader } from '../config/projectSdk';
import type { DeclarationParser } from '../config/projectSdk';
import type { KnownNames } from '../core/knownNames';
import { allRules } from '../rules';
import type { ProjectConfig, ProjectConfigLoader } from './settings';

const diskHost: ConfigHost = {
  readFile(p) {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch {
      return undefined;
    }
  },
  exists: (p) => fs.existsSync(p),
  listDir(p) {
    try {
      return fs.readdirSync(p);
    } catch {
      return undefined;
    }
  },
};

/**
 * A loader that reads the configuration afresh for each analysis (a few small files up the
 * folder chain), so an edited configuration applies on the next change without a restart.
 * A broken configuration applies nothing; `onError` receives its one-line message.
 */
export function projectConfigLoader(host: ConfigHost = diskHost, onError?: (message: string) => void): ProjectConfigLoader {
  // One reader for the server's life: what it read of an SDK stays until that SDK's version changes.
  let sdks: { parser: DeclarationParser; reader: ProjectSdkReader } | undefined;
  const resolver = () => {
    const r = new ConfigResolver(host);
    return sdks ? r.useParsers(sdks.parser, sdks.reader) : r;
  };
  return {
    useParsers(parser: DeclarationParser) {
      sdks = { parser, reader: new ProjectSdkReader(parser) };
    },
    known(fsPath: string): KnownNames | undefined {
      try {
        return resolver().forFile(fsPath).known;
      } catch {
        // A broken configuration is reported by load(); the table's names still apply.
        return undefined;
      }
    },
    load(fsPath: string): ProjectConfig | undefined {
      try {
        const config = resolver().forFile(fsPath);
        if (!config.project) return undefined;
        // The rules the configuration selects (select, ignore, "off" and per-path overrides applied).
        const ids = config.rules.map((r) => r.meta.id);
        if (!ids.length) return { ignore: allRules.map((r) => r.meta.id), severity: {} };
        return { select: ids, severity: { ...config.severity } };
      } catch (err) {
        onError?.(err instanceof Error ? err.message : String(err));
        return undefined;
      }
    },
  };
}
