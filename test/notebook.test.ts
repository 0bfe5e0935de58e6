import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fix } from '../src/core/fix';
import type { Rule } from '../src/core/rule';
import { LineIndex } from '../src/core/span';
import { openDocument } from '../src/engine/document';
import type { SourceDocument } from '../src/engine/document';
import type { AnalysisEngine } from '../src/engine/analyzer';
import { Notebook, VirtualPython, blankIpython, splitLines } from '../src/lang/notebook';

/** A notebook in Jupyter's own layout, built from cells given as source strings. */
function notebook(cells: Array<{ type: 'code' | 'markdown' | 'raw'; source: string }>, metadata: object = {}): string {
  const nb = {
    cells: cells.map((c, i) => ({
      cell_type: c.type,
      ...(c.type === 'code' ? { execution_count: null } : {}),
      id: `cell${i}`,
      metadata: {},
      ...(c.type === 'code' ? { outputs: [] } : {}),
      source: splitLines(c.source),
    })),
    metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, ...metadata },
    nbformat: 4,
    nbformat_minor: 5,
  };
  return JSON.stringify(nb, null, 1) + '\n';
}

function asNotebook(text: string): Notebook {
  const nb = Notebook.parse(text);
  if (!(nb instanceof Notebook)) throw new Error(`expected a notebook, got notice: ${nb.notice}`);
  return nb;
}

function cellSources(text: string): string[] {
  return (JSON.parse(text) as { cells: Array<{ source: string[] | string }> }).cells.map((c) =>
    Array.isArray(c.source) ? c.source.join('') : c.source,
  );
}

const IMPORTS = 'import anthropic\nfrom datetime import datetime\n\nclient = anthropic.Anthropic()\n';
const CALL = [
  'question = "What changed?"',
  'resp = client.messages.create(',
  '    model="claude-sonnet-4-6",',
  '    max_tokens=512,',
  '    cache_control={"type": "ephemeral"},',
  '    system=f"Time: {datetime.now()}",',
  '    messages=[{"role": "user", "content": question}],',
  ')',
].join('\n');
const CELLS = [
  { type: 'markdown' as const, source: '# Exploration\n\nAsk Claude about "churn".' },
  { type: 'code' as const, source: IMPORTS },
  { type: 'code' as const, source: CALL },
];

describe('blankIpython', () => {
  it('replaces line magics, shell escapes and help by text of the same length', () => {
    const src = '%matplotlib inline\n!pip install anthropic\nfiles = !ls -la\nlen?\nx = 1\n';
    const { text, blanked } = blankIpython(src);
    expect(text.length).toBe(src.length);
    expect(new LineIndex(text).lineCount).toBe(new LineIndex(src).lineCount);
    expect(text).not.toMatch(/[%!?]/);
    expect(text.split('\n')[2]).toMatch(/^files = \.\.\.\s+$/);
    expect(text.split('\n')[4]).toBe('x = 1');
    expect(blanked).toHaveLength(4);
    for (const b of blanked) expect(src.slice(b.start, b.end)).toMatch(/^(%|!|len\?)/);
  });

  it('keeps an indented block valid', () => {
    const { text } = blankIpython('for f in fs:\n    %time load(f)\n');
    expect(text).toMatch(/^for f in fs:\n {4}\.\.\. +\n$/);
  });

  it('leaves % and ! inside strings and brackets alone', () => {
    const src = 'prompt = """\n%s is the user\n!important\n"""\nvalue = (1,\n  2) ; text = "a" \\\n  "b"\n';
    expect(blankIpython(src)).toEqual({ text: src, blanked: [] });
  });

  it('blanks a whole %%cell magic, but only the first line of a Python-bodied one', () => {
    const bash = '%%bash\necho "hi"\nls\n';
    const blankedBash = blankIpython(bash);
    expect(blankedBash.text).toBe(bash.replace(/[^\n]/g, ' '));
    const timed = '%%time\nx = f()\n';
    expect(blankIpython(timed).text).toBe('...   \nx = f()\n');
  });
});

