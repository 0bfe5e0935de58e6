/**
 * `--format sarif`: a SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/) for
 * GitHub code scanning and other SARIF viewers. One run; the driver lists every rule with its
 * docs as help text and its page as helpUri; each result points at its rule by id and index.
 * Regions are 1-based with UTF-16 columns (`columnKind`), end columns exclusive; notebook
 * results point into the .ipynb file, their fixes replace the JSON text of the cell source.
 */
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { Severity } from '../core/diagnostic';
import { docsUrl, REPOSITORY_URL } from '../core/rule';
import type { Rule } from '../core/rule';
import type { FileOutcome, Finding, PlacedEdit } from './check';
import { createColors } from './color';
import type { Place } from '../engine/document';
import { renderMarkdown } from './markdown';
import { displayPath } from './report';

const LEVEL: Record<Severity, Sarif.Result.level> = { error: 'error', warning: 'warning', info: 'note' };

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const SRCROOT = '%SRCROOT%';

/** A relative path as a URI reference: each segment percent-encoded. */
function uriOf(file: string, cwd: string): string {
  return displayPath(file, cwd).split('/').map(encodeURIComponent).join('/');
}

function region(start: Place, end: Place): Sarif.Region {
  return { startLine: start.line + 1, startColumn: start.column + 1, endLine: end.line + 1, endColumn: end.column + 1 };
}

function replacement(e: PlacedEdit): Sarif.Replacement {
  return { deletedRegion: region(e.start, e.end), insertedContent: { text: e.newText } };
}

function driverRule(rule: Rule): Sarif.ReportingDescriptor {
  const m = rule.meta;
  return {
    id: m.id,
    name: m.id,
    shortDescription: { text: m.summary },
    fullDescription: { text: m.summary },
    help: { text: renderMarkdown(m.docs, createColors(false)), markdown: m.docs },
    helpUri: docsUrl(m.id),
    defaultConfiguration: { level: LEVEL[m.severity] },
    properties: { tags: [m.group], group: m.group, fix: m.fix },
  };
}

function result(f: Finding, uri: string, ruleIndex: Map<string, number>, cwd: string): Sarif.Result {
  const d = f.diagnostic;
  const artifactLocation: Sarif.ArtifactLocation = { uri, uriBaseId: SRCROOT };
  const r: Sarif.Result = {
    ruleId: d.ruleId,
    ruleIndex: ruleIndex.get(d.ruleId) ?? -1,
    level: LEVEL[d.severity],
    message: { text: d.message },
    locations: [{ physicalLocation: { artifactLocation, region: region(f.start, f.end) } }],
  };
  // Where the value comes from, the request it reaches: code-scanning UIs link these from the message.
  if (f.related.length) {
    r.relatedLocations = f.related.map((rel, id) => ({
      id,
      message: { text: rel.message },
      physicalLocation: { artifactLocation: { uri: uriOf(rel.file, cwd), uriBaseId: SRCROOT }, region: region(rel.at, rel.end) },
    }));
  }
  if (f.start.cell) r.properties = { cell: f.start.cell.index, cellLine: f.start.cell.line + 1, cellColumn: f.start.cell.column + 1 };
  const edits = f.fix?.fileEdits() ?? [];
  // One artifact change per file the fix touches: SARIF's fix is applied whole.
  const others = (f.fix?.otherFiles ?? []).filter((p) => p.edits.length);
  if (f.fix && (edits.length || others.length) && (edits.length || !f.fix.edits.length)) {
    const artifactChanges: Sarif.ArtifactChange[] = [
      ...(edits.length ? [{ artifactLocation, replacements: edits.map(replacement) }] : []),
      ...others.map((p) => ({ artifactLocation: { uri: uriOf(p.file, cwd), uriBaseId: SRCROOT }, replacements: p.edits.map(replacement) })),
    ];
    r.fixes = [
      {
        description: { text: f.fix.applicability === 'safe' ? f.fix.title : `${f.fix.title} (unsafe fix)` },
        artifactChanges,
        properties: { applicability: f.fix.applicability },
      },
    ];
  }
  return r;
}

export interface SarifInput {
  outcomes: readonly FileOutcome[];
  rules: readonly Rule[];
  cwd: string;
  version: string;
}

export function toSarif({ outcomes, rules, cwd, version }: SarifInput): Sarif.Log {
  const ruleIndex = new Map(rules.map((r, i) => [r.meta.id, i]));
  const results: Sarif.Result[] = [];
  const notifications: Sarif.Notification[] = [];
  for (const o of outcomes) {
    if (!o.findings.length && !o.notices.length) continue;
    const uri = uriOf(o.file, cwd);
    for (const f of o.findings) results.push(result(f, uri, ruleIndex, cwd));
    for (const n of o.notices) {
      notifications.push({
        level: o.crashed ? 'error' : 'warning',
        message: { text: `${displayPath(o.file, cwd)}: ${n}` },
        locations: [{ physicalLocation: { artifactLocation: { uri, uriBaseId: SRCROOT } } }],
      });
    }
  }
  const root = pathToFileURL(cwd.endsWith(path.sep) ? cwd : cwd + path.sep).href;
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'prefixlint',
            version,
            semanticVersion: version,
            informationUri: REPOSITORY_URL,
            rules: rules.map(driverRule),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: root.endsWith('/') ? root : root + '/' } },
        columnKind: 'utf16CodeUnits',
        invocations: [{ executionSuccessful: !outcomes.some((o) => o.crashed), toolExecutionNotifications: notifications }],
        results,
      },
    ],
  };
}
