/**
 * The one configuration path, for the command line and the editor alike: `configFor(file,
 * overrides)` resolves the project's configuration files for a file (config/resolve.ts), puts
 * the overrides over them (command-line options, or the editor's settings: one more layer, as
 * ruff's server does with its editor settings) and gives what the analyzer takes for that file
 * and the fail level. The project's own SDKs are read with the analyzer's parsers, so that
 * their names count as known in both.
 */
import { CONFIG_FILE_NAMES, ConfigError, ConfigResolver, matches } from '../config/resolve';
import type { ConfigHost, ConfigOverrides } from '../config/resolve';
import { ProjectSdkReader } from '../config/projectSdk';
import type { DeclarationParser } from '../config/projectSdk';
import type { RuleLevel } from '../config/schema';
import type { Severity } from '../core/diagnostic';
import type { KnownNames } from '../core/knownNames';
import type { Rule } from '../core/rule';
import type { AnalyzeOptions } from './analyzer';
import { allRules } from './registry';

export { CONFIG_FILE_NAMES, ConfigError, matches };
export type { ConfigHost, ConfigOverrides, RuleLevel };

/** The configuration in force for one file. */
export interface FileConfig {
  /** For `Analyzer.analyze`: the rules that run, their severities, the known names. */
  analyze: AnalyzeOptions & { rules: Rule[]; severity: Record<string, Severity>; known: KnownNames };
  /** Findings at or above it fail a command-line run. */
  failLevel: Severity;
  /** The configuration files read, highest precedence first; none when the defaults apply. */
  files: string[];
}

export class Configuration {
  private resolver: ConfigResolver;
  private sdkReader?: ProjectSdkReader;

  /**
   * `parser` (the analyzer's parsers) reads the project's own SDKs; without it only the table
   * and the configuration's `known` count.
   */
  constructor(
    private readonly host: ConfigHost,
    private parser?: DeclarationParser,
    private readonly rules: readonly Rule[] = allRules,
  ) {
    this.resolver = this.newResolver();
  }

  /** Reads the project's own SDKs with these parsers from now on (once the analyzer has loaded them). */
  useParsers(parser: DeclarationParser): this {
    this.parser = parser;
    this.clear();
    return this;
  }

  private newResolver(): ConfigResolver {
    const resolver = new ConfigResolver(this.host, this.rules);
    if (!this.parser) return resolver;
    this.sdkReader ??= new ProjectSdkReader(this.parser);
    return resolver.useParsers(this.parser, this.sdkReader);
  }

  /** The configuration for a file (absolute path) with `overrides` over it. Throws ConfigError. */
  configFor(file: string, overrides: ConfigOverrides = {}): FileConfig {
    const c = this.resolver.forFile(file, overrides);
    return { analyze: { rules: c.rules, severity: c.severity, known: c.known }, failLevel: c.failLevel, files: c.project?.files ?? [] };
  }

  /** Whether a file or folder found by walking a folder is left out by its configuration (`exclude`, `include`). */
  excluded(abs: string, isDir: boolean): boolean {
    return this.resolver.excluded(abs, isDir);
  }

  /**
   * A configuration file or a project's SDK changed: everything is resolved again, and the SDKs'
   * names are read again.
   */
  clear(): void {
    this.sdkReader = undefined;
    this.resolver = this.newResolver();
  }
}

/** Whether a changed file can change a configuration: one of the configuration file names, or a file of a project's own SDK. */
export function affectsConfiguration(file: string): boolean {
  const name = file.split(/[\\/]/).pop() ?? '';
  return CONFIG_FILE_NAMES.includes(name) || /[\\/]node_modules[\\/]@anthropic-ai[\\/]sdk[\\/]/.test(file) || /[\\/]site-packages[\\/]anthropic[\\/]/.test(file);
}