describe('VirtualPython', () => {
  it('joins code cells in order, so names flow across cells, with stable offsets', () => {
    const v = VirtualPython.build([
      { index: 1, source: 'a = 1' },
      { index: 3, source: '%load_ext foo\nb = a + 1\n' },
    ]);
    expect(v.text.startsWith('a = 1\n')).toBe(true);
    const b = v.text.indexOf('b = a');
    expect(v.cellPosition(b)).toEqual({ cell: 3, line: 1, column: 0 });
    expect(v.offsetOf({ cell: 3, line: 1, column: 0 })).toBe(b);
    // The separator newline after a cell without one belongs to that cell's end.
    expect(v.cellPosition(5)).toEqual({ cell: 1, line: 0, column: 5 });
  });

  it('refuses edits that cross cells or touch blanked magics', () => {
    const v = VirtualPython.build([
      { index: 0, source: 'a = 1\n' },
      { index: 1, source: '!ls\nb = 2\n' },
    ]);
    expect(v.toCellEdits([{ start: 4, end: 8, newText: '' }])).toBeUndefined();
    expect(v.toCellEdits([{ start: 7, end: 8, newText: 'x' }])).toBeUndefined();
    expect(v.toCellEdits([{ start: 10, end: 11, newText: 'c' }])).toEqual(new Map([[1, [{ start: 4, end: 5, newText: 'c' }]]]));
    const bash = VirtualPython.build([{ index: 0, source: '%%bash\nls\n' }]);
    expect(bash.toCellEdits([{ start: 0, end: 0, newText: 'import os\n' }])).toBeUndefined();
    expect(bash.toCellEdits([{ start: 9, end: 9, newText: 'x' }])).toBeUndefined();
  });
});

