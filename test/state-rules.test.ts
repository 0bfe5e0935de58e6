/**
 * The state rules decide what is state by what the program does (test/fixtures has the rest):
 * a test's files are its own (by the names test runners collect).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisEngine } from '../src/engine/analyzer';
import { analyzer, FIXTURES } from './helpers';

const ROOT = '/srv/project';

const PY = `import json


def save_state(path, state):
    with open(path, "w") as f:
        json.dump(state, f)


def load_state(path):
    with open(path) as f:
        return json.load(f)
`;

const TS = `import * as fs from 'node:fs';

export function saveSession(file: string, session: object): void {
  fs.writeFileSync(file, JSON.stringify(session));
}

export function loadSession(file: string): object {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
`;

let a: AnalysisEngine;
beforeAll(async () => {
  a = await analyzer();
});

const ids = (file: string, text: string) => a.analyze(path.join(ROOT, file), text).diagnostics.map((d) => d.ruleId);

describe('non-atomic-checkpoint, test files and CI scripts', () => {
  it('reports a state file that the program writes in place and reads back', () => {
    expect(ids('agent/state.py', PY)).toEqual(['non-atomic-checkpoint']);
    expect(ids('src/session.ts', TS)).toEqual(['non-atomic-checkpoint']);
  });

  for (const file of ['tests/test_state.py', 'agent/test_state.py', 'agent/state_test.py', 'tests/conftest.py']) {
    it(`leaves ${file} alone`, () => expect(ids(file, PY)).toEqual([]));
  }
  for (const file of ['src/__tests__/session.ts', 'src/session.test.ts', 'src/session.spec.tsx', 'e2e/login.e2e.ts']) {
    it(`leaves ${file} alone`, () => expect(ids(file, TS)).toEqual([]));
  }

  it('leaves the scripts of CI workflows alone: they run on a throwaway checkout', () => {
    expect(ids('.github/scripts/bump_version.py', PY)).toEqual([]);
    expect(ids('.github/actions/release/save.ts', TS)).toEqual([]);
    expect(ids('tools/github/save.ts', TS)).toEqual(['non-atomic-checkpoint']);
  });

  it("leaves a project's evaluation harness alone (its eval/evals/evaluation folder), but not a project that sits under a folder of that name", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-evals-'));
    try {
      for (const [file, text] of [
        ['bench/pyproject.toml', '[project]\nname = "bench"\n'],
        ['bench/evals/state.py', PY],
        ['bench/src/evals/session.ts', TS],
        ['evals/agent/pyproject.toml', '[project]\nname = "agent"\n'],
        ['evals/agent/state.py', PY],
        ['bench/rag/evaluation/vectordb.py', PY],
        ['bench/src/evaluation/store.ts', TS],
      ]) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      }
      const found = (file: string, text: string) => a.analyze(path.join(root, file), text).diagnostics.map((d) => d.ruleId);
      expect(found('bench/evals/state.py', PY)).toEqual([]);
      expect(found('bench/src/evals/session.ts', TS)).toEqual([]);
      expect(found('evals/agent/state.py', PY)).toEqual(['non-atomic-checkpoint']);
      // Named in full, a harness folder; a package's own \`src/evaluation\` module is its code.
      expect(found('bench/rag/evaluation/vectordb.py', PY)).toEqual([]);
      expect(found('bench/src/evaluation/store.ts', TS)).toEqual(['non-atomic-checkpoint']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("leaves the tests' helpers and doubles in a test folder below the project's root alone, not a script kept there nor a project under a folder of that name", () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'prefixlint-tests-'));
    try {
      for (const [file, text] of [
        ['app/package.json', '{ "name": "app" }\n'],
        ['app/src/test/core-stub.ts', TS],
        ['app/e2e/tests/session.skip.ts', `import { test } from '@playwright/test';\n${TS}`],
        ['app/src/session.ts', TS],
        ['svc/pyproject.toml', '[project]\nname = "svc"\n'],
        ['svc/tests/helpers.py', `import pytest\n${PY}`],
        ['svc/tests/mock_store.py', PY],
        ['svc/tests/models/cassettes.py', `from ..conftest import try_import\n${PY}`],
        ['svc/tests/load_benchmark.py', PY],
        ['tests/tool/pyproject.toml', '[project]\nname = "tool"\n'],
        ['tests/tool/state.py', PY],
      ]) {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), text);
      }
      const found = (file: string, text: string) => a.analyze(path.join(root, file), text).diagnostics.map((d) => d.ruleId);
      expect(found('app/src/test/core-stub.ts', TS)).toEqual([]);
      expect(found('app/e2e/tests/session.skip.ts', `import { test } from '@playwright/test';\n${TS}`)).toEqual([]);
      expect(found('svc/tests/helpers.py', `import pytest\n${PY}`)).toEqual([]);
      expect(found('svc/tests/mock_store.py', PY)).toEqual([]);
      // A helper that imports the tests' pytest fixtures (a cassette writer).
      expect(found('svc/tests/models/cassettes.py', `from ..conftest import try_import\n${PY}`)).toEqual([]);
      // A script kept among the tests (a benchmark run by hand) is the program's.
      expect(found('svc/tests/load_benchmark.py', PY)).toEqual(['non-atomic-checkpoint']);
      expect(found('app/src/session.ts', TS)).toEqual(['non-atomic-checkpoint']);
      expect(found('tests/tool/state.py', PY)).toEqual(['non-atomic-checkpoint']);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('goes by the names test runners collect, not by folder: a project under /home/me/tests is not all tests', () => {
    expect(a.analyze('/home/me/tests/project/agent/state.py', PY).diagnostics.length).toBe(1);
    expect(a.analyze('/home/me/tests/project/src/session.ts', TS).diagnostics.length).toBe(1);
  });
});

describe('memory-path-unchecked, test files', () => {
  const py = fs.readFileSync(path.join(FIXTURES, 'memory-path-unchecked', 'bad.py'), 'utf8');
  const ts = fs.readFileSync(path.join(FIXTURES, 'memory-path-unchecked', 'bad.ts'), 'utf8');
  const rule = (file: string, text: string) => ids(file, text).filter((id) => id === 'memory-path-unchecked');

  it('reports a handler outside the tests', () => {
    expect(rule('agent/memory.py', py).length).toBeGreaterThan(0);
    expect(rule('src/memory.ts', ts).length).toBeGreaterThan(0);
  });

  for (const file of ['tests/test_memory.py', 'agent/memory_test.py', 'tests/conftest.py']) {
    it(`leaves ${file} alone: a handler there is a test's double`, () => expect(rule(file, py)).toEqual([]));
  }
  for (const file of ['src/__tests__/memory.ts', 'src/memory.test.ts', 'src/memory.spec.ts']) {
    it(`leaves ${file} alone`, () => expect(rule(file, ts)).toEqual([]));
  }
});