describe('Notebook', () => {
  const text = notebook(CELLS);

  it('builds the virtual text from the code cells only', () => {
    const nb = asNotebook(text);
    expect(nb.virtualText).toBe(IMPORTS + CALL + '\n');
    expect(nb.virtual.cells.map((c) => c.index)).toEqual([1, 2]);
  });

  it('maps a virtual offset to its cell and exactly to the raw file, across JSON escapes', () => {
    const nb = asNotebook(text);
    const target = 'datetime.now()';
    const offset = nb.virtualText.indexOf(target);
    const at = nb.locate(offset);

    const cellLines = CALL.split('\n');
    const cellLine = cellLines.findIndex((l) => l.includes(target));
    expect(at).toMatchObject({ cell: 2, cellLine, cellColumn: cellLines[cellLine].indexOf(target) });

    // Independently: where the JSON string of that line sits in the raw text, plus the escaped prefix.
    const lineString = splitLines(CALL)[cellLine];
    const prefix = lineString.slice(0, lineString.indexOf(target));
    const expectedRaw = text.indexOf(JSON.stringify(lineString)) + 1 + JSON.stringify(prefix).length - 2;
    expect(prefix).toContain('"'); // the mapping crosses an escape
    expect(nb.rawOffset(offset)).toBe(expectedRaw);
    expect(text.slice(expectedRaw, expectedRaw + target.length)).toBe(target);
    const raw = new LineIndex(text).position(expectedRaw);
    expect({ line: at.line, column: at.column }).toEqual(raw);
  });

  it('maps escapes inside a line to the escape start, and the cell end to the closing quote', () => {
    const nb = asNotebook(notebook([{ type: 'code', source: 'x = "\u00e9\\t"' }]));
    const rawText = nb.text;
    const quote = nb.virtualText.indexOf('"');
    expect(rawText.slice(nb.rawOffset(quote), nb.rawOffset(quote) + 2)).toBe('\\"');
    const end = nb.rawOffset(nb.virtualText.length - 1);
    expect(rawText[end]).toBe('"');
  });

  it('maps across \\u escapes (files written with ASCII-only JSON)', () => {
    const raw = '{"cells": [{"cell_type": "code", "metadata": {}, "source": ["s = \\"caf\\u00e9 \\ud83d\\ude00\\" + tail\\n"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}';
    const nb = asNotebook(raw);
    expect(nb.virtualText).toBe('s = "caf\u00e9 \u{1F600}" + tail\n');
    const tail = nb.rawOffset(nb.virtualText.indexOf('tail'));
    expect(raw.slice(tail, tail + 4)).toBe('tail');
    expect(nb.locate(nb.virtualText.indexOf('tail'))).toEqual({ line: 0, column: tail, cell: 0, cellLine: 0, cellColumn: 's = "caf\u00e9 \u{1F600}" + '.length });
  });

  it('writes fixes back into the cells in Jupyter layout, leaving the rest byte for byte', () => {
    const nb = asNotebook(text);
    const now = nb.virtualText.indexOf('datetime.now()');
    const question = nb.virtualText.indexOf('question}');
    const fix: Fix = {
      title: 'move the time to the user turn',
      applicability: 'unsafe',
      edits: [
        { start: now - ' {'.length, end: now + 'datetime.now()}'.length, newText: '' },
        { start: question, end: question, newText: 'f"[time: {datetime.now()}] " + ' },
        { start: 0, end: 0, newText: 'import json\n' },
      ],
    };
    const out = nb.applyFixes([fix]);
    expect(out.applied).toBe(1);
    expect(out.text).toBe(JSON.stringify(JSON.parse(out.text), null, 1) + '\n');
    const sources = cellSources(out.text);
    expect(sources[0]).toBe(CELLS[0].source);
    expect(sources[1]).toBe('import json\n' + IMPORTS);
    expect(sources[2]).toContain('system=f"Time:",');
    expect(sources[2]).toContain('"content": f"[time: {datetime.now()}] " + question}');
    // Only the two changed `source` lists differ.
    const before = JSON.parse(text);
    const after = JSON.parse(out.text);
    after.cells[1].source = before.cells[1].source;
    after.cells[2].source = before.cells[2].source;
    expect(after).toEqual(before);
  });

  it('skips fixes that touch magics or overlap an earlier fix', () => {
    const nb = asNotebook(notebook([{ type: 'code', source: '%pip install x\na = 1\n' }]));
    const a = nb.virtualText.indexOf('a = 1');
    const onMagic: Fix = { title: 'bad', applicability: 'safe', edits: [{ start: 1, end: 4, newText: 'x' }] };
    const good: Fix = { title: 'good', applicability: 'safe', edits: [{ start: a, end: a + 1, newText: 'b' }] };
    const overlapping: Fix = { title: 'clash', applicability: 'safe', edits: [{ start: a, end: a + 5, newText: 'c = 2' }] };
    const out = nb.applyFixes([onMagic, good, overlapping]);
    expect(out.applied).toBe(1);
    expect(cellSources(out.text)).toEqual(['%pip install x\nb = 1\n']);
    expect(nb.applyFixes([onMagic]).text).toBe(nb.text);
  });

  it('keeps a non-Jupyter layout and a single-string source as they are', () => {
    const raw = JSON.stringify(
      {
        cells: [
          { cell_type: 'code', metadata: {}, source: 'x = 1\ny = 2' },
          { cell_type: 'code', metadata: {}, source: ['z = 3\n', 'w = 4'] },
        ],
        metadata: {},
        nbformat: 4,
        nbformat_minor: 2,
      },
      null,
      4,
    );
    const nb = asNotebook(raw);
    const y = nb.virtualText.indexOf('y = 2');
    const w = nb.virtualText.indexOf('w = 4');
    const out = nb.applyFixes([
      {
        title: 't',
        applicability: 'safe',
        edits: [
          { start: y, end: y + 1, newText: 'yy' },
          { start: w, end: w + 5, newText: 'w = 4\nv = 5' },
        ],
      },
    ]);
    expect(out.applied).toBe(1);
    expect(cellSources(out.text)).toEqual(['x = 1\nyy = 2', 'z = 3\nw = 4\nv = 5']);
    expect(out.text).toBe(JSON.stringify(JSON.parse(out.text), null, 4));
  });

  it('gives a one-line notice for what it cannot read, and never throws', () => {
    const notices = [
      '{"cells": [',
      '',
      '[1, 2]',
      '{"metadata": {}}',
      '{"cells": [], "nbformat": 3}',
      notebook([{ type: 'code', source: 'x <- 1' }], { kernelspec: { language: 'R', name: 'ir' } }),
      '{"cells": [{"cell_type": "code", "source": 42}]}',
    ].map((t) => Notebook.parse(t));
    for (const n of notices) {
      expect(n).not.toBeInstanceOf(Notebook);
      expect((n as { notice: string }).notice).toMatch(/^[^\n]+$/);
    }
    expect((notices[0] as { notice: string }).notice).toMatch(/invalid JSON at 1:\d+/);
    expect((notices[5] as { notice: string }).notice).toContain('R');
  });

  it('reads notebooks whose kernel runs Python code under another name, and no others', () => {
    const cell = [{ type: 'code' as const, source: 'import anthropic\nclient = anthropic.Anthropic()' }];
    // A Coconut kernel (a superset of Python 3), as some notebooks of plain Python are saved.
    const coconut = { kernelspec: { display_name: 'Coconut', language: 'coconut', name: 'coconut' }, language_info: { codemirror_mode: { name: 'python', version: 3 }, file_extension: '.coco', mimetype: 'text/x-python3', name: 'coconut' } };
    expect(asNotebook(notebook(cell, coconut)).virtualText).toBe('import anthropic\nclient = anthropic.Anthropic()\n');
    expect(asNotebook(notebook(cell, { kernelspec: { language: 'Python3', name: 'py' } })).virtual.cells.map((c) => c.index)).toEqual([0]);
    // Another kernel language whose cells are edited as Python (its language_info says so).
    const edited = { kernelspec: { language: 'sage', name: 'sagemath' }, language_info: { codemirror_mode: { name: 'ipython', version: 3 }, name: 'sage' } };
    expect(asNotebook(notebook(cell, edited)).virtual.cells.map((c) => c.index)).toEqual([0]);
    const byMime = { kernelspec: { language: 'xpython', name: 'xpython' }, language_info: { mimetype: 'text/x-python', name: 'python' } };
    expect(asNotebook(notebook(cell, byMime)).virtual.cells.map((c) => c.index)).toEqual([0]);
    // Other languages stay out, whatever else their metadata says.
    const julia = { kernelspec: { language: 'julia', name: 'julia-1.10' }, language_info: { codemirror_mode: 'julia', mimetype: 'application/julia', name: 'julia' } };
    const scala = { kernelspec: { language: 'scala', name: 'scala' }, language_info: { codemirror_mode: { name: 'text/x-scala' }, mimetype: 'text/x-python-not', name: 'scala' } };
    for (const meta of [julia, scala]) {
      const n = Notebook.parse(notebook(cell, meta));
      expect(n).not.toBeInstanceOf(Notebook);
      expect((n as { notice: string }).notice).toBe(`not a Python notebook (kernel language: ${meta.kernelspec.language})`);
    }
  });

  it('skips code cells that VS Code marks as another language', () => {
    const raw = JSON.stringify({
      cells: [
        { cell_type: 'code', metadata: { vscode: { languageId: 'sql' } }, source: ['SELECT 1'] },
        { cell_type: 'code', metadata: {}, source: ['x = 1'] },
      ],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    });
    expect(asNotebook(raw).virtualText).toBe('x = 1\n');
  });
});

describe('a notebook as the engine opens it', () => {
  it('is analysed as the virtual text of its code cells, and a broken one gives a notice', () => {
    const good = openDocument('/nb/a.ipynb', notebook(CELLS));
    expect('notice' in good).toBe(false);
    expect((good as SourceDocument).analysedText).toBe(`${IMPORTS}${CALL}\n`);
    expect((good as SourceDocument).language).toBe('python');
    const bad = openDocument('/nb/b.ipynb', '{ nope');
    expect('notice' in bad && bad.notice).toMatch(/invalid JSON/);
  });
});

// These run the real engine (src/engine/analyzer.ts and src/rules/); they fail until it is in place.
describe('notebooks through the engine', () => {
  async function engine(): Promise<AnalysisEngine> {
    const { Analyzer } = (await import('../src/engine/analyzer')) as unknown as {
      Analyzer: { create(opts?: { rules?: readonly Rule[] }): Promise<AnalysisEngine> };
    };
    return Analyzer.create();
  }

  function analyse(analyzer: AnalysisEngine, file: string, text: string) {
    const doc = openDocument(file, text) as SourceDocument;
    return { doc, result: analyzer.analyze(file, doc.analysedText, doc.language) };
  }

  it('reports a clock in the system prompt, defined in another cell, at its cell and raw position', async () => {
    const analyzer = await engine();
    const text = notebook(CELLS);
    const file = path.resolve('/virtual/explore.ipynb');
    const { doc, result } = analyse(analyzer, file, text);
    expect(result.notice).toBeUndefined();
    const found = result.diagnostics.filter((d) => d.ruleId === 'volatile-system-prompt');
    expect(found).toHaveLength(1);
    const at = doc.locate(found[0].at.start);
    expect(at.cell?.index).toBe(2);
    // The finding lies on the `system=` line or on the clock call itself; both are in cell 2.
    const cellLine = CALL.split('\n')[at.cell!.line];
    expect(cellLine).toContain('datetime.now()');
    const rawLine = new LineIndex(text).lineText(at.line);
    expect(rawLine).toContain('datetime.now()');
  });

  it('writes the fix back into the cells, and the fixed notebook is clean and parses', async () => {
    const analyzer = await engine();
    const text = notebook(CELLS);
    const file = path.resolve('/virtual/explore-fix.ipynb');
    const { doc, result } = analyse(analyzer, file, text);
    const fixes = result.diagnostics.filter((d) => d.ruleId === 'volatile-system-prompt' && d.fix).map((d) => d.fix!);
    expect(fixes.length).toBeGreaterThan(0);
    const out = doc.applyFixes(fixes);
    if ('notice' in out) throw new Error(out.notice);
    expect(out.applied).toBe(fixes.length);
    expect(cellSources(out.document.text)[2]).not.toMatch(/system=f"Time: \{datetime\.now\(\)\}"/);
    const again = analyse(analyzer, path.resolve('/virtual/explore-fixed.ipynb'), out.document.text);
    expect(again.result.notice).toBeUndefined();
    expect(again.result.diagnostics.filter((d) => d.ruleId === 'volatile-system-prompt')).toEqual([]);
  });
});
