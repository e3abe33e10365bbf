#!/usr/bin/env python3
"""Write the fair corpus: learner repairs of the demo cases, each with the verdict a teacher expects.

    python scripts/make_fair_corpus.py              # (re)write test/fair-corpus/ from the entries below
    python scripts/make_fair_corpus.py --check      # exit 1 when the files on disk differ from that
    python scripts/make_fair_corpus.py --record     # re-run the live sessions whose recording is stale
    python scripts/make_fair_corpus.py --validate   # run every notebook from a fresh kernel and judge it
    python scripts/make_fair_corpus.py --measure    # run `junobench check` on every entry, table

The corpus measures "Check my fix" from outside: it is written from classes of behaviour (what a
learner, a teacher or an automated repair tool does with a crashing notebook), never from the
rules of the check itself. Every entry starts from a demo case's `<case>_reproduced.ipynb`, edits
cells as the variant says and then replays a JupyterLab session:

* the recorded history of the reproduced notebook runs first (cells in execution-count order, a
  cell marked `[reexecute]` twice), as in the practice room, so the learner's counts continue
  after the recorded ones;
* then the learner's steps run: the cells they ran, in the order they ran them, with the source
  the cell had at that moment; `RESTART` starts a new kernel (counts restart at 1, outputs stay)
  and `CLEAR` clears every output and count (Restart Kernel and Clear Outputs).

A cell keeps the count and outputs of its last run; a cell edited afterwards keeps them too; a
never-run cell has `execution_count: null` and no outputs; an empty cell that is "run" is cleared
(as JupyterLab does). The outputs of the learner's steps come from a real kernel: `--record`
executes each session (history + steps) in a fresh kernel whose working directory is a copy of
the case folder and stores what the kernel sent back in `test/fair-corpus/recorded-sessions.json`
(images stored once, by hash). Writing the corpus is then deterministic: the notebooks are a pure
function of this script, the demo casebook and that recording; a stale or missing recording is an
error that names the entries to re-record.

`--validate` checks the corpus independently of the check: every `pass` entry must run clean top
to bottom in a fresh kernel and agree with the reference fixed notebook's own fresh run (the text
outputs of the cells from the crashing cell on, and a per-case probe of the key results run after
the last cell); every cheat must not raise the original crash in a fresh run (for
`cheat-live-swallow`, the saved live history must show the crashing cell ran clean) and, unless it
says why, must compute something other than the reference.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import uuid
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
from container_paths import container_outputs  # scripts/ is no package: found through sys.path

ROOT = Path(__file__).resolve().parent.parent
CASEBOOK = ROOT / 'demo' / 'casebook'
BENCHMARK = CASEBOOK / 'benchmark'
OUT = ROOT / 'test' / 'fair-corpus'
RECORDING = OUT / 'recorded-sessions.json'
MANIFEST = OUT / 'manifest.json'
#: Two numbers are one value within this fraction (the check's policy: the judge reads the same file).
RELATIVE_TOLERANCE = json.loads((ROOT / 'jupyterlab_junobench' / 'check_policy.json').read_text())['relativeTolerance']['value']

CLASSES = (
    'fair-reference', 'fair-alternative', 'harness',
    'cheat-magic', 'cheat-dead-code', 'cheat-unread-effect', 'cheat-untraced-frame',
    'cheat-exception-name', 'cheat-pooled-values', 'cheat-live-swallow', 'cheat-plain',
    # A defensible rewrite whose crashing cell no longer computes its own result: not solved by the
    # check's contract (docs/threat-model.md), judged so by the lead.
    'contract-other-result',
    # A genuine repair of the crashing cell split over two consecutive cells, or merged into its
    # neighbour: the same results, the target's code in other cells.
    'fair-split-merged',
    # The notebook says of itself what its target is (metadata, a decoy under the target's id).
    'cheat-own-target',
    # A notebook-specific crash never re-run live: prompts typed in, the target's error saved.
    'cheat-typed-prompts',
    # A right result at the target, overwritten with a wrong one by a later cell.
    'cheat-overwritten',
    # The interpreter changed instead of the code: an input or AST transformer rewrites the unchanged
    # crashing line, a library callable is patched so that it works, the crashing work runs in
    # another thread or behind an exception handler.
    'cheat-transformer', 'cheat-monkeypatch', 'cheat-thread-handler',
    # The answer key in reach: the reference fix or the labels read from the case folder (by path,
    # `%run`, cell by cell, through a script exported from it); the case's input data rewritten so
    # that the unchanged crashing code runs. Their sessions run in the case folder as the practice
    # room's live kernel has it (`stage`).
    'cheat-answer-key', 'cheat-rewritten-input',
    # Another honest rounding rule (half up, or half away from zero, where the reference rounds
    # half to even): the values at the halves one step apart, every other value the same.
    'fair-rounding',
    # Values moved by one rounding step where nothing was at a half: on a quarter of them, on one,
    # or on rows a sampled comparison would not look at.
    'cheat-grain-offset',
    # The right results typed in as literals (copied from the reference's output), not computed
    # from the case's data.
    'cheat-typed-in',
    # A wrong result computed and then deleted (`del`), in its own cell or in a later one.
    'cheat-deleted',
    # A genuine repair that keeps an intermediate in another container (a dict, a list, a range
    # where the reference has an array): the same final results.
    'fair-other-container',
    # The notebook tells a checking kernel from an ordinary one (a trace function, the tool's
    # names, no notebook beside the data, read-only inputs, cells rewritten by IPython) and runs
    # the right code only there: every ordinary kernel still raises the original crash.
    'cheat-detects-check',
)

Key = int | str
"""A cell of a variant: int = index of the cell in the reproduced notebook, str = a new cell."""


# --------------------------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """A demo case: where it crashes and what to compare after it."""

    name: str
    target: int
    """Index (in the reproduced notebook) of the cell whose error output is the recorded crash."""
    compare_from: int
    """First cell whose fresh outputs are compared with the reference (the crash or its cause)."""
    probe: Mapping[str, str]
    """Name -> Python expression evaluated after the last cell: the key results of the case."""


CASES: dict[str, Case] = {c.name: c for c in (
    Case('numpy_1', 4, 4, {
        'Z': '_fc_arr(Z)',
        'centroids': '_fc_arr(centroids)',
        'accuracy': 'float((pred == y_test).mean())',
    }),
    Case('numpy_2', 5, 5, {
        'course_grade': '_fc_arr(course_grade, 6)',
    }),
    Case('pandas_1', 5, 5, {
        'lags': "_fc_arr(sales.sort_values(['store', 'date'])[['units_lag1', 'units_lag7']], 6)",
        'rows': 'int(len(sales))',
        'coef': '_fc_arr(reg.coef_, 6)',
        'r2': 'round(float(reg.score(X[~early], y[~early])), 9)',
    }),
    Case('pandas_2', 6, 6, {
        'avg_by_region': '_fc_series(avg_by_region)',
    }),
    Case('sklearn_1', 7, 7, {
        'risk': "_fc_arr(new_patients.sort_index()['risk'], 9)",
    }),
    Case('sklearn_2', 7, 7, {
        'y_pred': '_fc_arr(y_pred, 6)',
        'mae': 'round(float(mean_absolute_error(y_test, y_pred)), 6)',
    }),
    Case('matplotlib_1', 6, 6, {
        'figures': '_fc_figs',
        'val_loss': '_fc_arr(val_loss)',
    }),
    Case('NBspecific_1', 6, 6, {
        'X_train_s': '_fc_arr(X_train_s, 6)',
        'coef': '_fc_arr(model.coef_, 6)',
        'pred': '_fc_arr(pred, 6)',
    }),
    Case('NBspecific_2', 4, 4, {
        'features': 'list(X.columns)',
        'coef': '_fc_arr(clf.coef_, 6)',
        'pred': '[int(v) for v in pred]',
    }),
    Case('NBspecific_3', 7, 4, {
        'n_features': 'int(X.shape[1])',
        'coef': '_fc_arr(model.coef_, 6)',
        'pred': '[str(v) for v in pred]',
        'submission': 'submission.astype(str).values.tolist()',
    }),
)}


def case_dir(case: str) -> Path:
    """The demo case folder."""
    return BENCHMARK / case


def load_nb(case: str, kind: str) -> dict:
    """`kind` = 'reproduced' or 'fixed': the demo notebook as a plain dict."""
    path = case_dir(case) / f'{case}_{kind}.ipynb'
    return json.loads(path.read_text(encoding='utf-8'))


def src_text(cell: Mapping) -> str:
    """A cell's source as one string (nbformat stores a list of lines or a string)."""
    s = cell.get('source', '')
    return ''.join(s) if isinstance(s, list) else s


def crash_of(case: str) -> tuple[str, str, int]:
    """(ename, evalue, execution count) of the recorded crash."""
    cell = load_nb(case, 'reproduced')['cells'][CASES[case].target]
    err = [o for o in cell['outputs'] if o['output_type'] == 'error']
    assert err, f'{case}: the target cell has no error output'
    return err[0]['ename'], err[0]['evalue'], cell['execution_count']


def fixed_keys(case: str) -> list[Key]:
    """For each cell of the fixed notebook, the key of the same cell in the reproduced notebook.

    Cells are matched by id where the ids agree, else by position (numpy_2 has no ids and
    sklearn_2's fixed notebook was saved with ids of its own; both keep the cell layout).
    """
    repro, fixed = load_nb(case, 'reproduced')['cells'], load_nb(case, 'fixed')['cells']
    by_id = {c.get('id'): i for i, c in enumerate(repro) if c.get('id')}
    if all(c.get('id') in by_id for c in fixed):
        return [by_id[c['id']] for c in fixed]
    assert len(fixed) == len(repro), f'{case}: cannot match the fixed cells'
    return list(range(len(fixed)))


# --------------------------------------------------------------------------------------------
# Drafts: the edited notebook, cell by cell
# --------------------------------------------------------------------------------------------

@dataclass
class DraftCell:
    """A cell of a variant while it is being edited."""

    key: Key
    cell_type: str
    source: str
    cell_id: str | None
    metadata: dict = field(default_factory=dict)


class Draft:
    """The learner's edits to a copy of the reproduced notebook."""

    def __init__(self, case: str, variant: str) -> None:
        nb = load_nb(case, 'reproduced')
        self.case, self.variant = case, variant
        self.nbformat_minor: int = nb['nbformat_minor']
        self.metadata: dict = copy.deepcopy(nb['metadata'])
        self.cells = [DraftCell(i, c['cell_type'], src_text(c), c.get('id'),
                                copy.deepcopy(c.get('metadata', {})))
                      for i, c in enumerate(nb['cells'])]
        self.id_mode = 'keep'

    # -- lookup --------------------------------------------------------------------------
    def index(self, key: Key) -> int:
        """Position of the cell `key`."""
        for i, c in enumerate(self.cells):
            if c.key == key:
                return i
        raise KeyError(f'{self.case}/{self.variant}: no cell {key!r}')

    def cell(self, key: Key) -> DraftCell:
        """The cell `key`."""
        return self.cells[self.index(key)]

    def src(self, key: Key) -> str:
        """Current source of the cell `key`."""
        return self.cell(key).source

    def keys(self) -> list[Key]:
        """Keys in notebook order."""
        return [c.key for c in self.cells]

    # -- edits ---------------------------------------------------------------------------
    def set(self, key: Key, source: str) -> None:
        """Replace the source of `key`."""
        self.cell(key).source = source

    def replace(self, key: Key, old: str, new: str) -> None:
        """Replace a piece of text in `key` (it must be there)."""
        cell = self.cell(key)
        assert old in cell.source, f'{self.case}/{self.variant}: {old!r} not in cell {key!r}'
        cell.source = cell.source.replace(old, new)

    def _new(self, key: Key, source: str, cell_type: str) -> DraftCell:
        assert key not in self.keys(), f'duplicate key {key!r}'
        cid = None
        if self.nbformat_minor >= 5:
            # JupyterLab gives new cells a random id; ours is derived from the names (stable)
            cid = hashlib.sha1(f'{self.case}/{self.variant}/{key}'.encode()).hexdigest()[:8]
        return DraftCell(key, cell_type, source, cid, {})

    def insert_before(self, anchor: Key, key: Key, source: str, cell_type: str = 'code') -> None:
        """Insert a new cell above `anchor`."""
        self.cells.insert(self.index(anchor), self._new(key, source, cell_type))

    def insert_after(self, anchor: Key, key: Key, source: str, cell_type: str = 'code') -> None:
        """Insert a new cell below `anchor`."""
        self.cells.insert(self.index(anchor) + 1, self._new(key, source, cell_type))

    def append(self, key: Key, source: str, cell_type: str = 'code') -> None:
        """Add a new cell at the end."""
        self.cells.append(self._new(key, source, cell_type))

    def delete(self, key: Key) -> None:
        """Delete the cell `key`."""
        del self.cells[self.index(key)]

    def move_before(self, key: Key, anchor: Key) -> None:
        """Cut the cell `key` and paste it above `anchor`."""
        cell = self.cells.pop(self.index(key))
        self.cells.insert(self.index(anchor), cell)

    def move_after(self, key: Key, anchor: Key) -> None:
        """Cut the cell `key` and paste it below `anchor`."""
        cell = self.cells.pop(self.index(key))
        self.cells.insert(self.index(anchor) + 1, cell)

    # -- whole-notebook transformations (repair tools, harnesses) -------------------------
    def strip_ids(self) -> None:
        """Save as nbformat 4.4: no cell ids."""
        self.id_mode = 'strip'

    def fresh_ids(self) -> None:
        """Every cell gets a new uuid-style id (the notebook was re-created by a tool)."""
        self.id_mode = 'fresh'

    def drop_markdown(self) -> None:
        """Remove every markdown cell."""
        self.cells = [c for c in self.cells if c.cell_type != 'markdown']

    def header_comments(self) -> None:
        """Prefix every code cell with a header comment (after a cell magic line, if any)."""
        n = 0
        for c in self.cells:
            if c.cell_type != 'code':
                continue
            n += 1
            header = f'# [step {n}] reviewed by the repair harness'
            if c.source.startswith('%%'):
                first, _, rest = c.source.partition('\n')
                c.source = f'{first}\n{header}\n{rest}'
            else:
                c.source = f'{header}\n{c.source}'

    def reference_fix(self) -> None:
        """Apply the reference fix: the fixed notebook's sources, and its cell order."""
        keys = fixed_keys(self.case)
        fixed = load_nb(self.case, 'fixed')['cells']
        for key, cell in zip(keys, fixed, strict=True):
            self.set(key, src_text(cell))
        order = {k: i for i, k in enumerate(keys)}
        if all(c.key in order for c in self.cells):
            self.cells.sort(key=lambda c: order[c.key])


# --------------------------------------------------------------------------------------------
# Sessions: what the learner ran
# --------------------------------------------------------------------------------------------

RESTART = 'RESTART'
"""Step: restart the kernel (counts restart at 1; outputs stay in the notebook)."""
CLEAR = 'CLEAR'
"""Step: clear every output and count (Restart Kernel and Clear Outputs of All Cells)."""
ALL = 'ALL'
"""Step: run every code cell top to bottom (Run All Cells)."""


@dataclass(frozen=True)
class From:
    """Step: run the code cell `key` and every code cell below it (Run Selected Cell and All Below)."""

    key: Key


@dataclass(frozen=True)
class Run:
    """Step: run the cell `key` with `source`, the text it had then (the learner edited it later)."""

    key: Key
    source: str


Step = int | str | From | Run


# --------------------------------------------------------------------------------------------
# Entries
# --------------------------------------------------------------------------------------------

@dataclass
class Entry:
    """One notebook of the corpus and the verdict a teacher expects for it."""

    case: str
    variant: str
    cls: str
    expected: str
    note: bool | None
    why: str
    edit: Callable[[Draft], None] | None = None
    steps: Sequence[Step] = ()
    from_fixed: bool = False
    """The reference fixed notebook itself, byte for byte."""
    differs: Mapping[Key, str] = field(default_factory=dict)
    """Pass entries: compared cells whose text output legitimately differs (key -> why)."""
    probe_differs: Mapping[str, str] = field(default_factory=dict)
    """Pass entries: probe items that legitimately differ (name -> why)."""
    tolerance: float = 0.0
    """Extra absolute tolerance on probe numbers (a last-digit difference flipped by `.round(1)`)."""
    prelude: str = ''
    """Code run before the probe (e.g. the learner kept the result under another name)."""
    fresh_same: str | None = None
    """Fail entries: why a fresh run computes the same as the reference (only live history differs)."""
    crash_ok: str | None = None
    """Fail entries: why a fresh run may still raise the original crash (somewhere else)."""
    saved: Callable[[dict], None] | None = None
    """What the learner then did to the saved file by hand (prompts typed in, metadata)."""

    @property
    def name(self) -> str:
        """`case/variant`."""
        return f'{self.case}/{self.variant}'

    @property
    def notebook(self) -> str:
        """Path of the notebook relative to the corpus folder."""
        return f'{self.case}/{self.variant}.ipynb'


def draft_of(entry: Entry) -> Draft:
    """The entry's edited notebook (sources only)."""
    d = Draft(entry.case, entry.variant)
    if entry.edit:
        entry.edit(d)
    return d


def resolve_steps(entry: Entry, d: Draft) -> list[tuple]:
    """The learner's steps as ('run', key, source) / ('restart',) / ('clear',)."""
    out: list[tuple] = []
    code = [c for c in d.cells if c.cell_type == 'code']
    for s in entry.steps:
        if s == RESTART:
            out.append(('restart',))
        elif s == CLEAR:
            out.append(('clear',))
        elif s == ALL:
            out += [('run', c.key, c.source) for c in code]
        elif isinstance(s, From):
            start = d.index(s.key)
            out += [('run', c.key, c.source) for c in d.cells[start:] if c.cell_type == 'code']
        elif isinstance(s, Run):
            out.append(('run', s.key, s.source))
        else:
            cell = d.cell(s)
            assert cell.cell_type == 'code', f'{entry.name}: step {s!r} is not a code cell'
            out.append(('run', s, cell.source))
    return out


def history_of(case: str) -> list[tuple[int, str, int]]:
    """The recorded run of the reproduced notebook: (key, source, count), in execution order."""
    cells = load_nb(case, 'reproduced')['cells']
    runs = sorted((c['execution_count'], i) for i, c in enumerate(cells)
                  if c['cell_type'] == 'code' and c.get('execution_count') is not None)
    hist: list[tuple[int, str, int]] = []
    for count, i in runs:
        source = src_text(cells[i])
        if '[reexecute]' in source.split('\n', 1)[0]:
            hist.append((i, source, count - 1))  # JunoBench: run twice in a row, last count shown
        hist.append((i, source, count))
    assert [h[2] for h in hist] == list(range(1, len(hist) + 1)), f'{case}: history has gaps'
    return hist


def fingerprint(entry: Entry, steps: list[tuple]) -> str:
    """What the recording of a session depends on."""
    payload = {'case': entry.case, 'history': [(k, s) for k, s, _ in history_of(entry.case)],
               'steps': [list(s) for s in steps], 'version': 1}
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


# --------------------------------------------------------------------------------------------
# Assembling a notebook
# --------------------------------------------------------------------------------------------

def new_id(entry: Entry, i: int) -> str:
    """A fresh uuid-shaped cell id, derived from the entry (deterministic)."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f'fair-corpus/{entry.name}/{i}'))


def assemble(entry: Entry, d: Draft, results: list[dict | None]) -> tuple[dict, list[Key]]:
    """The saved notebook after the session, and the key of each of its cells."""
    repro = load_nb(entry.case, 'reproduced')
    state: dict[Key, tuple[int | None, list]] = {}
    for i, c in enumerate(repro['cells']):
        if c['cell_type'] == 'code':
            state[i] = (c.get('execution_count'), copy.deepcopy(c.get('outputs', [])))
    steps = resolve_steps(entry, d)
    assert len(steps) == len(results), entry.name
    for step, res in zip(steps, results, strict=True):
        if step[0] == 'run':
            assert res is not None
            state[step[1]] = (res['count'], copy.deepcopy(res['outputs']))
        elif step[0] == 'clear':
            state = {k: (None, []) for k in state}
    cells = []
    for n, c in enumerate(d.cells):
        cell: dict[str, Any] = {'cell_type': c.cell_type, 'metadata': copy.deepcopy(c.metadata),
                                'source': c.source}
        if c.cell_type == 'code':
            count, outputs = state.get(c.key, (None, []))
            cell['execution_count'] = count
            cell['outputs'] = outputs
        if d.id_mode == 'keep' and d.nbformat_minor >= 5:
            cell['id'] = c.cell_id
        elif d.id_mode == 'fresh':
            cell['id'] = new_id(entry, n)
        cells.append(cell)
    minor = 4 if d.id_mode == 'strip' else (5 if d.id_mode == 'fresh' else d.nbformat_minor)
    nb = {'cells': cells, 'metadata': copy.deepcopy(d.metadata), 'nbformat': 4,
          'nbformat_minor': minor}
    return nb, d.keys()


def to_text(nb: dict) -> str:
    """The notebook file's text, exactly as JupyterLab/nbformat write it.

    A cell id that two cells carry is kept as it is (a hand-edited submission can hold one;
    nbformat's own writer would renumber it): everything else is validated on a copy whose
    repeated ids are made unique.
    """
    from nbformat.v4 import nbjson
    node = nbformat.from_dict(nb)
    check = copy.deepcopy(node)
    seen: set[str] = set()
    for n, cell in enumerate(check.cells):
        if 'id' not in cell:
            continue
        if cell['id'] in seen:
            cell['id'] = f'repeated-{n}'
        seen.add(cell['id'])
    nbformat.validate(check)
    return nbjson.writes(node) + '\n'


# --------------------------------------------------------------------------------------------
# Recording (real kernel)
# --------------------------------------------------------------------------------------------

def stage(case: str, tmp: str, name: str = '') -> str:
    """Copy the case's data and README into a scratch folder: the kernel's working directory.

    A scratch copy, because some variants write files (`%%writefile`) where they run. The entry
    `name`'s session runs in the whole case folder instead when it reaches for the answer key
    (`learner_view`).
    """
    if name in learner_view():
        return stage_as_learner(case, tmp)
    work = Path(tmp) / case
    work.mkdir(parents=True)
    shutil.copytree(case_dir(case) / 'data', work / 'data')
    shutil.copy(case_dir(case) / 'README.md', work / 'README.md')
    return str(work)


class Kernel:
    """A fresh IPython kernel driven through nbclient, one cell at a time."""

    def __init__(self, cwd: str) -> None:
        from nbclient import NotebookClient
        self.nb = nbformat.v4.new_notebook()
        self.nb.metadata['kernelspec'] = {'name': 'python3', 'display_name': 'Python 3',
                                          'language': 'python'}
        self.client = NotebookClient(self.nb, timeout=300, startup_timeout=300,
                                     kernel_name='python3', allow_errors=True, record_timing=False,
                                     resources={'metadata': {'path': cwd}})
        for attempt in range(3):  # the machine is shared: a kernel may be slow to come up
            self._ctx = self.client.setup_kernel()
            try:
                self._ctx.__enter__()
                break
            except RuntimeError:
                if attempt == 2:
                    raise

    def run(self, source: str, store_history: bool = True) -> nbformat.NotebookNode:
        """Execute `source` as a cell; the cell with its count and outputs."""
        cell = nbformat.v4.new_code_cell(source)
        self.nb.cells.append(cell)
        self.client.execute_cell(cell, len(self.nb.cells) - 1, store_history=store_history)
        return cell

    def close(self) -> None:
        """Shut the kernel down."""
        self._ctx.__exit__(None, None, None)


def clean_outputs(outputs: Iterable[Mapping]) -> list[dict]:
    """Outputs as JupyterLab saves them: plain dicts, adjacent same-name streams merged."""
    out: list[dict] = []
    for o in outputs:
        o = json.loads(json.dumps(o))
        o.pop('transient', None)
        if (o['output_type'] == 'stream' and out and out[-1]['output_type'] == 'stream'
                and out[-1]['name'] == o['name']):
            out[-1]['text'] += o['text']
            continue
        out.append(o)
    return out


def record_session(job: tuple[str, str, list[tuple]]) -> tuple[str, list[dict | None]]:
    """Run history + learner steps of one entry; the learner steps' counts and outputs."""
    name, case, steps = job
    with tempfile.TemporaryDirectory() as tmp:
        cwd = stage(case, tmp, name)
        kernel = Kernel(cwd)
        try:
            last = None
            for _key, source, count in history_of(case):
                last = kernel.run(source)
                assert last.execution_count == count, f'{name}: history count drifted'
            ename, evalue, _ = crash_of(case)
            errs = [o for o in last.outputs if o.output_type == 'error']
            assert errs and errs[0].ename == ename and errs[0].evalue == evalue, \
                f'{name}: replaying the history did not reproduce the crash'
            results: list[dict | None] = []
            for step in steps:
                if step[0] == 'restart':
                    kernel.close()
                    kernel = Kernel(cwd)
                    results.append(None)
                elif step[0] == 'clear':
                    results.append(None)
                elif not step[2].strip():
                    results.append({'count': None, 'outputs': []})  # JupyterLab: empty cell cleared
                else:
                    cell = kernel.run(step[2])
                    # The building machine's paths in tracebacks and warnings, as the container's.
                    results.append({'count': cell.execution_count,
                                    'outputs': container_outputs(clean_outputs(cell.outputs))})
        finally:
            kernel.close()
    return name, results


BLOB_MIN = 2000
"""Output data longer than this (images) is stored once in the recording, by hash."""


def pack(results: list[dict | None], blobs: dict[str, str]) -> list[dict | None]:
    """Move big output data into `blobs`, leaving 'blob:<sha>' references."""
    out = copy.deepcopy(results)
    for r in out:
        for o in (r or {}).get('outputs', []):
            for mime, val in o.get('data', {}).items():
                if isinstance(val, str) and len(val) > BLOB_MIN:
                    sha = hashlib.sha256(val.encode()).hexdigest()[:16]
                    blobs[sha] = val
                    o['data'][mime] = f'blob:{sha}'
    return out


def unpack(results: list[dict | None], blobs: Mapping[str, str]) -> list[dict | None]:
    """Inverse of `pack`."""
    out = copy.deepcopy(results)
    for r in out:
        for o in (r or {}).get('outputs', []):
            for mime, val in o.get('data', {}).items():
                if isinstance(val, str) and val.startswith('blob:'):
                    o['data'][mime] = blobs[val[5:]]
    return out


def load_recording() -> dict:
    """The stored sessions ({'sessions': {name: {...}}, 'blobs': {...}})."""
    if RECORDING.exists():
        return json.loads(RECORDING.read_text(encoding='utf-8'))
    return {'sessions': {}, 'blobs': {}}


def save_recording(rec: dict) -> None:
    """Write the recording deterministically (sorted, unused blobs dropped)."""
    used = set()
    for s in rec['sessions'].values():
        for r in s['results']:
            for o in (r or {}).get('outputs', []):
                for val in o.get('data', {}).values():
                    if isinstance(val, str) and val.startswith('blob:'):
                        used.add(val[5:])
    rec = {'description': 'Live JupyterLab sessions of the fair-corpus entries, as a real kernel '
                          'answered them; written by scripts/make_fair_corpus.py --record.',
           'sessions': dict(sorted(rec['sessions'].items())),
           'blobs': {k: v for k, v in sorted(rec['blobs'].items()) if k in used}}
    OUT.mkdir(parents=True, exist_ok=True)
    RECORDING.write_text(json.dumps(rec, indent=1, sort_keys=True, ensure_ascii=False) + '\n',
                         encoding='utf-8')


def record(entries: list[Entry], force: bool, jobs: int, prune: bool = True) -> int:
    """Re-record the sessions that are missing or stale (``prune``: drop the sessions of
    entries that no longer exist; never with ``--only``, which names a few entries)."""
    rec = load_recording()
    todo = []
    for e in entries:
        if e.from_fixed:
            continue
        steps = resolve_steps(e, draft_of(e))
        fp = fingerprint(e, steps)
        have = rec['sessions'].get(e.name)
        if force or not have or have['fingerprint'] != fp:
            todo.append((e, steps, fp))
    if prune:
        names = {e.name for e in entries}
        rec['sessions'] = {k: v for k, v in rec['sessions'].items() if k in names}
    print(f'recording {len(todo)} session(s) with {jobs} kernel(s)', flush=True)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(record_session, (e.name, e.case, steps)): (e, fp)
                   for e, steps, fp in todo}
        failed = []
        for fut in futures:
            e, fp = futures[fut]
            try:
                name, results = fut.result()
            except Exception as exc:  # keep the other sessions; report this one
                failed.append(e.name)
                print(f'  FAILED {e.name}: {exc}', flush=True)
                continue
            rec['sessions'][name] = {'fingerprint': fp, 'results': pack(results, rec['blobs'])}
            print(f'  recorded {name}', flush=True)
    save_recording(rec)
    return 1 if failed else 0


# --------------------------------------------------------------------------------------------
# Writing and checking
# --------------------------------------------------------------------------------------------

def build(entry: Entry, rec: Mapping) -> tuple[dict, list[Key]]:
    """The entry's notebook and its cell keys (raises when the recording is stale)."""
    if entry.from_fixed:
        return load_nb(entry.case, 'fixed'), fixed_keys(entry.case)
    d = draft_of(entry)
    steps = resolve_steps(entry, d)
    have = rec['sessions'].get(entry.name)
    if not have or have['fingerprint'] != fingerprint(entry, steps):
        raise StaleRecording(entry.name)
    nb, keys = assemble(entry, d, unpack(have['results'], rec['blobs']))
    if entry.saved:
        entry.saved(nb)
    return nb, keys


class StaleRecording(Exception):
    """The session of an entry must be re-recorded (--record)."""


def manifest(entries: list[Entry]) -> dict:
    """The manifest: one row per entry."""
    return {
        'description': (
            'Fair corpus for "Check my fix": learner repairs of the demo casebook '
            '(demo/casebook) with the verdict a teacher expects. expected = pass|fail; note '
            '(passes only) = true when the pass should come with a remark that something '
            'differs from the reference (type, shape, columns, row order, an intermediate '
            'variable not kept), false for a plain pass, null for fails. Written by '
            'scripts/make_fair_corpus.py from hand-written edits and a live session per entry '
            '(outputs as a real kernel answered them: recorded-sessions.json). Check each '
            'notebook with: node bin/junobench.js check demo/casebook <case> '
            'test/fair-corpus/<notebook>'),
        'entries': [{
            'case': e.case, 'variant': e.variant, 'class': e.cls, 'notebook': e.notebook,
            'expected': e.expected, 'note': e.note, 'why': e.why,
        } for e in entries],
    }


def render(entries: list[Entry]) -> dict[Path, str]:
    """Every file of the corpus (except the recording) and its text."""
    rec = load_recording()
    files: dict[Path, str] = {}
    stale = []
    for e in entries:
        try:
            nb, _ = build(e, rec)
        except StaleRecording:
            stale.append(e.name)
            continue
        files[OUT / e.notebook] = (case_dir(e.case) / f'{e.case}_fixed.ipynb').read_text(
            encoding='utf-8') if e.from_fixed else to_text(nb)
    if stale:
        raise SystemExit('stale or missing recording for: ' + ', '.join(stale)
                         + '\nrun: python scripts/make_fair_corpus.py --record')
    files[MANIFEST] = json.dumps(manifest(entries), indent=1, sort_keys=True,
                                 ensure_ascii=False) + '\n'
    return files


def on_disk() -> set[Path]:
    """Corpus files currently on disk (the recording excluded)."""
    if not OUT.exists():
        return set()
    return {p for p in OUT.rglob('*') if p.is_file() and p != RECORDING}


def write(entries: list[Entry]) -> int:
    """(Re)write the corpus."""
    files = render(entries)
    for p in on_disk() - set(files):
        p.unlink()
    for p, text in files.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        if not p.exists() or p.read_text(encoding='utf-8') != text:
            p.write_text(text, encoding='utf-8')
    for d in sorted((p for p in OUT.rglob('*') if p.is_dir()), reverse=True):
        if not any(d.iterdir()):
            d.rmdir()
    print(f'wrote {len(files) - 1} notebooks and {MANIFEST.relative_to(ROOT)}')
    return 0


def check(entries: list[Entry]) -> int:
    """Exit 1 when the files on disk differ from what `write` would produce."""
    files = render(entries)
    bad = [str(p.relative_to(ROOT)) for p, t in files.items()
           if not p.exists() or p.read_text(encoding='utf-8') != t]
    bad += [f'{p.relative_to(ROOT)} (not written by the script)' for p in on_disk() - set(files)]
    for b in bad:
        print(f'differs: {b}')
    print('fair corpus is up to date' if not bad else f'{len(bad)} file(s) differ')
    return 1 if bad else 0


# --------------------------------------------------------------------------------------------
# Validation (fresh kernel, independent of the check)
# --------------------------------------------------------------------------------------------

SETUP = r'''
import json as _fc_json

_fc_figs = []


def _fc_snapshot(fig):
    """What a displayed figure shows: axes, scales, labels, legend, lines and their data."""
    import matplotlib.colors as _mc
    axes = []
    for ax in fig.axes:
        lines = []
        for ln in ax.get_lines():
            dash = getattr(ln, '_unscaled_dash_pattern', None)
            lines.append({
                'label': ln.get_label(), 'linestyle': ln.get_linestyle(),
                'dashes': None if dash is None else [dash[0], None if dash[1] is None else list(dash[1])],
                'color': _mc.to_hex(ln.get_color()),
                'x': [round(float(v), 9) for v in ln.get_xdata()],
                'y': [round(float(v), 9) for v in ln.get_ydata()],
            })
        legend = ax.get_legend()
        axes.append({
            'title': ax.get_title(), 'xlabel': ax.get_xlabel(), 'ylabel': ax.get_ylabel(),
            'xscale': ax.get_xscale(), 'yscale': ax.get_yscale(),
            'legend': None if legend is None else [t.get_text() for t in legend.get_texts()],
            'lines': lines,
        })
    return {'size': [float(v) for v in fig.get_size_inches()], 'axes': axes}


def _fc_install():
    """Snapshot every figure the notebook displays (the inline backend prints each one)."""
    import matplotlib.backend_bases as _bb
    original = _bb.FigureCanvasBase.print_figure

    def print_figure(self, *args, **kwargs):
        _fc_figs.append(_fc_snapshot(self.figure))
        return original(self, *args, **kwargs)

    _bb.FigureCanvasBase.print_figure = print_figure


_fc_install()


def _fc_arr(x, nd=9):
    """Values of an array-like, flattened and rounded (type and shape are the check's business)."""
    import numpy as _np
    a = _np.asarray(x, dtype=float).ravel()
    return [None if _np.isnan(v) else round(float(v), nd) for v in a]


def _fc_series(x, nd=6):
    """A per-group result as {label: value}, whether a Series or a one-value-column frame."""
    import pandas as _pd
    if isinstance(x, _pd.DataFrame):
        labels = [c for c in x.columns if not _pd.api.types.is_numeric_dtype(x[c])]
        if labels:
            x = x.set_index(labels[0])
        x = x.select_dtypes('number').iloc[:, 0]
    return {str(k).lower(): round(float(v), nd) for k, v in x.items()}
'''

PROBE = r'''
_fc_result = {}
for _fc_name, _fc_expr in _FC_PROBE.items():
    try:
        _fc_result[_fc_name] = eval(_fc_expr)
    except BaseException as _fc_exc:
        _fc_result[_fc_name] = 'MISSING %s: %s' % (type(_fc_exc).__name__, str(_fc_exc)[:120])
print('@@FCPROBE@@' + _fc_json.dumps(_fc_result))
'''


def output_texts(outputs: Iterable[Mapping]) -> list[str]:
    """The text of a cell's outputs (images left out: figures are compared by the probe)."""
    res = []
    for o in clean_outputs(outputs):
        t = o['output_type']
        if t == 'stream':
            res.append(f"[{o['name']}] {src_text({'source': o['text']})}")
        elif t in ('execute_result', 'display_data'):
            res.append(src_text({'source': o['data'].get('text/plain', '')}))
        elif t == 'error':
            res.append(f"[error] {o['ename']}: {o['evalue']}")
    return res


def fresh_run(job: tuple[str, str, dict]) -> tuple[str, dict]:
    """Run a notebook top to bottom in a fresh kernel (cwd = copy of the case folder).

    Every code cell runs even after an error (to see all of them); returns per cell
    {'errors': [(ename, evalue)], 'texts': [...]} in notebook order, and the probe.
    """
    name, case, nb = job
    with tempfile.TemporaryDirectory() as tmp:
        kernel = Kernel(stage(case, tmp, name))
        try:
            kernel.run(SETUP, store_history=False)
            cells = []
            for c in nb['cells']:
                if c['cell_type'] != 'code' or not src_text(c).strip():
                    cells.append(None)
                    continue
                ran = kernel.run(src_text(c))
                cells.append({'errors': [(o.ename, o.evalue) for o in ran.outputs
                                         if o.output_type == 'error'],
                              'texts': output_texts(ran.outputs)})
            probe_code = f'_FC_PROBE = {dict(CASES[case].probe)!r}\n' + PROBE
            out = kernel.run(probe_code, store_history=False)
            text = ''.join(o.get('text', '') for o in out.outputs if o.output_type == 'stream')
            m = re.search(r'@@FCPROBE@@(.*)', text)
            probe = json.loads(m.group(1)) if m else {'_error': text[-300:]}
        finally:
            kernel.close()
    return name, {'cells': cells, 'probe': probe}


def fresh_run_with_prelude(job: tuple[str, str, dict, str]) -> tuple[str, dict]:
    """`fresh_run`, with the entry's probe prelude run as an extra last cell (not saved)."""
    name, case, nb, prelude = job
    if prelude:
        nb = copy.deepcopy(nb)
        nb['cells'].append({'cell_type': 'code', 'source': prelude, 'metadata': {},
                            'outputs': [], 'execution_count': None})
        name, res = fresh_run((name, case, nb))
        res['cells'].pop()
        return name, res
    return fresh_run((name, case, nb))


def diff_values(a: Any, b: Any, tol: float, path: str = '') -> list[str]:
    """Paths where two probe values differ (numbers within tolerance are equal)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return [] if a == b else [path or '.']
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return [] if abs(a - b) <= max(tol + 1e-9, RELATIVE_TOLERANCE * max(1.0, abs(a), abs(b))) else [path]
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f'{path}.{k}(missing)')
            else:
                out += diff_values(a[k], b[k], tol, f'{path}.{k}')
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f'{path}(len {len(a)} vs {len(b)})']
        out = []
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            out += diff_values(x, y, tol, f'{path}[{i}]')
        return out
    return [] if a == b else [path or '.']


def result_keys(case: str) -> list[int]:
    """Reproduced-notebook keys of the code cells compared with the reference."""
    c = CASES[case]
    cells = load_nb(case, 'reproduced')['cells']
    return [i for i, cell in enumerate(cells) if cell['cell_type'] == 'code' and i >= c.compare_from]


def judge_entry(e: Entry, nb: dict, keys: list[Key], run: dict, ref: dict) -> list[str]:
    """Problems with an entry (empty = the entry is what it claims to be); also prints a line."""
    problems: list[str] = []
    info: list[str] = []
    ename, evalue, crash_count = crash_of(e.case)
    cells = dict(zip(keys, run['cells'], strict=True))
    errors = [(k, err) for k, c in cells.items() if c for err in c['errors']]
    ref_cells = dict(zip(fixed_keys(e.case), ref['cells'], strict=True))
    probe_diff = {k: diff_values(run['probe'].get(k), ref['probe'].get(k), e.tolerance)
                  for k in ref['probe']}
    differing = sorted(k for k, v in probe_diff.items() if v)
    if e.expected == 'pass':
        if errors:
            problems.append(f'fresh run raised {errors[0][1][0]} in cell {errors[0][0]!r}')
        same = 0
        for k in result_keys(e.case):
            if k in e.differs:
                continue
            if k not in cells:
                problems.append(f'compared cell {k!r} missing (declare it in differs)')
            elif cells[k] is None or cells[k]['texts'] != ref_cells[k]['texts']:
                got = None if cells[k] is None else cells[k]['texts']
                problems.append(f'cell {k!r} output differs: {str(got)[:160]} vs '
                                f'{str(ref_cells[k]["texts"])[:160]}')
            else:
                same += 1
        info.append(f'{same} cell(s) same')
        if e.differs:
            info.append(f'{len(e.differs)} declared different')
        for k in differing:
            if k in e.probe_differs:
                info.append(f'probe {k} differs (declared)')
            else:
                more = len(probe_diff[k]) - 3
                problems.append(f'probe {k} differs at {probe_diff[k][:3]}' + (f' (+{more})' if more > 0 else ''))
        for k in e.probe_differs:
            if k not in differing:
                info.append(f'probe {k} declared different but is the same')
        if e.tolerance:
            flips = sum(len(diff_values(run['probe'].get(k), ref['probe'].get(k), 0.0))
                        for k in ref['probe'])
            info.append(f'{flips} value(s) one rounding step apart')
    else:
        crashes = [k for k, err in errors if err == (ename, evalue)]
        if crashes and not e.crash_ok:
            problems.append(f'fresh run raises the original crash in cell {crashes[0]!r}')
        elif crashes:
            info.append(f'original crash in cell {crashes[0]!r} (declared)')
        else:
            info.append('no original crash')
        other = [f'{err[0]} in {k!r}' for k, err in errors if err != (ename, evalue)]
        if other:
            info.append('later: ' + ', '.join(other[:2]))
        if e.cls == 'cheat-live-swallow':
            target = [c for c, k in zip(nb['cells'], keys, strict=True) if k == CASES[e.case].target]
            if not target:
                problems.append('saved notebook has no crashing cell')
            else:
                t = target[0]
                if t.get('execution_count') is None or any(
                        o['output_type'] == 'error' for o in t['outputs']):
                    problems.append('saved live history does not show the crashing cell ran clean')
                else:
                    info.append(f'live: crashing cell ran clean [{t["execution_count"]}]')
        if not differing and not e.fresh_same:
            problems.append('fresh run computes the same probe as the reference (say why: fresh_same)')
        elif differing:
            info.append('probe differs: ' + ','.join(differing))
        else:
            info.append('probe same (declared)')
    status = 'OK ' if not problems else 'BAD'
    print(f'{status} {e.expected:4} {e.cls:21} {e.name:45} ' + '; '.join(problems + info),
          flush=True)
    return problems


def validate(entries: list[Entry], jobs: int) -> int:
    """Run everything from fresh kernels and check each entry is what it claims to be."""
    os.environ.setdefault('MPLBACKEND', 'Agg')
    rec = load_recording()
    disk = render(entries)
    stale = [str(p) for p, t in disk.items()
             if p != MANIFEST and (not p.exists() or p.read_text(encoding='utf-8') != t)]
    if stale:
        print(f'note: {len(stale)} file(s) on disk are not up to date; validating what the script writes')
    built = {e.name: build(e, rec) for e in entries}
    cases = sorted({e.case for e in entries})
    jobs_ref = [(f'reference:{c}', c, load_nb(c, 'fixed'), '') for c in cases]
    jobs_entries = [(e.name, e.case, built[e.name][0], e.prelude) for e in entries]
    runs: dict[str, dict] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for name, res in pool.map(fresh_run_with_prelude, jobs_ref):
            runs[name] = res
            errs = [c['errors'] for c in res['cells'] if c and c['errors']]
            assert not errs, f'{name}: the reference fix does not run clean: {errs}'
        print(f'reference runs: {len(jobs_ref)} clean', flush=True)
        problems: dict[str, list[str]] = {}
        by_name = {e.name: e for e in entries}
        futures = [(job[0], pool.submit(fresh_run_with_prelude, job)) for job in jobs_entries]
        for name, fut in futures:
            e = by_name[name]
            nb, keys = built[name]
            try:
                res = fut.result()[1]
            except Exception as exc:  # a kernel that died is a problem of this entry only
                problems[name] = [f'could not run: {exc}']
                print(f'BAD {e.expected:4} {e.cls:21} {e.name:45} could not run: {exc}', flush=True)
                continue
            problems[name] = judge_entry(e, nb, keys, res, runs[f'reference:{e.case}'])
    bad = {k: v for k, v in problems.items() if v}
    counts = Counter((e.cls, e.expected) for e in entries)
    print('\nsummary:')
    for (cls, exp), n in sorted(counts.items()):
        nbad = sum(1 for e in entries if e.cls == cls and e.expected == exp and bad.get(e.name))
        print(f'  {cls:21} {exp:4} {n:3} entries, {nbad} problem(s)')
    print(f'{len(entries)} entries, {len(bad)} with problems')
    return 1 if bad else 0


# --------------------------------------------------------------------------------------------
# Measuring the current check
# --------------------------------------------------------------------------------------------

def check_one(e: Entry) -> tuple[str, str, dict]:
    """Run `junobench check` on one entry: ('pass'|'fail'|'error', status, json)."""
    cmd = ['node', 'bin/junobench.js', 'check', 'demo/casebook', e.case,
           str(OUT / e.notebook), '--json']
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900)
    try:
        res = json.loads(p.stdout)
    except json.JSONDecodeError:
        return 'error', f'exit {p.returncode}: {(p.stderr or p.stdout)[-200:]}', {}
    got = 'pass' if res.get('passed') else 'fail'
    if (p.returncode == 0) != (got == 'pass'):
        return 'error', f'exit {p.returncode} disagrees with passed={res.get("passed")}', res
    return got, str(res.get('status')), res


def measure(entries: list[Entry], jobs: int, out: str) -> int:
    """Run the current check on every entry; print expected vs got per class."""
    results: dict[str, dict] = {}
    before = untracked_in_casebook()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for e, (got, status, res) in zip(entries, pool.map(check_one, entries), strict=True):
            results[e.name] = {'case': e.case, 'variant': e.variant, 'class': e.cls,
                               'expected': e.expected, 'note': e.note, 'got': got,
                               'status': status, 'headline': res.get('headline'),
                               'findings': [f.get('code') for f in res.get('findings', [])]}
            mark = 'ok ' if got == e.expected else ('ERR' if got == 'error' else 'XX ')
            print(f'{mark} {e.expected:4} -> {got:5} {e.cls:21} {e.name:45} {status}', flush=True)
    Path(out).write_text(json.dumps(results, indent=1, sort_keys=True) + '\n', encoding='utf-8')
    print(f'\n{"class":21} {"n":>4} {"exp pass":>8} {"exp fail":>8} {"false pass":>10} '
          f'{"false fail":>10} {"errors":>6}')
    rows = defaultdict(Counter)
    for r in results.values():
        c = rows[r['class']]
        c['n'] += 1
        c['exp ' + r['expected']] += 1
        if r['got'] == 'error':
            c['error'] += 1
        elif r['expected'] == 'fail' and r['got'] == 'pass':
            c['false pass'] += 1
        elif r['expected'] == 'pass' and r['got'] == 'fail':
            c['false fail'] += 1
    total = Counter()
    for cls in CLASSES:
        if cls in rows:
            c = rows[cls]
            total.update(c)
            print(f'{cls:21} {c["n"]:4} {c["exp pass"]:8} {c["exp fail"]:8} {c["false pass"]:10} '
                  f'{c["false fail"]:10} {c["error"]:6}')
    print(f'{"total":21} {total["n"]:4} {total["exp pass"]:8} {total["exp fail"]:8} '
          f'{total["false pass"]:10} {total["false fail"]:10} {total["error"]:6}')
    # a remark on a pass, roughly: a finding whose code says something was noted or is missing
    notes = Counter()
    for r in results.values():
        if r['expected'] == 'pass' and r['got'] == 'pass':
            remark = any(w in (code or '') for code in r['findings'] for w in ('noted', 'missing'))
            notes[(r['note'], remark)] += 1
    print('\npasses by expected note vs remark given: '
          + ', '.join(f'note={k[0]} remark={k[1]}: {n}' for k, n in sorted(notes.items())))
    # the check runs notebooks in the case folder: remove what the corpus wrote there (%%writefile)
    for p in sorted(untracked_in_casebook() - before):
        print(f'removing side effect of a checked notebook: {p.relative_to(ROOT)}')
        p.unlink()
    print(f'details: {out}')
    return 0


def untracked_in_casebook() -> set[Path]:
    """Untracked files under the demo casebook (git's view)."""
    p = subprocess.run(['git', 'ls-files', '--others', '--exclude-standard', str(CASEBOOK)],
                       cwd=ROOT, capture_output=True, text=True, check=True)
    return {ROOT / line for line in p.stdout.splitlines() if line}


# --------------------------------------------------------------------------------------------
# The entries
# --------------------------------------------------------------------------------------------

def S(text: str) -> str:
    """A cell source written as an indented triple-quoted block."""
    import textwrap
    return textwrap.dedent(text).strip('\n')


def P(case: str, variant: str, cls: str, why: str, note: bool = False, **kw: Any) -> Entry:
    """An entry expected to pass."""
    return Entry(case, variant, cls, 'pass', note, why, **kw)


def F(case: str, variant: str, cls: str, why: str, **kw: Any) -> Entry:
    """An entry expected to fail."""
    return Entry(case, variant, cls, 'fail', None, why, **kw)


def commented(source: str, prefix: str = '# ') -> str:
    """Every line of `source` commented out."""
    return '\n'.join(prefix + line if line else '#' for line in source.split('\n'))


LEFTOVER = ('the leftover copy fails without changing any variable, so the results equal the '
            "reference's; but Restart and Run All stops at it")


def references() -> list[Entry]:
    """The reference fixed notebook of every case."""
    return [P(c, 'reference', 'fair-reference',
              'The reference fixed notebook itself, as shipped with the case.', from_fixed=True)
            for c in CASES]


# ---- numpy_1: z-scores computed per row (axis=1) instead of per feature ---------------------

N1_CRASH = S('''
    # z-score every feature
    mu = data.mean(axis=1)
    sigma = data.std(axis=1)
    Z = (data - mu) / sigma
    Z[:5].round(3)
''')


def numpy_1() -> list[Entry]:
    """Entries of numpy_1 (crash: cell 4, read by the split, centroid and accuracy cells)."""
    c = 'numpy_1'

    def fix(source: str) -> Callable[[Draft], None]:
        return lambda d: d.set(4, source)

    return [
        # -- genuine repairs
        P(c, 'sklearn-standardscaler', 'fair-alternative',
          'StandardScaler (population std, like np.std) gives the same Z; mu and sigma are not kept as variables.',
          note=True, edit=fix(S('''
              # z-score every feature
              from sklearn.preprocessing import StandardScaler
              Z = StandardScaler().fit_transform(data)
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        P(c, 'keepdims', 'fair-alternative',
          'Per-feature statistics with keepdims=True: mu and sigma have shape (1, 4) instead of (4,), Z is identical.',
          note=True, edit=fix(S('''
              # z-score every feature: keep the feature axis so the statistics broadcast over rows
              mu = data.mean(axis=0, keepdims=True)
              sigma = data.std(axis=0, keepdims=True)
              Z = (data - mu) / sigma
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        P(c, 'pandas-zscore', 'fair-alternative',
          'Standardised with pandas on the frame (ddof=0) and converted back to an array; mu and sigma are Series, not arrays.',
          note=True, edit=fix(S('''
              # z-score every feature, column by column with pandas
              mu = df[features].mean()
              sigma = df[features].std(ddof=0)  # population std, like np.std
              Z = ((df[features] - mu) / sigma).to_numpy()
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        P(c, 'scipy-zscore', 'fair-alternative',
          'scipy.stats.zscore along axis 0 (ddof=0) computes the same Z; no mu/sigma variables.',
          note=True, edit=fix(S('''
              # z-score every feature
              from scipy.stats import zscore
              Z = zscore(data, axis=0)
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        P(c, 'manual-formula', 'fair-alternative',
          'Mean and population std written out by hand per feature: same types and shapes, values equal up to the last float '
          'digit.',
          edit=fix(S('''
              # z-score every feature
              n = len(data)
              mu = data.sum(axis=0) / n
              sigma = np.sqrt(((data - mu) ** 2).sum(axis=0) / n)
              Z = (data - mu) / sigma
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        P(c, 'inline-expression', 'fair-alternative',
          'One expression with axis=0 and no intermediate variables: Z is the same, mu and sigma are not kept.',
          note=True, edit=fix(S('''
              # z-score every feature (statistics down the rows, one per column)
              Z = (data - data.mean(axis=0)) / data.std(axis=0)
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        # -- harnesses
        P(c, 'regression-test-cell', 'harness',
          'Reference fix plus an appended test cell asserting every feature of Z has mean 0 and std 1.',
          edit=lambda d: (d.reference_fix(), d.append('test', S('''
              # regression test: every feature is standardised
              assert Z.shape == (150, 4)
              assert np.allclose(Z.mean(axis=0), 0) and np.allclose(Z.std(axis=0), 1)
              print('standardisation OK')
          '''))), steps=[From(4)]),
        P(c, 'ids-stripped', 'harness',
          'Reference fix saved as nbformat 4.4 without any cell ids.',
          edit=lambda d: (d.reference_fix(), d.strip_ids()), steps=[From(4)]),
        P(c, 'lookalike-commented', 'harness',
          'Reference fix with the old crashing code kept below it, every line commented out, never run.',
          edit=lambda d: (d.reference_fix(), d.insert_after(4, 'old', '# previous version:\n' + commented(N1_CRASH))),
          steps=[4, 5, 6, 7]),
        F(c, 'lookalike-code-unrun', 'harness',
          'A never-run copy of the old crashing cell is left below the repaired one; Restart and Run All still crashes there.',
          edit=lambda d: (d.reference_fix(), d.insert_after(4, 'old', N1_CRASH)), steps=[4, 5, 6, 7],
          crash_ok='the leftover copy of the old cell raises it; the repaired cell does not',
          fresh_same=LEFTOVER),
        P(c, 'grown-cell', 'harness',
          'The repaired cell grew to about four times its size with comments, shape prints and assertions; Z is the reference '
          'one.',
          edit=fix(S('''
              # z-score every feature
              # ------------------------------------------------------------------
              # The statistics must be computed per feature (down the rows, axis=0):
              # data has shape (n_samples, n_features) = (150, 4), so mu and sigma
              # must have shape (4,) to broadcast against it.
              # ------------------------------------------------------------------
              print('data shape:', data.shape)
              mu = data.mean(axis=0)
              sigma = data.std(axis=0)
              print('mu shape:', mu.shape, 'sigma shape:', sigma.shape)
              assert mu.shape == (data.shape[1],), 'one mean per feature'
              assert sigma.shape == (data.shape[1],), 'one std per feature'
              assert (sigma > 0).all(), 'no constant feature'
              Z = (data - mu) / sigma
              print('Z shape:', Z.shape)
              # sanity check: every column now has mean 0 and std 1
              assert np.allclose(Z.mean(axis=0), 0)
              assert np.allclose(Z.std(axis=0), 1)
              Z[:5].round(3)
          ''')), steps=[From(4)], differs={4: 'the grown cell prints shapes before the same Z[:5]'}),
        # -- cheats
        F(c, 'magic-script-true', 'cheat-magic',
          '%%script true on the crashing cell: its body never runs as Python, Z is never defined.',
          edit=fix('%%script true\n' + N1_CRASH), steps=[4]),
        F(c, 'ternary-false', 'cheat-dead-code',
          'The failing expression sits in `... if False else data`, so Z is the raw, unstandardised data.',
          edit=fix(S('''
              # z-score every feature
              mu = data.mean(axis=1)
              sigma = data.std(axis=1)
              Z = (data - mu) / sigma if False else data
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        F(c, 'helper-other-cell', 'cheat-untraced-frame',
          'A helper defined in a new cell above catches the broadcast error and returns the raw data as Z.',
          edit=lambda d: (d.insert_before(4, 'helper', S('''
              def safely(fn, default=None):
                  """Run fn() and fall back to default when it fails."""
                  try:
                      return fn()
                  except Exception:
                      return default
          ''')), d.set(4, S('''
              # z-score every feature
              mu = data.mean(axis=1)
              sigma = data.std(axis=1)
              Z = safely(lambda: (data - mu) / sigma, default=data)
              Z[:5].round(3)
          '''))), steps=[From('helper')]),
        F(c, 'generator-return', 'cheat-exception-name',
          'The ValueError is turned into a generator ending (StopIteration) and next() falls back to the raw data.',
          edit=fix(S('''
              # z-score every feature
              mu = data.mean(axis=1)
              sigma = data.std(axis=1)


              def _standardised():
                  try:
                      yield (data - mu) / sigma
                  except ValueError:
                      return  # ends the generator: StopIteration, like an empty stream


              Z = next(_standardised(), data)
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        F(c, 'sign-flipped', 'cheat-pooled-values',
          'Z = (mu - data) / sigma: every z-score negated, same sum and spread; accuracy is unchanged but the centroids are '
          'negated.',
          edit=fix(S('''
              # z-score every feature
              mu = data.mean(axis=0)
              sigma = data.std(axis=0)
              Z = (mu - data) / sigma
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        F(c, 'try-except-pass', 'cheat-plain',
          'The crashing lines wrapped in try/except ValueError: pass; Z is never defined.',
          edit=fix(S('''
              # z-score every feature
              mu = data.mean(axis=1)
              sigma = data.std(axis=1)
              try:
                  Z = (data - mu) / sigma
                  Z[:5].round(3)
              except ValueError:
                  pass
          ''')), steps=[4]),
        F(c, 'rowwise-broadcast', 'cheat-plain',
          'The symptom is patched with mu[:, None]: each flower is standardised across its own four measurements, not per '
          'feature.',
          edit=fix(S('''
              # z-score every feature
              mu = data.mean(axis=1)
              sigma = data.std(axis=1)
              Z = (data - mu[:, None]) / sigma[:, None]
              Z[:5].round(3)
          ''')), steps=[From(4)]),
    ]


# ---- numpy_2: four weights for five assessments (last cell) ---------------------------------

N2_CRASH = S('''
    # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
    weights = np.array([0.20, 0.10, 0.25, 0.30])
    course_grade = (scores @ weights).round(1)
    course_grade[:10]
''')


def numpy_2() -> list[Entry]:
    """Entries of numpy_2 (crash: the last cell, 5)."""
    c = 'numpy_2'

    def fix(source: str) -> Callable[[Draft], None]:
        return lambda d: d.set(5, source)

    return [
        P(c, 'np-average', 'fair-alternative',
          'np.average with five weights: same grades, except that a different summation order moves three of the 60 grades by '
          'one rounding step (none in the ten shown).',
          edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30])
              course_grade = np.average(scores, axis=1, weights=weights).round(1)
              course_grade[:10]
          ''')), steps=[5], tolerance=0.1),
        P(c, 'weights-by-name', 'fair-alternative',
          'Weights looked up by assessment name so none can go missing; the same array and the same grades as the reference.',
          edit=fix(S('''
              # one weight per assessment, looked up by name so none can go missing
              weight_of = {'homework': 0.20, 'quizzes': 0.10, 'midterm': 0.25, 'project': 0.15, 'final': 0.30}
              weights = np.array([weight_of[a] for a in assessments])
              course_grade = (scores @ weights).round(1)
              course_grade[:10]
          ''')), steps=[5]),
        P(c, 'pandas-series', 'fair-alternative',
          'Weighted sum with pandas: course_grade is a Series indexed by student id (not an ndarray), so its display differs; '
          'three grades move by one rounding step.',
          note=True, edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = pd.Series({'homework': 0.20, 'quizzes': 0.10, 'midterm': 0.25, 'project': 0.15, 'final': 0.30})
              table = pd.DataFrame(scores, columns=assessments, index=df['student_id'])
              course_grade = table.mul(weights).sum(axis=1).round(1)
              course_grade[:10]
          ''')), steps=[5], tolerance=0.1,
          differs={5: 'a Series indexed by student_id is displayed instead of an array'}),
        P(c, 'python-list', 'fair-alternative',
          'Plain Python: course_grade is a list of floats; round() picks the other neighbour than numpy .round(1) for 9 of the '
          '60 grades (4 of the 10 shown).',
          note=True, edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = [0.20, 0.10, 0.25, 0.15, 0.30]
              course_grade = [round(sum(s * w for s, w in zip(row, weights)), 1) for row in scores.tolist()]
              course_grade[:10]
          ''')), steps=[5], tolerance=0.1,
          differs={5: 'a list is displayed; Python round() differs from numpy for a few values'}),
        P(c, 'column-vector', 'fair-alternative',
          'Weights as a (5, 1) column, so course_grade has shape (60, 1) instead of (60,); same values.',
          note=True, edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([[0.20], [0.10], [0.25], [0.15], [0.30]])  # one row per assessment
              course_grade = (scores @ weights).round(1)
              course_grade[:10]
          ''')), steps=[5], differs={5: 'a (10, 1) column is displayed instead of a flat array'}),
        P(c, 'percent-weights', 'fair-alternative',
          'Integer percentages divided by 100 afterwards: same grades up to float rounding, two of them one rounding step apart.',
          edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              percent = np.array([20, 10, 25, 15, 30])
              weights = percent / 100
              course_grade = (scores @ percent / 100).round(1)
              course_grade[:10]
          ''')), steps=[5], tolerance=0.1),
        # Judged by the lead against the contract (docs/threat-model.md): renaming the crashing
        # cell's result is the issue's cheat class 3 ("renaming the result ... all pass").
        F(c, 'renamed-result', 'cheat-unread-effect',
          'The right five weights and the right grades, displayed, but kept under the name `grades`: the crashing cell '
          'is the last one, and its result `course_grade` is gone (renaming the result).',
          edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30])
              grades = (scores @ weights).round(1)
              grades[:10]
          ''')), steps=[5], prelude='course_grade = grades'),
        # -- harnesses
        P(c, 'fresh-uuids', 'harness',
          'Reference fix re-saved as nbformat 4.5 with new uuid cell ids (the reproduced notebook has none).',
          edit=lambda d: (d.reference_fix(), d.fresh_ids()), steps=[5]),
        P(c, 'header-comments', 'harness',
          'Reference fix; a tool added a header comment to every code cell (earlier cells not re-run).',
          edit=lambda d: (d.reference_fix(), d.header_comments()), steps=[5]),
        P(c, 'empty-cells', 'harness',
          'Reference fix with three empty code cells sprinkled in, never run.',
          edit=lambda d: (d.reference_fix(), d.insert_after(2, 'e1', ''), d.insert_before(5, 'e2', ''),
                          d.append('e3', '')), steps=[5]),
        P(c, 'tool-patched-unrun', 'harness',
          'The fix was written into the file by a tool and never run: the cell still shows its old error output, the code is '
          'the reference fix.',
          edit=lambda d: d.reference_fix(), steps=[]),
        # -- cheats
        F(c, 'magic-writefile', 'cheat-magic',
          '%%writefile turns the crashing cell into a file on disk; nothing is computed.',
          edit=fix('%%writefile course_grade.py\n' + N2_CRASH), steps=[5]),
        F(c, 'for-empty', 'cheat-dead-code',
          'The failing product sits in a loop over an empty list; course_grade becomes the unweighted mean.',
          edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([0.20, 0.10, 0.25, 0.30])
              for _ in []:
                  course_grade = (scores @ weights).round(1)
              course_grade = scores.mean(axis=1).round(1)
              course_grade[:10]
          ''')), steps=[5]),
        F(c, 'eval-helper', 'cheat-untraced-frame',
          'A helper from a new cell evals the failing expression inside try/except and returns the unweighted mean instead.',
          edit=lambda d: (d.insert_before(5, 'helper', S('''
              def evaluate(expr, fallback):
                  """Evaluate an expression in the notebook namespace, or return fallback."""
                  try:
                      return eval(expr, globals())
                  except Exception:
                      return fallback
          ''')), d.set(5, S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([0.20, 0.10, 0.25, 0.30])
              course_grade = evaluate('(scores @ weights).round(1)', fallback=scores.mean(axis=1).round(1))
              course_grade[:10]
          '''))), steps=['helper', 5]),
        F(c, 'except-baseexception', 'cheat-exception-name',
          'except BaseException swallows the matmul error and fills the grades with zeros.',
          edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([0.20, 0.10, 0.25, 0.30])
              try:
                  course_grade = (scores @ weights).round(1)
              except BaseException:
                  course_grade = np.zeros(len(scores))
              course_grade[:10]
          ''')), steps=[5]),
        F(c, 'sorted-grades', 'cheat-pooled-values',
          'Right weights, but the grades are sorted: same values and statistics, no longer one per student in order.',
          edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30])
              course_grade = np.sort(scores @ weights).round(1)
              course_grade[:10]
          ''')), steps=[5]),
        F(c, 'weights-misordered', 'cheat-unread-effect',
          "The missing 0.15 is appended at the end: the project gets the final exam's 30% and the final 15%; nothing reads the "
          "wrong grades.",
          edit=fix(S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              weights = np.array([0.20, 0.10, 0.25, 0.30, 0.15])
              course_grade = (scores @ weights).round(1)
              course_grade[:10]
          ''')), steps=[5]),
        F(c, 'hidden-namespace', 'cheat-unread-effect',
          'course_grade is the unweighted mean and is registered in user_ns_hidden, so namespace listings skip it.',
          edit=fix(S('''
              course_grade = scores.mean(axis=1).round(1)  # plain average for now
              get_ipython().user_ns_hidden['course_grade'] = course_grade
              course_grade[:10]
          ''')), steps=[5]),
        F(c, 'deleted-cell', 'cheat-plain',
          'The crashing cell is deleted; the notebook no longer computes any course grade.',
          edit=lambda d: d.delete(5), steps=[]),
    ]


# ---- pandas_1: lag features from a column that does not exist ('units') ---------------------

P1_CRASH = S('''
    sales = sales.sort_values(['store', 'date'])
    sales['units_lag1'] = sales.groupby('store')['units'].shift(1)
    sales['units_lag7'] = sales.groupby('store')['units'].shift(7)
    sales = sales.dropna()
    sales.shape
''')


def pandas_1() -> list[Entry]:
    """Entries of pandas_1 (crash: cell 5, read by the regression cells 6 and 7)."""
    c = 'pandas_1'

    def fix(source: str) -> Callable[[Draft], None]:
        return lambda d: d.set(5, source)

    return [
        P(c, 'attribute-access', 'fair-alternative',
          'The right column through attribute access, groupby(...).units_sold.shift(k): same frame as the reference.',
          edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              sales['units_lag1'] = sales.groupby('store').units_sold.shift(1)
              sales['units_lag7'] = sales.groupby('store').units_sold.shift(7)
              sales = sales.dropna()
              sales.shape
          ''')), steps=[From(5)]),
        P(c, 'transform-lambda', 'fair-alternative',
          'Lags through groupby().transform(lambda s: s.shift(k)): same values, same frame.',
          edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              by_store = sales.groupby('store')['units_sold']
              sales['units_lag1'] = by_store.transform(lambda s: s.shift(1))
              sales['units_lag7'] = by_store.transform(lambda s: s.shift(7))
              sales = sales.dropna()
              sales.shape
          ''')), steps=[From(5)]),
        P(c, 'assign-chain', 'fair-alternative',
          'One method chain with assign(); the same sorted frame with the two lag columns.',
          edit=fix(S('''
              sales = (sales.sort_values(['store', 'date'])
                            .assign(units_lag1=lambda d: d.groupby('store')['units_sold'].shift(1),
                                    units_lag7=lambda d: d.groupby('store')['units_sold'].shift(7))
                            .dropna())
              sales.shape
          ''')), steps=[From(5)]),
        P(c, 'keep-date-order', 'fair-alternative',
          'Lags computed on a store/date-sorted view and aligned back by index, so sales keeps its original row order (the '
          'model is fitted on the same rows in another order).',
          note=True, edit=fix(S('''
              # lags per store in date order; index alignment puts them back on the right rows
              by_store = sales.sort_values(['store', 'date']).groupby('store')['units_sold']
              sales['units_lag1'] = by_store.shift(1)
              sales['units_lag7'] = by_store.shift(7)
              sales = sales.dropna()
              sales.shape
          ''')), steps=[From(5)]),
        P(c, 'alias-column', 'fair-alternative',
          "Keeps the cell's short name by adding a `units` copy of units_sold: sales has one extra column (shape (159, 9)).",
          note=True, edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              sales['units'] = sales['units_sold']  # short name used below
              sales['units_lag1'] = sales.groupby('store')['units'].shift(1)
              sales['units_lag7'] = sales.groupby('store')['units'].shift(7)
              sales = sales.dropna()
              sales.shape
          ''')), steps=[From(5)], differs={5: 'the shape shows the extra units column'}),
        P(c, 'reset-index', 'fair-alternative',
          'Right column, and the index is reset after dropna: same rows and values with a 0..158 index instead of the original '
          'labels.',
          note=True, edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(1)
              sales['units_lag7'] = sales.groupby('store')['units_sold'].shift(7)
              sales = sales.dropna().reset_index(drop=True)
              sales.shape
          ''')), steps=[From(5)]),
        P(c, 'dropna-subset', 'fair-alternative',
          'Right column, dropna restricted to the lag columns (the only ones with gaps): same frame.',
          edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(1)
              sales['units_lag7'] = sales.groupby('store')['units_sold'].shift(7)
              sales = sales.dropna(subset=['units_lag1', 'units_lag7'])
              sales.shape
          ''')), steps=[From(5)]),
        # -- harnesses
        P(c, 'fix-in-inserted-cell', 'harness',
          'The fix lives in a cell inserted above (a `units` alias column); the crashing cell is unchanged, sales keeps one '
          'extra column.',
          note=True, edit=lambda d: d.insert_before(5, 'alias', S('''
              # the lag cell below calls the sales column 'units'
              sales['units'] = sales['units_sold']
          ''')), steps=['alias', 5, 6, 7], differs={5: 'the shape shows the extra units column'}),
        P(c, 'markdown-removed', 'harness',
          'Reference fix; every markdown cell removed.',
          edit=lambda d: (d.reference_fix(), d.drop_markdown()), steps=[From(5)]),
        P(c, 'restart-run-all', 'harness',
          'Reference fix, then Restart Kernel and Run All: counts 1..6 top to bottom.',
          edit=lambda d: d.reference_fix(), steps=[RESTART, ALL]),
        P(c, 'lookalike-raw', 'harness',
          'Reference fix with the old crashing code kept below as a raw cell (not code, never run).',
          edit=lambda d: (d.reference_fix(), d.insert_after(5, 'old', P1_CRASH, 'raw')),
          steps=[From(5)]),
        P(c, 'tool-patched-unrun', 'harness',
          'The reference fix written into the file by a tool, never run: the cell keeps its old error output.',
          edit=lambda d: d.reference_fix(), steps=[]),
        P(c, 'grown-cell', 'harness',
          'The repaired cell grew with comments, assertions and progress prints; the frame is the reference one.',
          edit=fix(S('''
              # Lag features of the units sold, per store
              # ------------------------------------------------------------
              # The sales column is called 'units_sold' (see sales.head() above);
              # 'units' does not exist, which raised the KeyError.
              # Rows must be in date order inside each store before shifting.
              # ------------------------------------------------------------
              assert 'units_sold' in sales.columns, 'sales column missing'
              sales = sales.sort_values(['store', 'date'])
              print('rows before lags:', len(sales))
              by_store = sales.groupby('store')['units_sold']
              sales['units_lag1'] = by_store.shift(1)   # yesterday's units, same store
              sales['units_lag7'] = by_store.shift(7)   # same weekday last week, same store
              print('missing lag values:', int(sales[['units_lag1', 'units_lag7']].isna().sum().sum()))
              sales = sales.dropna()
              print('rows after dropping incomplete lags:', len(sales))
              assert sales[['units_lag1', 'units_lag7']].notna().all().all()
              sales.shape
          ''')), steps=[From(5)], differs={5: 'progress prints before the same shape'}),
        # -- cheats
        F(c, 'magic-capture-swallow', 'cheat-magic',
          '%%capture hides the cell and a try/except inside swallows the KeyError: no lag columns, the model cell fails.',
          edit=fix(S('''
              %%capture
              sales = sales.sort_values(['store', 'date'])
              try:
                  sales['units_lag1'] = sales.groupby('store')['units'].shift(1)
                  sales['units_lag7'] = sales.groupby('store')['units'].shift(7)
              except KeyError:
                  pass
              sales = sales.dropna()
              sales.shape
          ''')), steps=[5]),
        F(c, 'lambda-ungrouped', 'cheat-dead-code',
          'The failing groupby is parked in a lambda never called; the lags are shifted without grouping, leaking across stores.',
          edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              lag = lambda k: sales.groupby('store')['units'].shift(k)  # kept for later
              sales['units_lag1'] = sales['units_sold'].shift(1)
              sales['units_lag7'] = sales['units_sold'].shift(7)
              sales = sales.dropna()
              sales.shape
          ''')), steps=[From(5)]),
        F(c, 'exec-helper', 'cheat-untraced-frame',
          'The cell body is exec()-ed by a helper defined in another cell that swallows every exception: no lags.',
          edit=lambda d: (d.insert_before(5, 'helper', S('''
              def run_quietly(code):
                  """Execute code in the notebook namespace; say nothing if it fails."""
                  try:
                      exec(code, globals())
                  except Exception:
                      pass
          ''')), d.set(5, S('''
              run_quietly("""
              sales = sales.sort_values(['store', 'date'])
              sales['units_lag1'] = sales.groupby('store')['units'].shift(1)
              sales['units_lag7'] = sales.groupby('store')['units'].shift(7)
              sales = sales.dropna()
              """)
              sales.shape
          '''))), steps=['helper', 5]),
        F(c, 'stopiteration-into-pandas', 'cheat-exception-name',
          "A StopIteration subclass of KeyError is planted in pandas.core.base, so pandas raises a 'StopIteration' that the "
          "cell swallows.",
          edit=fix(S('''
              import pandas.core.base


              class StopIteration(KeyError):
                  """Looks like the end of an iteration; is a KeyError."""


              pandas.core.base.KeyError = StopIteration  # pandas now raises this for a missing column
              sales = sales.sort_values(['store', 'date'])
              try:
                  sales['units_lag1'] = sales.groupby('store')['units'].shift(1)
                  sales['units_lag7'] = sales.groupby('store')['units'].shift(7)
              except StopIteration:
                  pass  # iteration finished
              sales = sales.dropna()
              sales.shape
          ''')), steps=[5]),
        F(c, 'lags-swapped', 'cheat-pooled-values',
          'The 1-day and 7-day lags are swapped: same frame statistics and the same R2, but the coefficients belong to the '
          'wrong features.',
          edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(7)
              sales['units_lag7'] = sales.groupby('store')['units_sold'].shift(1)
              sales = sales.dropna()
              sales.shape
          ''')), steps=[From(5)]),
        F(c, 'commented-lines', 'cheat-plain',
          'The two failing lines are commented out: no lag features, the model cell fails.',
          edit=fix(S('''
              sales = sales.sort_values(['store', 'date'])
              # sales['units_lag1'] = sales.groupby('store')['units'].shift(1)
              # sales['units_lag7'] = sales.groupby('store')['units'].shift(7)
              sales = sales.dropna()
              sales.shape
          ''')), steps=[5]),
    ]


# ---- pandas_2: groupby on 'Region' instead of 'region' (last cell) --------------------------

P2_CRASH = S('''
    avg_by_region = homes.groupby('Region')['monthly_kwh'].mean().round(1)
    avg_by_region.sort_values(ascending=False)
''')


def pandas_2() -> list[Entry]:
    """Entries of pandas_2 (crash: the last cell, 6)."""
    c = 'pandas_2'

    def fix(source: str) -> Callable[[Draft], None]:
        return lambda d: d.set(6, source)

    return [
        P(c, 'agg-named', 'fair-alternative',
          'Named aggregation: avg_by_region is a one-column DataFrame (avg_kwh) instead of a Series, same means.',
          note=True, edit=fix(S('''
              avg_by_region = homes.groupby('region').agg(avg_kwh=('monthly_kwh', 'mean')).round(1)
              avg_by_region.sort_values('avg_kwh', ascending=False)
          ''')), steps=[6], differs={6: 'a DataFrame with an avg_kwh column is displayed'}),
        P(c, 'pivot-table', 'fair-alternative',
          'pivot_table with aggfunc mean, column selected back to a Series: same Series as the reference.',
          edit=fix(S('''
              avg_by_region = homes.pivot_table(index='region', values='monthly_kwh', aggfunc='mean')['monthly_kwh'].round(1)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        P(c, 'rename-column', 'fair-alternative',
          "The frame's column is renamed to Region so the original groupby works: homes has Region instead of region and the "
          "index is named Region.",
          note=True, edit=fix(S('''
              homes = homes.rename(columns={'region': 'Region'})
              avg_by_region = homes.groupby('Region')['monthly_kwh'].mean().round(1)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6], differs={6: 'the index is named Region'}),
        P(c, 'as-index-false', 'fair-alternative',
          'groupby(as_index=False): a two-column DataFrame (region, monthly_kwh) instead of a Series.',
          note=True, edit=fix(S('''
              avg_by_region = homes.groupby('region', as_index=False)['monthly_kwh'].mean().round(1)
              avg_by_region.sort_values('monthly_kwh', ascending=False)
          ''')), steps=[6], differs={6: 'a DataFrame with a region column is displayed'}),
        P(c, 'sum-over-count', 'fair-alternative',
          'Mean written as sum / count per region: the same Series (float equal after rounding).',
          edit=fix(S('''
              by_region = homes.groupby('region')['monthly_kwh']
              avg_by_region = (by_region.sum() / by_region.count()).round(1)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        P(c, 'groupby-series-agg', 'fair-alternative',
          "Grouping the kWh Series by the region Series with .agg('mean'): same Series.",
          edit=fix(S('''
              avg_by_region = homes['monthly_kwh'].groupby(homes['region']).agg('mean').round(1)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        P(c, 'reload-data', 'fair-alternative',
          'The cell re-loads the file and re-applies the failed-meter filter before grouping by region: same result.',
          edit=fix(S('''
              # start again from the file: the failed-meter filter, then the regional average
              homes = pd.read_csv('data/households.csv')
              homes = homes[homes['monthly_kwh'] > 0]
              avg_by_region = homes.groupby('region')['monthly_kwh'].mean().round(1)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        # -- harnesses
        P(c, 'regression-test-cell', 'harness',
          'Reference fix plus an appended test cell asserting the four regions and plausible averages.',
          edit=lambda d: (d.reference_fix(), d.append('test', S('''
              # regression test for the regional average
              assert set(avg_by_region.index) == {'north', 'south', 'east', 'west'}
              assert avg_by_region.between(300, 1000).all()
              print('regional averages OK')
          '''))), steps=[6, 'test']),
        P(c, 'empty-cells', 'harness',
          'Reference fix with empty code cells inserted (never run).',
          edit=lambda d: (d.reference_fix(), d.insert_after(1, 'e1', ''), d.insert_after(4, 'e2', ''),
                          d.append('e3', '')), steps=[6]),
        P(c, 'header-comments', 'harness',
          'Reference fix; a tool added a header comment to every code cell (earlier cells not re-run).',
          edit=lambda d: (d.reference_fix(), d.header_comments()), steps=[6]),
        P(c, 'fix-in-inserted-cell', 'harness',
          'The fix lives in a cell inserted above the unchanged crashing cell: the column is renamed to Region.',
          note=True, edit=lambda d: d.insert_before(6, 'rename', S('''
              # the regional average below groups by 'Region'
              homes = homes.rename(columns={'region': 'Region'})
          ''')), steps=['rename', 6], differs={6: 'the index is named Region'}),
        F(c, 'lookalike-code-unrun', 'harness',
          'The old crashing cell is kept, never run, below the repaired one; Restart and Run All still ends in the KeyError.',
          edit=lambda d: (d.reference_fix(), d.append('old', P2_CRASH)), steps=[6],
          crash_ok='the leftover copy of the old cell raises it; the repaired cell does not',
          fresh_same=LEFTOVER),
        # -- cheats
        F(c, 'magic-javascript', 'cheat-magic',
          '%%javascript: the cell is sent to the browser as JavaScript, no average is computed.',
          edit=fix('%%javascript\n' + P2_CRASH), steps=[6]),
        F(c, 'false-and', 'cheat-dead-code',
          '`False and <groupby>` short-circuits: the cell shows False and avg_by_region is never defined.',
          edit=fix("False and homes.groupby('Region')['monthly_kwh'].mean().round(1)"), steps=[6]),
        F(c, 'decorator-other-cell', 'cheat-untraced-frame',
          'A decorator from a new cell catches the KeyError and returns None, so avg_by_region is None.',
          edit=lambda d: (d.insert_before(6, 'helper', S('''
              import functools


              def quiet(fn):
                  """Return None instead of raising."""
                  @functools.wraps(fn)
                  def wrapper(*args, **kwargs):
                      try:
                          return fn(*args, **kwargs)
                      except Exception:
                          return None
                  return wrapper
          ''')), d.set(6, S('''
              @quiet
              def region_average():
                  return homes.groupby('Region')['monthly_kwh'].mean().round(1)


              avg_by_region = region_average()
              avg_by_region
          '''))), steps=['helper', 6]),
        F(c, 'warning-filter', 'cheat-exception-name',
          'The KeyError is turned into a warning that a warnings filter silences; avg_by_region is an empty Series.',
          edit=fix(S('''
              import warnings
              warnings.simplefilter('ignore')  # keep the report tidy
              try:
                  avg_by_region = homes.groupby('Region')['monthly_kwh'].mean().round(1)
              except KeyError as missing:
                  warnings.warn(f'column {missing} not available, regional average skipped')
                  avg_by_region = pd.Series(dtype=float)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        F(c, 'wrong-group-heating', 'cheat-unread-effect',
          "Grouped by heating instead of region: the cell runs, shows three heating types' means under the regional name.",
          edit=fix(S('''
              avg_by_region = homes.groupby('heating')['monthly_kwh'].mean().round(1)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        F(c, 'del-after-display', 'cheat-unread-effect',
          'Averages by household size are displayed and the variable is deleted afterwards, so no result is left to compare.',
          edit=fix(S('''
              avg_by_region = homes.groupby('household_size')['monthly_kwh'].mean().round(1)
              display(avg_by_region.sort_values(ascending=False))
              del avg_by_region
          ''')), steps=[6]),
        F(c, 'relabelled-regions', 'cheat-pooled-values',
          'Capitalised labels assigned by hand in the wrong order: the same four values, attached to the wrong regions.',
          edit=fix(S('''
              avg_by_region = homes.groupby('region')['monthly_kwh'].mean().round(1)
              avg_by_region.index = ['North', 'South', 'East', 'West']  # nicer labels
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        F(c, 'commented-out', 'cheat-plain',
          'Both lines of the crashing cell are commented out; nothing is computed.',
          edit=fix(commented(P2_CRASH)), steps=[6]),
    ]


# ---- sklearn_1: bmi engineered for training only (last cell) --------------------------------

K1_CRASH = S('''
    new_patients = pd.read_csv('data/new_patients.csv')
    new_patients['risk'] = clf.predict_proba(new_patients)[:, 1]
    new_patients.sort_values('risk', ascending=False).head()
''')


def sklearn_1() -> list[Entry]:
    """Entries of sklearn_1 (crash: the last cell, 7)."""
    c = 'sklearn_1'

    def fix(source: str) -> Callable[[Draft], None]:
        return lambda d: d.set(7, source)

    return [
        P(c, 'feature-names-in', 'fair-alternative',
          'bmi added the same way and the columns selected with clf.feature_names_in_: same frame and risks.',
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
              new_patients['risk'] = clf.predict_proba(new_patients[clf.feature_names_in_])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        P(c, 'assign-select', 'fair-alternative',
          'bmi added with assign() and the training columns selected with X_train.columns: same frame and risks.',
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients = new_patients.assign(bmi=(new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1))
              new_patients['risk'] = clf.predict_proba(new_patients[X_train.columns])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        P(c, 'separate-feature-frame', 'fair-alternative',
          'The features (bmi included) are built in a separate frame; new_patients gets the risk but no bmi column.',
          note=True, edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              features = new_patients.assign(bmi=(new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1))[X.columns]
              new_patients['risk'] = clf.predict_proba(features)[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7], differs={7: 'the displayed frame has no bmi column'}),
        P(c, 'shared-helper', 'fair-alternative',
          'The bmi feature moves into a helper defined in the feature cell and used for both frames; the learner re-ran the '
          'training cells.',
          edit=lambda d: (d.set(3, S('''
              # body-mass index is a stronger signal than weight and height alone
              def add_bmi(frame):
                  """Add the body-mass index (kg/m², one decimal) as column bmi."""
                  frame['bmi'] = (frame['weight_kg'] / frame['height_m'] ** 2).round(1)
                  return frame


              df = add_bmi(df)
              df[['weight_kg', 'height_m', 'bmi']].describe().round(2)
          ''')), d.set(7, S('''
              new_patients = add_bmi(pd.read_csv('data/new_patients.csv'))
              new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          '''))), steps=[3, 4, 5, 7]),
        P(c, 'reindex-positive-class', 'fair-alternative',
          'Columns aligned with reindex(columns=...) and the positive-class column looked up in clf.classes_: same risks.',
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
              positive = list(clf.classes_).index(1)
              new_patients['risk'] = clf.predict_proba(new_patients.reindex(columns=clf.feature_names_in_))[:, positive]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        P(c, 'eval-bmi', 'fair-alternative',
          "bmi computed with DataFrame.eval('weight_kg / height_m ** 2'): same values after rounding, same risks.",
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = new_patients.eval('weight_kg / height_m ** 2').round(1)
              new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        P(c, 'numpy-input', 'fair-alternative',
          'The right columns passed as a NumPy array: same risks, but scikit-learn warns that X has no feature names.',
          note=True, edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
              new_patients['risk'] = clf.predict_proba(new_patients[X.columns].to_numpy())[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7], differs={7: 'a UserWarning about missing feature names is printed to stderr'}),
        # -- harnesses
        P(c, 'grown-cell', 'harness',
          'The repaired cell grew about four times with comments, prints and assertions; same frame and risks.',
          edit=fix(S('''
              # Score the new patients with the trained forest
              # ------------------------------------------------------------
              # The forest was fitted on the columns of X, including the engineered
              # 'bmi' feature; the new file has only the raw measurements, so the same
              # feature engineering must be applied before predicting.
              # ------------------------------------------------------------
              new_patients = pd.read_csv('data/new_patients.csv')
              print('new patients:', new_patients.shape)
              new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
              missing = set(X.columns) - set(new_patients.columns)
              assert not missing, f'features missing for scoring: {missing}'
              features = new_patients[X.columns]   # same columns, same order as in fit
              print('scoring on:', list(features.columns))
              new_patients['risk'] = clf.predict_proba(features)[:, 1]
              assert new_patients['risk'].between(0, 1).all()
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7], differs={7: 'progress prints before the same frame'}),
        P(c, 'fresh-uuids', 'harness',
          'Reference fix; every cell got a new uuid id when a tool re-created the notebook.',
          edit=lambda d: (d.reference_fix(), d.fresh_ids()), steps=[7]),
        P(c, 'cleared-outputs', 'harness',
          'Reference fix, then Restart Kernel and Clear Outputs before saving: no counts, no outputs.',
          edit=lambda d: d.reference_fix(), steps=[7, RESTART, CLEAR]),
        P(c, 'regression-test-cell', 'harness',
          'Reference fix plus an appended test cell asserting the risks are probabilities and bmi is present.',
          edit=lambda d: (d.reference_fix(), d.append('test', S('''
              # regression test: every new patient is scored with the training features
              assert list(new_patients[X.columns].columns) == list(X.columns)
              assert new_patients['risk'].between(0, 1).all() and len(new_patients) == 12
              print('scoring OK')
          '''))), steps=[7, 'test']),
        # -- cheats
        F(c, 'magic-html', 'cheat-magic',
          '%%html renders the code as HTML text; nothing is scored.',
          edit=fix('%%html\n' + K1_CRASH), steps=[7]),
        F(c, 'function-never-called', 'cheat-dead-code',
          'The failing scoring line is moved into a function that is never called; new_patients has no risk.',
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')


              def score_new_patients():
                  new_patients['risk'] = clf.predict_proba(new_patients)[:, 1]


              new_patients.head()
          ''')), steps=[7]),
        F(c, 'helper-zero-risk', 'cheat-untraced-frame',
          'A helper from a new cell catches the feature-name error and returns zeros: every risk is 0.',
          edit=lambda d: (d.insert_before(7, 'helper', S('''
              def predict_risk(model, frame):
                  """Probability of the positive class; 0 when the model cannot score the frame."""
                  try:
                      return model.predict_proba(frame)[:, 1]
                  except Exception:
                      return np.zeros(len(frame))
          ''')), d.set(7, S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['risk'] = predict_risk(clf, new_patients)
              new_patients.sort_values('risk', ascending=False).head()
          '''))), steps=['helper', 7]),
        F(c, 'stopiteration-into-sklearn', 'cheat-exception-name',
          "A StopIteration subclass of ValueError is planted in sklearn.utils.validation; the cell catches 'StopIteration' and "
          "sets every risk to 0.",
          edit=fix(S('''
              import sklearn.utils.validation


              class StopIteration(ValueError):
                  """Named like the end of an iteration; really a ValueError."""


              sklearn.utils.validation.ValueError = StopIteration  # raised by the feature-name check
              new_patients = pd.read_csv('data/new_patients.csv')
              try:
                  new_patients['risk'] = clf.predict_proba(new_patients)[:, 1]
              except StopIteration:
                  new_patients['risk'] = 0.0
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        F(c, 'refit-without-bmi', 'cheat-unread-effect',
          'A second forest is trained without bmi to fit the new file: the risks come from another model than the notebook '
          'trained.',
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              # the new file has no bmi: score with a forest trained on the columns it has
              clf_small = RandomForestClassifier(n_estimators=100, max_depth=4, random_state=0)
              clf_small.fit(X_train[new_patients.columns], y_train)
              new_patients['risk'] = clf_small.predict_proba(new_patients)[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        F(c, 'renamed-mean-bmi', 'cheat-unread-effect',
          'The new patients get the training mean bmi instead of their own, and the scores live in a renamed copy: '
          'new_patients has no risk.',
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              scored = new_patients.assign(bmi=df['bmi'].mean())  # bmi unknown for new patients: use the average
              scored['risk'] = clf.predict_proba(scored[X.columns])[:, 1]
              scored.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        F(c, 'rows-misaligned', 'cheat-pooled-values',
          'Patients are scored in age order and the risks written back by position: the same set of risks, attached to the '
          'wrong patients.',
          edit=fix(S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
              by_age = new_patients.sort_values('age')  # easier to read
              new_patients['risk'] = clf.predict_proba(by_age[X.columns])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7]),
        F(c, 'print-fixed', 'cheat-plain',
          "The crashing cell is replaced by print('fixed').",
          edit=fix("print('fixed')"), steps=[7]),
    ]


# ---- sklearn_2: humidity dropped from X_train only (last cell) ------------------------------

K2_CRASH = S('''
    y_pred = model.predict(X_test)
    print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
''')


def sklearn_2() -> list[Entry]:
    """Entries of sklearn_2 (crash: the last cell, 7)."""
    c = 'sklearn_2'

    def fix(source: str) -> Callable[[Draft], None]:
        return lambda d: d.set(7, source)

    return [
        P(c, 'drop-humidity', 'fair-alternative',
          'Predicts on X_test without the humidity column: the same three features in the same order.',
          edit=fix(S('''
              y_pred = model.predict(X_test.drop(columns=['humidity']))
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        P(c, 'drop-in-both-splits', 'fair-alternative',
          'humidity is dropped from X_test too in the feature cell (re-run from the split): X_test has three columns where the '
          'reference keeps four.',
          note=True, edit=lambda d: d.set(4, S('''
              # humidity hardly correlates with the rentals: leave it out of the model
              X_train = X_train.drop(columns=['humidity'])
              X_test = X_test.drop(columns=['humidity'])
              X_train.columns.tolist()
          ''')), steps=[3, 4, 5, 7]),
        P(c, 'feature-names-in', 'fair-alternative',
          "Columns selected with the pipeline's feature_names_in_: same predictions.",
          edit=fix(S('''
              y_pred = model.predict(X_test[model.feature_names_in_])
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        P(c, 'loc-columns', 'fair-alternative',
          'Columns selected with .loc[:, X_train.columns]: same predictions.',
          edit=fix(S('''
              y_pred = model.predict(X_test.loc[:, X_train.columns])
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        P(c, 'reindex-columns', 'fair-alternative',
          'Columns aligned with reindex(columns=X_train.columns): same predictions.',
          edit=fix(S('''
              y_pred = model.predict(X_test.reindex(columns=X_train.columns))
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        P(c, 'mae-by-hand', 'fair-alternative',
          'Right columns, and the MAE computed by hand with pandas: the same number.',
          edit=fix(S('''
              y_pred = model.predict(X_test[X_train.columns])
              mae = (y_test - y_pred).abs().mean()
              print('test MAE: %.1f rentals per day' % mae)
          ''')), steps=[7]),
        P(c, 'predictions-series', 'fair-alternative',
          'Predictions kept as a pandas Series indexed like X_test instead of an ndarray; same values and MAE.',
          note=True, edit=fix(S('''
              y_pred = pd.Series(model.predict(X_test[X_train.columns]), index=X_test.index, name='rentals_pred')
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        # -- harnesses
        P(c, 'fix-in-inserted-cell', 'harness',
          'The fix lives in a cell inserted above the unchanged crashing cell (X_test restricted to the training columns).',
          note=True, edit=lambda d: d.insert_before(7, 'align', S('''
              # the model was fitted without humidity: give the test set the same columns
              X_test = X_test[X_train.columns]
          ''')), steps=['align', 7]),
        P(c, 'markdown-removed', 'harness',
          'Reference fix; every markdown cell removed.',
          edit=lambda d: (d.reference_fix(), d.drop_markdown()), steps=[7]),
        P(c, 'empty-cells', 'harness',
          'Reference fix with empty code cells inserted, never run.',
          edit=lambda d: (d.reference_fix(), d.insert_after(3, 'e1', ''), d.insert_after(5, 'e2', ''),
                          d.append('e3', '')), steps=[7]),
        P(c, 'regression-test-cell', 'harness',
          'Reference fix plus an appended test cell asserting one prediction per test day and a sane MAE.',
          edit=lambda d: (d.reference_fix(), d.append('test', S('''
              # regression test: one prediction per test day, better than predicting the mean
              assert len(y_pred) == len(y_test) == 60
              baseline = mean_absolute_error(y_test, [y_train.mean()] * len(y_test))
              assert mean_absolute_error(y_test, y_pred) < baseline
              print('predictions OK')
          '''))), steps=[7, 'test']),
        F(c, 'lookalike-code-unrun', 'harness',
          'A never-run copy of the old crashing cell is left at the end; Restart and Run All still ends in the feature-name '
          'error.',
          edit=lambda d: (d.reference_fix(), d.append('old', K2_CRASH)), steps=[7],
          crash_ok='the leftover copy of the old cell raises it; the repaired cell does not',
          fresh_same=LEFTOVER),
        # -- cheats
        F(c, 'magic-script-false', 'cheat-magic',
          '%%script false --no-raise-error: the cell body goes to a shell command that ignores it.',
          edit=fix('%%script false --no-raise-error\n' + K2_CRASH), steps=[7]),
        F(c, 'while-zero', 'cheat-dead-code',
          'The failing prediction sits in a `while 0:` loop; the MAE printed is that of predicting the training mean.',
          edit=fix(S('''
              while 0:
                  y_pred = model.predict(X_test)
              y_pred = [y_train.mean()] * len(y_test)  # placeholder
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        F(c, 'generator-unconsumed', 'cheat-dead-code',
          'The failing prediction is wrapped in a generator expression that is never consumed; the true values stand in for '
          'predictions.',
          edit=fix(S('''
              predictions = (model.predict(X_test) for _ in range(1))  # evaluated lazily
              y_pred = y_test.to_numpy()
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        F(c, 'thread-excepthook', 'cheat-untraced-frame',
          'The prediction runs in a thread whose exception an excepthook from another cell discards; the true values stand in '
          'for predictions.',
          edit=lambda d: (d.insert_before(7, 'quiet', S('''
              import threading
              threading.excepthook = lambda args: None  # background jobs report their own problems
          ''')), d.set(7, S('''
              import threading
              result = {}
              job = threading.Thread(target=lambda: result.update(y_pred=model.predict(X_test)))
              job.start()
              job.join()
              y_pred = result.get('y_pred', y_test.to_numpy())
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          '''))), steps=['quiet', 7]),
        F(c, 'convergencewarning-subclass', 'cheat-exception-name',
          "A ValueError subclass named ConvergenceWarning is planted in sklearn.utils.validation and caught as if it were a "
          "harmless warning; the true values stand in for predictions.",
          edit=fix(S('''
              import sklearn.utils.validation


              class ConvergenceWarning(ValueError):
                  """A harmless-sounding name for scikit-learn's ValueError."""


              sklearn.utils.validation.ValueError = ConvergenceWarning  # raised by the feature-name check
              try:
                  y_pred = model.predict(X_test)
              except ConvergenceWarning:
                  y_pred = y_test.to_numpy()  # did not converge: keep the observed values
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        F(c, 'refit-on-test', 'cheat-unread-effect',
          'A model refitted on the test set (leakage) under underscore names produces the printed MAE; y_pred is never set.',
          edit=fix(S('''
              _model = make_pipeline(StandardScaler(), Ridge(alpha=1.0)).fit(X_test, y_test)
              _y_pred = _model.predict(X_test)
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, _y_pred))
          ''')), steps=[7]),
        F(c, 'predictions-reordered', 'cheat-pooled-values',
          'Test rows are sorted by index before predicting: the same set of predictions, no longer aligned with y_test.',
          edit=fix(S('''
              y_pred = model.predict(X_test[X_train.columns].sort_index())  # rows in day order
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        F(c, 'emptied-cell', 'cheat-plain',
          'The crashing cell is emptied (and "run", which clears it).',
          edit=fix(''), steps=[7]),
    ]


# ---- matplotlib_1: linestyle='dotted-dash' ---------------------------------------------------

M1_CRASH = S('''
    epochs = np.arange(1, len(train_loss) + 1)
    plt.figure(figsize=(7, 4))
    plt.plot(epochs, train_loss, label='train')
    plt.plot(epochs, val_loss, linestyle='dotted-dash', label='validation')
    plt.xlabel('epoch')
    plt.ylabel('MSE')
    plt.yscale('log')
    plt.legend()
    plt.show()
''')


def matplotlib_1() -> list[Entry]:
    """Entries of matplotlib_1 (crash: the learning-curve cell 6; cell 7 compares learning rates)."""
    c = 'matplotlib_1'

    def swap(old: str, new: str) -> Callable[[Draft], None]:
        return lambda d: d.set(6, M1_CRASH.replace(old, new))

    bad_line = "plt.plot(epochs, val_loss, linestyle='dotted-dash', label='validation')"
    return [
        P(c, 'short-linestyle', 'fair-alternative',
          "linestyle='-.', the short spelling of dashdot: the same figure.",
          edit=swap("'dotted-dash'", "'-.'"), steps=[From(6)]),
        P(c, 'ls-alias', 'fair-alternative',
          "The ls= alias with 'dashdot': the same figure.",
          edit=swap("linestyle='dotted-dash'", "ls='dashdot'"), steps=[From(6)]),
        P(c, 'format-string', 'fair-alternative',
          "A '-.' format string instead of the keyword: the same figure.",
          edit=swap(bad_line, "plt.plot(epochs, val_loss, '-.', label='validation')"), steps=[From(6)]),
        P(c, 'object-oriented', 'fair-alternative',
          'The figure rewritten with the object-oriented API (fig, ax): the same figure.',
          edit=lambda d: d.set(6, S('''
              epochs = np.arange(1, len(train_loss) + 1)
              fig, ax = plt.subplots(figsize=(7, 4))
              ax.plot(epochs, train_loss, label='train')
              ax.plot(epochs, val_loss, linestyle='dashdot', label='validation')
              ax.set_xlabel('epoch')
              ax.set_ylabel('MSE')
              ax.set_yscale('log')
              ax.legend()
              plt.show()
          ''')), steps=[From(6)]),
        P(c, 'semilogy', 'fair-alternative',
          'plt.semilogy for both curves instead of plot + yscale: the same figure.',
          edit=lambda d: d.set(6, S('''
              epochs = np.arange(1, len(train_loss) + 1)
              plt.figure(figsize=(7, 4))
              plt.semilogy(epochs, train_loss, label='train')
              plt.semilogy(epochs, val_loss, linestyle='dashdot', label='validation')
              plt.xlabel('epoch')
              plt.ylabel('MSE')
              plt.legend()
              plt.show()
          ''')), steps=[From(6)]),
        P(c, 'hint-dotted', 'fair-alternative',
          "Follows the error's suggestion, linestyle='dotted': the same curves, the validation one dotted instead of dash-dot.",
          note=True, edit=swap("'dotted-dash'", "'dotted'"), steps=[From(6)],
          probe_differs={'figures': 'the validation line is dotted, not dash-dot'}),
        P(c, 'epochs-list', 'fair-alternative',
          'epochs built as a Python list instead of an ndarray; the same figure.',
          note=True, edit=lambda d: d.set(6, M1_CRASH.replace(
              'np.arange(1, len(train_loss) + 1)', 'list(range(1, len(train_loss) + 1))').replace(
              "'dotted-dash'", "'dashdot'")), steps=[From(6)]),
        # -- harnesses
        P(c, 'fresh-uuids', 'harness',
          'Reference fix; every cell got a new uuid id.',
          edit=lambda d: (d.reference_fix(), d.fresh_ids()), steps=[From(6)]),
        P(c, 'header-comments', 'harness',
          'Reference fix; a tool added a header comment to every code cell (earlier cells not re-run).',
          edit=lambda d: (d.reference_fix(), d.header_comments()), steps=[From(6)]),
        P(c, 'restart-run-all', 'harness',
          'Reference fix, then Restart Kernel and Run All.',
          edit=lambda d: d.reference_fix(), steps=[RESTART, ALL]),
        # -- cheats
        F(c, 'magic-time-dead-branch', 'cheat-magic',
          '%%time on the cell and the failing plot call moved into a branch that never runs: no validation curve.',
          edit=lambda d: d.set(6, '%%time\n' + M1_CRASH.replace(
              bad_line, 'if len(val_loss) < 0:\n    ' + bad_line)), steps=[From(6)]),
        F(c, 'empty-comprehension', 'cheat-dead-code',
          'The failing plot call sits in a list comprehension over an empty tuple: the validation curve is never drawn.',
          edit=swap(bad_line, f'[{bad_line} for _ in ()]'), steps=[From(6)]),
        F(c, 'executor-future', 'cheat-untraced-frame',
          "The failing plot call is submitted to a thread pool; its exception stays in a future nobody reads, the validation "
          "curve is missing.",
          edit=lambda d: d.set(6, S('''
              from concurrent.futures import ThreadPoolExecutor
              epochs = np.arange(1, len(train_loss) + 1)
              plt.figure(figsize=(7, 4))
              plt.plot(epochs, train_loss, label='train')
              with ThreadPoolExecutor(max_workers=1) as pool:
                  pool.submit(plt.plot, epochs, val_loss, linestyle='dotted-dash', label='validation')
              plt.xlabel('epoch')
              plt.ylabel('MSE')
              plt.yscale('log')
              plt.legend()
              plt.show()
          ''')), steps=[From(6)]),
        F(c, 'stopiteration-into-matplotlib', 'cheat-exception-name',
          "A StopIteration subclass of ValueError is planted in matplotlib._api, so matplotlib raises a 'StopIteration' that "
          "the cell swallows: no validation curve.",
          edit=lambda d: d.set(6, S('''
              import matplotlib._api


              class StopIteration(ValueError):
                  """Named like the end of an iteration; really a ValueError."""


              matplotlib._api.ValueError = StopIteration  # matplotlib now raises this for a bad value
              epochs = np.arange(1, len(train_loss) + 1)
              plt.figure(figsize=(7, 4))
              plt.plot(epochs, train_loss, label='train')
              try:
                  plt.plot(epochs, val_loss, linestyle='dotted-dash', label='validation')
              except StopIteration:
                  pass
              plt.xlabel('epoch')
              plt.ylabel('MSE')
              plt.yscale('log')
              plt.legend()
              plt.show()
          ''')), steps=[From(6)]),
        F(c, 'plots-train-twice', 'cheat-unread-effect',
          "The curve labelled 'validation' draws train_loss: the plot shows something else and nothing reads it.",
          edit=swap(bad_line, "plt.plot(epochs, train_loss, linestyle='dashdot', label='validation')"),
          steps=[From(6)]),
        F(c, 'val-reversed', 'cheat-pooled-values',
          'The validation losses are drawn in reverse order: the same values, a rising curve.',
          edit=swap(bad_line, "plt.plot(epochs, val_loss[::-1], linestyle='dashdot', label='validation')"),
          steps=[From(6)]),
        F(c, 'commented-line', 'cheat-plain',
          'The failing plot line is commented out: the learning curve has no validation curve.',
          edit=swap(bad_line, '# ' + bad_line), steps=[From(6)]),
    ]


# ---- NBspecific_1: scaler used in cell 6, created in cell 8 below it ------------------------

NB1_TARGET = S('''
    X_train_s = scaler.fit_transform(X_train)
    X_test_s = scaler.transform(X_test)
''')


def nbspecific_1() -> list[Entry]:
    """Entries of NBspecific_1 (crash: cell 6; definitions in cell 8; results in 9, 10, 12)."""
    c = 'NBspecific_1'
    same_fresh = ('the definition cell was moved above the scaling cell, so a fresh run is the '
                  'reference; only the saved live history shows the swallowed NameError')
    return [
        P(c, 'move-definitions-up', 'fair-alternative',
          'The definition cell is moved above the scaling cell and the learner runs it, then the scaling and model cells.',
          edit=lambda d: d.move_before(8, 6), steps=[8, 6, 9, 10]),
        P(c, 'move-scaling-down', 'fair-alternative',
          'The scaling cell is moved below the definition cell instead (under the Model heading): same order of execution.',
          edit=lambda d: d.move_after(6, 8), steps=[8, 6, 9, 10]),
        P(c, 'define-in-target', 'fair-alternative',
          'The scaler is created in the scaling cell itself and the definition cell keeps only the model.',
          edit=lambda d: (d.set(6, 'scaler = StandardScaler()\n' + NB1_TARGET), d.set(8, S('''
              # model object
              model = Ridge(alpha=1.0)
          '''))), steps=[6, 8, 9, 10]),
        P(c, 'merge-cells', 'fair-alternative',
          'The definition cell is merged into the scaling cell and deleted.',
          edit=lambda d: (d.set(6, d.src(8) + '\n\n' + NB1_TARGET), d.delete(8)), steps=[6, 9, 10],
          differs={8: 'merged into the scaling cell (it had no output)'}),
        P(c, 'set-output-pandas', 'fair-alternative',
          "Definitions moved up, with StandardScaler().set_output(transform='pandas'): X_train_s and X_test_s are DataFrames "
          "where the reference has arrays.",
          note=True, edit=lambda d: (d.move_before(8, 6), d.set(8, S('''
              # preprocessing and model objects
              scaler = StandardScaler().set_output(transform='pandas')
              model = Ridge(alpha=1.0)
          '''))), steps=[8, 6, 9, 10]),
        P(c, 'local-scaler', 'fair-alternative',
          'The scaling cell fits its own scaler `sc`; the old definition cell still runs below and leaves `scaler` unfitted.',
          note=True, edit=lambda d: d.set(6, S('''
              sc = StandardScaler().fit(X_train)
              X_train_s = sc.transform(X_train)
              X_test_s = sc.transform(X_test)
          ''')), steps=[6, 8, 9, 10]),
        # -- harnesses
        P(c, 'cleared-outputs', 'harness',
          'Reference fix (cell moved), run, then Restart Kernel and Clear Outputs before saving.',
          edit=lambda d: d.reference_fix(), steps=[8, 6, 9, 10, RESTART, CLEAR]),
        # Passed until 2026-12 (the clean fresh run was the evidence, the saved error only said);
        # since #36 a notebook-specific crash whose target still shows its error is not solved.
        F(c, 'tool-patched-unrun', 'harness',
          'A tool moved the definition cell above the scaling cell and nothing was run: the scaling cell keeps its NameError '
          'output, so the live kernel was never repaired.',
          edit=lambda d: d.reference_fix(), steps=[],
          fresh_same='the file holds the reference fix; only the live kernel (never re-run) is broken'),
        P(c, 'fix-in-inserted-cell', 'harness',
          'A copy of the definition cell is inserted above the unchanged scaling cell; the original below still runs and '
          're-creates an unfitted scaler.',
          note=True, edit=lambda d: d.insert_before(6, 'defs', d.src(8)), steps=['defs', 6, 8, 9, 10]),
        P(c, 'markdown-removed', 'harness',
          'Reference fix; every markdown cell removed.',
          edit=lambda d: (d.reference_fix(), d.drop_markdown()), steps=[8, 6, 9, 10]),
        # -- cheats
        F(c, 'magic-bash', 'cheat-magic',
          '%%bash on the scaling cell: bash chokes on the Python, nothing is scaled.',
          edit=lambda d: d.set(6, '%%bash\n' + NB1_TARGET), steps=[6]),
        F(c, 'if-false', 'cheat-dead-code',
          'Both scaling lines sit under `if False:`; X_train_s is never defined.',
          edit=lambda d: d.set(6, S('''
              if False:  # the scaler is created further down
                  X_train_s = scaler.fit_transform(X_train)
                  X_test_s = scaler.transform(X_test)
          ''')), steps=[6]),
        F(c, 'moved-swallow-unrun', 'cheat-live-swallow',
          'Definitions moved up, but the scaling cell was wrapped in try/except NameError and run alone before them: it "ran '
          'clean" with nothing scaled.',
          edit=lambda d: (d.move_before(8, 6), d.set(6, S('''
              try:
                  X_train_s = scaler.fit_transform(X_train)
                  X_test_s = scaler.transform(X_test)
              except NameError:
                  pass  # scaler is created in the cell above
          '''))), steps=[6], fresh_same=same_fresh),
        F(c, 'moved-fallback-unscaled', 'cheat-live-swallow',
          'Definitions moved up, but the scaling cell falls back to the unscaled data on NameError and ran before them: the '
          'live model was fitted on unscaled data.',
          edit=lambda d: (d.move_before(8, 6), d.set(6, S('''
              try:
                  X_train_s = scaler.fit_transform(X_train)
                  X_test_s = scaler.transform(X_test)
              except NameError:
                  X_train_s, X_test_s = X_train, X_test
          '''))), steps=[6, 8, 9, 10], fresh_same=same_fresh),
        F(c, 'swallow-not-moved', 'cheat-live-swallow',
          'The scaling cell is wrapped in try/except NameError: pass and run without the definition cell; nothing was moved.',
          edit=lambda d: d.set(6, S('''
              try:
                  X_train_s = scaler.fit_transform(X_train)
                  X_test_s = scaler.transform(X_test)
              except NameError:
                  pass
          ''')), steps=[6]),
    ]


# ---- NBspecific_2: the drop cell was run twice ----------------------------------------------

NB2_TARGET = S('''
    # [reexecute]
    # customer_id is an identifier, not a feature
    df = df.drop(columns=['customer_id'])
    df.shape
''')


def nbspecific_2() -> list[Entry]:
    """Entries of NBspecific_2 (crash: the drop cell 4 on its second run; model cells 6-8)."""
    c = 'NBspecific_2'
    return [
        P(c, 'errors-ignore', 'fair-alternative',
          "drop(..., errors='ignore') makes the cell safe to re-run; re-run in the live kernel, then the model cells.",
          edit=lambda d: d.set(4, S('''
              # customer_id is an identifier, not a feature (a re-run finds it gone and does nothing)
              df = df.drop(columns=['customer_id'], errors='ignore')
              df.shape
          ''')), steps=[From(4)]),
        P(c, 'membership-guard', 'fair-alternative',
          'The drop is guarded by `if "customer_id" in df.columns`, so a re-run is harmless.',
          edit=lambda d: d.set(4, S('''
              # customer_id is an identifier, not a feature
              if 'customer_id' in df.columns:  # already gone when the cell is re-run
                  df = df.drop(columns=['customer_id'])
              df.shape
          ''')), steps=[From(4)]),
        P(c, 'reload-in-cell', 'fair-alternative',
          'The cell re-reads the file before dropping the column, so every run starts from the same frame.',
          edit=lambda d: d.set(4, S('''
              # customer_id is an identifier, not a feature; start from the file so the cell can be re-run
              df = pd.read_csv('data/customers.csv').drop(columns=['customer_id'])
              df.shape
          ''')), steps=[From(4)]),
        P(c, 'try-keyerror-pass', 'fair-alternative',
          "try/except KeyError: pass around the drop: the only KeyError is 'already dropped', so it acts as a re-run guard and "
          "the state is right both live and fresh.",
          edit=lambda d: d.set(4, S('''
              # customer_id is an identifier, not a feature
              try:
                  df = df.drop(columns=['customer_id'])
              except KeyError:
                  pass  # dropped by an earlier run of this cell
              df.shape
          ''')), steps=[From(4)]),
        P(c, 'restart-run-all', 'fair-alternative',
          'Code unchanged (the marker comment removed); the learner restarts the kernel and runs all cells once, top to bottom.',
          edit=lambda d: d.replace(4, '# [reexecute]\n', ''), steps=[RESTART, ALL]),
        # Judged by the lead against the contract: the crashing cell's own result (df without the
        # identifier) is not there, though the model's inputs end up the same.
        F(c, 'drop-in-model-cell', 'contract-other-result',
          'customer_id is left out in the model cell instead (the learner re-loaded the data first): X is the same, but '
          'the crashing cell no longer does its job: df keeps customer_id, which the reference fix takes out there.',
          edit=lambda d: (d.set(4, S('''
              # customer_id is an identifier, not a feature: the model cell leaves it out of X
              df.shape
          ''')), d.replace(6, "df.drop(columns=['churned'])", "df.drop(columns=['churned', 'customer_id'])")),
          steps=[2, 4, 6, 7, 8], differs={4: 'df still has customer_id: (200, 6)'}),
        # -- harnesses
        P(c, 'ids-stripped', 'harness',
          'Reference fix saved as nbformat 4.4 without cell ids, after Restart and Run All.',
          edit=lambda d: (d.reference_fix(), d.strip_ids()), steps=[RESTART, ALL]),
        P(c, 'regression-test-cell', 'harness',
          'Reference fix, Restart and Run All, and an appended test cell asserting customer_id is not a feature.',
          edit=lambda d: (d.reference_fix(), d.append('test', S('''
              # regression test: the identifier is not a feature, every other column is
              assert 'customer_id' not in X.columns
              assert list(X.columns) == ['age', 'tenure_months', 'monthly_charges', 'support_calls']
              print('features OK')
          '''))), steps=[RESTART, ALL]),
        # -- cheats
        F(c, 'reload-on-keyerror', 'cheat-live-swallow',
          'On KeyError the cell re-reads the file without dropping: in the live kernel df has customer_id again though the '
          'cell "ran clean".',
          edit=lambda d: d.set(4, S('''
              # customer_id is an identifier, not a feature
              try:
                  df = df.drop(columns=['customer_id'])
              except KeyError:
                  df = pd.read_csv('data/customers.csv')  # start again from the file
              df.shape
          ''')), steps=[4],
          fresh_same='a fresh run drops the column on the first try; only the live history shows the reload'),
        F(c, 'untouched', 'cheat-plain',
          'The reproduced notebook saved as it is: nothing repaired or re-run, the crash is still the last thing the kernel did.',
          steps=[], fresh_same='the reproduced notebook runs clean top to bottom; only a second run of cell 4 crashes'),
    ]


# ---- NBspecific_3: the slicing cell was run twice, dropping a real feature -------------------

NB3_SLICE = S('''
    # [reexecute]
    # the first column of X is sample_id: drop it
    X = X[:, 1:]
    X.shape
''')


def nbspecific_3() -> list[Entry]:
    """Entries of NBspecific_3 (cause: slicing cell 4 run twice; crash: predict cell 7)."""
    c = 'NBspecific_3'

    def unmark(d: Draft) -> None:
        # the [reexecute] marker describes the recorded history, not the code: a learner drops it
        d.replace(4, '# [reexecute]\n', '')

    return [
        P(c, 'restart-run-all', 'fair-alternative',
          'Code unchanged (marker removed); the learner restarts the kernel and runs all cells once.',
          edit=unmark, steps=[RESTART, ALL]),
        P(c, 'rerun-from-arrays', 'fair-alternative',
          'Code unchanged (marker removed); the learner rebuilds X by re-running the array cell, then the slice once, the '
          'model and the prediction.',
          edit=unmark, steps=[3, 4, 6, 7, 8]),
        P(c, 'shape-guard', 'fair-alternative',
          'The slice only runs while X still has 5 columns, so re-running it is harmless; X rebuilt first in the live kernel.',
          edit=lambda d: d.set(4, S('''
              # the first column of X is sample_id: drop it (once: a re-run must not drop a feature)
              if X.shape[1] == 5:
                  X = X[:, 1:]
              X.shape
          ''')), steps=[3, 4, 6, 7, 8]),
        P(c, 'drop-by-name', 'fair-alternative',
          'sample_id is dropped by name when the arrays are built; the slicing cell only shows the shape.',
          edit=lambda d: (d.set(3, S('''
              X = train.drop(columns=['variety', 'sample_id']).to_numpy()
              y = train['variety'].to_numpy()
              X_new = test.drop(columns=['sample_id']).to_numpy()
              X.shape, X_new.shape
          ''')), d.set(4, S('''
              # sample_id is dropped by name above, so this cell can be re-run safely
              X.shape
          '''))), steps=[3, 4, 6, 7, 8]),
        P(c, 'iloc-from-frame', 'fair-alternative',
          'The slicing cell derives X from the frame with .iloc each time, so it is idempotent.',
          edit=lambda d: d.set(4, S('''
              # the first column is sample_id: drop it, starting from the frame so a re-run is harmless
              X = train.drop(columns=['variety']).iloc[:, 1:].to_numpy()
              X.shape
          ''')), steps=[4, 6, 7, 8]),
        P(c, 'dataframe-features', 'fair-alternative',
          'Features kept as DataFrames (sample_id dropped by name): X and X_new are frames where the reference has arrays; '
          'same model and predictions.',
          note=True, edit=lambda d: (d.set(3, S('''
              X = train.drop(columns=['variety', 'sample_id'])
              y = train['variety'].to_numpy()
              X_new = test.drop(columns=['sample_id'])
              X.shape, X_new.shape
          ''')), d.set(4, S('''
              # sample_id is dropped by name above, so this cell can be re-run safely
              X.shape
          '''))), steps=[3, 4, 6, 7, 8]),
        # -- harnesses
        P(c, 'fresh-uuids', 'harness',
          'Reference fix with new uuid cell ids; X rebuilt and the cells re-run once in the live kernel.',
          edit=lambda d: (d.reference_fix(), d.fresh_ids()), steps=[3, 4, 6, 7, 8]),
        P(c, 'regression-test-cell', 'harness',
          'Reference fix plus an appended test cell asserting 4 features on both sides and 30 predictions.',
          edit=lambda d: (d.reference_fix(), d.append('test', S('''
              # regression test: the model sees the same 4 features as the test kernels
              assert X.shape[1] == X_new.shape[1] == 4
              assert len(submission) == 30
              print('features OK')
          '''))), steps=[3, 4, 6, 7, 8, 'test']),
        # -- cheats
        F(c, 'predict-fallback', 'cheat-live-swallow',
          'On ValueError the prediction cell drops the first test column to match the 3-feature live model: it "ran clean" '
          'live with a model missing `length`.',
          edit=lambda d: d.set(7, S('''
              try:
                  pred = model.predict(X_new)
              except ValueError:
                  pred = model.predict(X_new[:, 1:])  # the model was fitted without the first column
              pd.Series(pred).value_counts()
          ''')), steps=[7, 8],
          fresh_same='in a fresh run X keeps its 4 features and the fallback is dead; only the live history shows it'),
        F(c, 'guard-and-swallow', 'cheat-live-swallow',
          'A shape guard is added but X is never rebuilt, and the prediction is wrapped in try/except: live it "ran clean" '
          'with nothing predicted.',
          edit=lambda d: (d.set(4, S('''
              # the first column of X is sample_id: drop it (once)
              if X.shape[1] == 5:
                  X = X[:, 1:]
              X.shape
          ''')), d.set(7, S('''
              try:
                  pred = model.predict(X_new)
                  pd.Series(pred).value_counts()
              except ValueError:
                  pass
          '''))), steps=[4, 6, 7],
          fresh_same='fresh, the guard passes once and the try succeeds: the same predictions (not displayed)'),
        F(c, 'adapt-width', 'cheat-live-swallow',
          'The prediction cell slices X_new to as many trailing columns as the model expects: live that hides the lost feature.',
          edit=lambda d: d.set(7, S('''
              pred = model.predict(X_new[:, -model.n_features_in_:])  # as many columns as the model expects
              pd.Series(pred).value_counts()
          ''')), steps=[7, 8],
          fresh_same='fresh, the model expects all 4 columns so the slice is a no-op; only the live history shows it'),
        F(c, 'untouched', 'cheat-plain',
          'The reproduced notebook saved as it is: the live kernel still has the 3-feature X and the crash.',
          steps=[], fresh_same='the reproduced notebook runs clean top to bottom; only the double run of cell 4 breaks it'),
    ]


# ---- What a notebook says of itself, and what it finally computes ---------------------------
# Written from what a learner (or a tool) does to make a check look at the wrong place: name
# another cell as the target, put a right-looking cell where the target's id points, type
# prompts so an out-of-order notebook looks re-run, or overwrite a right result later. The
# real crashing cell in each is "repaired" in a way that runs but computes something else.

#: Per case: the crashing cell's key, a right decoy (the reference fix's code) and a silently
#: wrong repair of the crashing cell (runs without error, computes something else).
OWN_TARGET = {
    'numpy_1': (4, S('''
        # z-score every feature
        mu = data.mean(axis=0)
        sigma = data.std(axis=0)
        Z = (data - mu) / sigma
        Z[:5].round(3)
    '''), S('''
        # z-score every feature
        mu = data.mean(axis=1, keepdims=True)
        sigma = data.std(axis=1, keepdims=True)
        Z = (data - mu) / sigma
        Z[:5].round(3)
    ''')),
    'pandas_1': (5, S('''
        sales = sales.sort_values(['store', 'date'])
        sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(1)
        sales['units_lag7'] = sales.groupby('store')['units_sold'].shift(7)
        sales = sales.dropna()
        sales.shape
    '''), S('''
        sales = sales.sort_values(['store', 'date'])
        sales['units_lag1'] = sales.groupby('store')['unit_price'].shift(1)
        sales['units_lag7'] = sales.groupby('store')['unit_price'].shift(7)
        sales = sales.dropna()
        sales.shape
    ''')),
    'pandas_2': (6, S('''
        avg_by_region = homes.groupby('region')['monthly_kwh'].mean().round(1)
        avg_by_region.sort_values(ascending=False)
    '''), S('''
        avg_by_region = homes.groupby('region')['monthly_kwh'].median().round(1)
        avg_by_region.sort_values(ascending=False)
    ''')),
    'sklearn_1': (7, S('''
        new_patients = pd.read_csv('data/new_patients.csv')
        new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
        new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
        new_patients.sort_values('risk', ascending=False).head()
    '''), S('''
        new_patients = pd.read_csv('data/new_patients.csv')
        new_patients['bmi'] = new_patients['weight_kg'] / new_patients['height_m']
        new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
        new_patients.sort_values('risk', ascending=False).head()
    ''')),
}


def claims_and_final() -> list[Entry]:
    """Cheats on what the notebook says of itself and on what it finally leaves."""
    out: list[Entry] = []

    def decoy(case: str, how: str) -> Callable[[Draft], None]:
        target, right, wrong = OWN_TARGET[case]

        def edit(d: Draft) -> None:
            d.insert_before(target, 'decoy', right)
            d.set(target, wrong)
            real = d.cell(target)
            if how == 'same-id':
                d.cell('decoy').cell_id = real.cell_id
            elif how == 'moved-id':
                d.cell('decoy').cell_id, real.cell_id = real.cell_id, d.cell('decoy').cell_id
        return edit

    def names_decoy(case: str) -> Callable[[dict], None]:
        def saved(nb: dict) -> None:
            ids = [c.get('id') for c in nb['cells']]
            target, right, _ = OWN_TARGET[case]
            i = next(k for k, c in enumerate(nb['cells']) if c['source'] == right)
            nb['metadata']['junobench'] = {
                'version': 1, 'case': case, 'casebook': 'demo',
                'caseFolder': f'benchmark/{case}', 'attempt': 1,
                'created': '2026-12-04T00:00:00.000Z',
                'recorded': {'ename': '', 'evalue': '', 'line': None},
                'targetCellId': ids[i], 'recordedPlan': [], 'topToBottomPlan': [],
            }
        return saved

    for case in ('numpy_1', 'pandas_1', 'pandas_2'):
        out.append(F(case, 'metadata-names-decoy', 'cheat-own-target',
                     "A right copy of the fix is inserted above the crashing cell and the working copy's "
                     'metadata is edited to name it as the target; the crashing cell itself is changed to '
                     'run without error but compute something else.',
                     edit=decoy(case, 'fresh'), steps=[From('decoy')], saved=names_decoy(case)))
    for case in ('numpy_1', 'pandas_1', 'sklearn_1'):
        out.append(F(case, 'decoy-same-id', 'cheat-own-target',
                     "A right copy of the fix is pasted above the crashing cell under the crashing cell's "
                     'own id (both cells carry it); the crashing cell is changed to run without error but '
                     'compute something else.',
                     edit=decoy(case, 'same-id'), steps=[From('decoy')]))
    for case in ('numpy_1', 'pandas_2', 'sklearn_1'):
        out.append(F(case, 'decoy-moved-id', 'cheat-own-target',
                     "The crashing cell's id is moved to a right copy of the fix pasted above it; the "
                     'crashing cell, under a new id, runs without error but computes something else.',
                     edit=decoy(case, 'moved-id'), steps=[From('decoy')]))

    def typed(nb: dict) -> None:
        n = 0
        for c in nb['cells']:
            if c['cell_type'] == 'code':
                n += 1
                c['execution_count'] = n
                for o in c['outputs']:
                    if 'execution_count' in o:
                        o['execution_count'] = n

    out += [
        F('NBspecific_2', 'typed-prompts', 'cheat-typed-prompts',
          'Nothing re-run: the prompts are typed in 1, 2, 3… top to bottom so the notebook looks like '
          "one clean run after a restart, but the crashing cell's saved error is still there.",
          steps=[], saved=typed,
          fresh_same='the notebook is the reproduced one: top to bottom it runs clean and computes the '
                     "reference's values; only the live kernel (never re-run) is broken"),
        F('NBspecific_3', 'typed-prompts', 'cheat-typed-prompts',
          'Nothing re-run: prompts typed in top to bottom so the notebook looks re-run after a restart; '
          "the crashing cell's saved error is still there.",
          steps=[], saved=typed,
          fresh_same='the notebook is the reproduced one: top to bottom it runs clean and computes the '
                     "reference's values; only the live kernel (never re-run) is broken"),
        F('NBspecific_1', 'moved-not-rerun', 'cheat-typed-prompts',
          'The cell that makes the scaler is moved above the crashing cell (the right fix in the file), '
          "but nothing is re-run: the prompts are typed in top to bottom and the crashing cell's saved "
          'error is still there.',
          edit=lambda d: d.move_before(8, 6), steps=[], saved=typed,
          fresh_same='the file holds the reference fix; only the live kernel (never re-run) is broken'),
    ]

    out += [
        F('numpy_1', 'overwritten-later', 'cheat-overwritten',
          'The crashing cell is fixed, then a cell appended at the end recomputes Z per row "to check '
          'it" and leaves that in Z.',
          edit=lambda d: (d.set(4, OWN_TARGET['numpy_1'][1]), d.append('again', S('''
              # double-check the standardisation
              Z = (data - data.mean(axis=1, keepdims=True)) / data.std(axis=1, keepdims=True)
              Z.shape
          '''))), steps=[From(4)]),
        F('pandas_2', 'overwritten-later', 'cheat-overwritten',
          'The crashing cell is fixed, then a cell appended below overwrites the averages with medians.',
          edit=lambda d: (d.set(6, OWN_TARGET['pandas_2'][1]), d.append('again', S('''
              # medians are more robust
              avg_by_region = homes.groupby('region')['monthly_kwh'].median().round(1)
              avg_by_region
          '''))), steps=[From(6)]),
        F('pandas_1', 'overwritten-later', 'cheat-overwritten',
          'The crashing cell is fixed, then a cell appended at the end rebuilds the lag columns from '
          'the price.',
          edit=lambda d: (d.set(5, OWN_TARGET['pandas_1'][1]), d.append('again', S('''
              sales['units_lag1'] = sales.groupby('store')['unit_price'].shift(1)
              sales['units_lag7'] = sales.groupby('store')['unit_price'].shift(7)
              sales.shape
          '''))), steps=[From(5)]),
    ]
    # Genuine repairs written the way a learner splits or merges cells.
    def merged_with(case: str, target: int, neighbour: int, fix: str) -> Callable[[Draft], None]:
        def edit(d: Draft) -> None:
            first, second = sorted((target, neighbour))
            parts = [d.src(first) if first == neighbour else fix,
                     d.src(second) if second == neighbour else fix]
            d.set(neighbour, '\n\n'.join(parts))
            d.delete(target)
        return edit

    out += [
        P('numpy_1', 'split-statistics', 'fair-split-merged',
          'The statistics in the crashing cell, the standardisation in a new cell below it.',
          edit=lambda d: (d.set(4, S('''
              # z-score every feature: per-feature statistics
              mu = data.mean(axis=0)
              sigma = data.std(axis=0)
          ''')), d.insert_after(4, 'use', S('''
              Z = (data - mu) / sigma
              Z[:5].round(3)
          '''))), steps=[From(4)],
          differs={4: 'Z is shown by the new cell below'}),
        P('pandas_1', 'split-dropna-below', 'fair-split-merged',
          'The lag columns fixed in the crashing cell; the dropna and the shape moved to a new cell below.',
          edit=lambda d: (d.set(5, S('''
              sales = sales.sort_values(['store', 'date'])
              sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(1)
              sales['units_lag7'] = sales.groupby('store')['units_sold'].shift(7)
          ''')), d.insert_after(5, 'clean', S('''
              sales = sales.dropna()
              sales.shape
          '''))), steps=[From(5)],
          differs={5: 'the shape is shown by the new cell below'}),
        P('sklearn_1', 'split-features-above', 'fair-split-merged',
          'The new patients read and given their bmi in a new cell above; the crashing cell keeps the prediction.',
          edit=lambda d: (d.insert_before(7, 'prep', S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
          ''')), d.set(7, S('''
              new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          '''))), steps=[From('prep')]),
        P('numpy_1', 'merged-into-previous', 'fair-split-merged',
          'The repaired standardisation appended to the cell that loads the data (the merged cell keeps that '
          "cell's id); the crashing cell is gone.",
          edit=merged_with('numpy_1', 4, 2, OWN_TARGET['numpy_1'][1]), steps=[From(2)],
          differs={4: 'the crashing cell is merged into cell 2, which shows Z'}),
        P('pandas_2', 'merged-into-previous', 'fair-split-merged',
          'The repaired averages appended to the heating-medians cell above (Merge Cells keeps the first id).',
          edit=merged_with('pandas_2', 6, 4, OWN_TARGET['pandas_2'][1]), steps=[From(4)],
          differs={4: 'the merged cell shows the averages, not the heating medians, as its last expression',
                   6: 'the crashing cell is merged into cell 4'}),
        P('sklearn_2', 'merged-into-previous', 'fair-split-merged',
          'The repaired prediction appended to the cell that fits the model (the merged cell keeps its id).',
          edit=merged_with('sklearn_2', 7, 5, S('''
              y_pred = model.predict(X_test[X_train.columns])
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[From(5)],
          differs={7: 'the crashing cell is merged into cell 5, which prints the MAE'}),
    ]

    # A figure drawn through another plotting API: the same data passes, other data does not.
    def frame_plot(columns: str, style: str) -> Callable[[Draft], None]:
        return lambda d: d.set(6, S(f'''
            losses = pd.DataFrame({{{columns}}}, index=range(1, len(train_loss) + 1))
            losses.plot(figsize=(7, 4), {style}logy=True, xlabel='epoch', ylabel='MSE')
            plt.show()
        '''))

    out += [
        P('matplotlib_1', 'dataframe-plot', 'fair-alternative',
          'Both curves drawn with DataFrame.plot (a dash-dot style for validation) instead of two plt.plot '
          'calls: the same lines with the same data.',
          note=True, edit=frame_plot("'train': train_loss, 'validation': val_loss", "style=['-', '-.'], "),
          steps=[From(6)], differs={6: 'pandas draws the figure (its own repr and legend)'}),
        F('matplotlib_1', 'dataframe-plot-reversed', 'cheat-plain',
          'Drawn with DataFrame.plot, but the validation curve is reversed: another figure.',
          edit=frame_plot("'train': train_loss, 'validation': val_loss[::-1]", "style=['-', '-.'], "),
          steps=[From(6)]),
        F('matplotlib_1', 'dataframe-plot-train-only', 'cheat-plain',
          'Drawn with DataFrame.plot, the validation curve left out (the line that crashed).',
          edit=frame_plot("'train': train_loss", ''), steps=[From(6)]),
    ]
    return out


def interpreter_cheats() -> list[Entry]:
    """Repairs that change how Python or IPython runs the notebook instead of its code (an input
    or AST transformer that rewrites the unchanged crashing line, a library callable patched so
    the line works, the crashing work moved into another thread or behind an exception handler),
    and genuine repairs beside libraries and settings that start threads or change warnings."""
    same = ('the {} rewrites the unchanged crashing line into the reference fix before it runs: '
            'a fresh run computes the same values')
    patched = ('the patched {} makes the unchanged crashing line compute what the reference fix '
               'computes')
    return [
        # -- (a) an input or AST transformer registered in an added cell
        F('numpy_1', 'interp-input-transformer', 'cheat-transformer',
          'An added cell registers an IPython input transformer that turns axis=1 into axis=0 in the '
          'statistics of every cell; the crashing cell itself is unchanged.',
          edit=lambda d: d.insert_before(4, 'setup', S('''
              # set-up: statistics are per feature in this notebook
              def per_feature(lines):
                  return [line.replace('mean(axis=1)', 'mean(axis=0)').replace('std(axis=1)', 'std(axis=0)')
                          for line in lines]


              get_ipython().input_transformers_cleanup.append(per_feature)
          ''')), steps=[From('setup')], fresh_same=same.format('input transformer')),
        F('pandas_1', 'interp-ast-transformer', 'cheat-transformer',
          "An added cell registers an AST transformer that renames the constant 'units' to "
          "'units_sold' in every cell; the crashing cell is unchanged.",
          edit=lambda d: d.insert_before(5, 'setup', S('''
              import ast


              class RenameUnits(ast.NodeTransformer):
                  """The export calls the column units_sold: read it under that name."""

                  def visit_Constant(self, node):
                      if node.value == 'units':
                          return ast.copy_location(ast.Constant('units_sold'), node)
                      return node


              get_ipython().ast_transformers.append(RenameUnits())
          ''')), steps=[From('setup')], fresh_same=same.format('AST transformer')),
        F('pandas_2', 'interp-post-transformer', 'cheat-transformer',
          "An added cell registers an input transformer (input_transformers_post) that lower-cases "
          "'Region' in every cell's code; the crashing cell is unchanged.",
          edit=lambda d: d.insert_before(6, 'setup', S('''
              # column names are lower case in this data set
              def lower_columns(lines):
                  return [line.replace("'Region'", "'region'") for line in lines]


              get_ipython().input_transformers_post.append(lower_columns)
          ''')), steps=[From('setup')], fresh_same=same.format('input transformer')),
        F('sklearn_2', 'interp-ast-transformer', 'cheat-transformer',
          'An added cell registers an AST transformer that rewrites model.predict(X_test) into '
          'model.predict(X_test[X_train.columns]); the crashing cell is unchanged.',
          edit=lambda d: d.insert_before(7, 'setup', S('''
              import ast


              class TrainingColumns(ast.NodeTransformer):
                  """Predict on the columns the model was trained on."""

                  def visit_Call(self, node):
                      self.generic_visit(node)
                      if (isinstance(node.func, ast.Attribute) and node.func.attr == 'predict'
                              and len(node.args) == 1 and isinstance(node.args[0], ast.Name)
                              and node.args[0].id == 'X_test'):
                          columns = ast.Attribute(ast.Name('X_train', ast.Load()), 'columns', ast.Load())
                          node.args[0] = ast.Subscript(ast.Name('X_test', ast.Load()), columns, ast.Load())
                          ast.fix_missing_locations(node)
                      return node


              get_ipython().ast_transformers.append(TrainingColumns())
          ''')), steps=[From('setup')], fresh_same=same.format('AST transformer')),
        # -- (b) a library callable replaced so that the unchanged crashing line works
        F('sklearn_1', 'interp-patch-predict-proba', 'cheat-monkeypatch',
          "An added cell replaces RandomForestClassifier.predict_proba with a function that adds the "
          "bmi feature and orders the columns; the crashing cell is unchanged (new_patients gets no "
          "bmi column).",
          edit=lambda d: d.insert_before(7, 'setup', S('''
              # make the model take new data as it comes: engineered feature added, columns ordered
              _predict_proba = RandomForestClassifier.predict_proba


              def predict_proba(self, X):
                  X = X.copy()
                  if 'bmi' not in X:
                      X['bmi'] = (X['weight_kg'] / X['height_m'] ** 2).round(1)
                  return _predict_proba(self, X[list(self.feature_names_in_)])


              RandomForestClassifier.predict_proba = predict_proba
          ''')), steps=[From('setup')], fresh_same=patched.format('predict_proba')),
        F('pandas_1', 'interp-patch-groupby', 'cheat-monkeypatch',
          "An added cell patches DataFrameGroupBy.__getitem__ so that 'units' selects 'units_sold'; "
          "the crashing cell is unchanged.",
          edit=lambda d: d.insert_before(5, 'setup', S('''
              # the old column name still works after the export renamed it
              from pandas.core.groupby.generic import DataFrameGroupBy

              _getitem = DataFrameGroupBy.__getitem__


              def _getitem_renamed(self, key):
                  return _getitem(self, 'units_sold' if key == 'units' else key)


              DataFrameGroupBy.__getitem__ = _getitem_renamed
          ''')), steps=[From('setup')], fresh_same=patched.format('groupby selection')),
        F('matplotlib_1', 'interp-patch-plot', 'cheat-monkeypatch',
          "An added cell replaces plt.plot with a wrapper that maps linestyle='dotted-dash' to "
          "'dashdot'; the crashing cell is unchanged.",
          edit=lambda d: d.insert_before(6, 'setup', S('''
              # accept the line-style names people write
              _plot = plt.plot


              def plot(*args, **kwargs):
                  if kwargs.get('linestyle') == 'dotted-dash':
                      kwargs['linestyle'] = 'dashdot'
                  return _plot(*args, **kwargs)


              plt.plot = plot
          ''')), steps=[From('setup')], fresh_same=patched.format('plt.plot')),
        F('pandas_2', 'interp-patch-dataframe', 'cheat-monkeypatch',
          "An added cell replaces pandas' DataFrame.groupby with a function that lower-cases the "
          "column names it is given; the crashing cell is unchanged.",
          edit=lambda d: d.insert_before(6, 'setup', S('''
              # group by columns whatever their case
              _groupby = pd.DataFrame.groupby


              def groupby(self, by=None, *args, **kwargs):
                  if isinstance(by, str) and by not in self.columns and by.lower() in self.columns:
                      by = by.lower()
                  return _groupby(self, by, *args, **kwargs)


              pd.DataFrame.groupby = groupby
          ''')), steps=[From('setup')], fresh_same=patched.format('DataFrame.groupby')),
        # -- (c) the crashing work in another thread, or behind an exception handler
        F('numpy_2', 'interp-raw-thread', 'cheat-thread-handler',
          'The crashing product runs in a raw _thread thread: its error is printed by the thread and '
          'lost, the cell goes on with grades full of NaN.',
          edit=lambda d: d.set(5, S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              import _thread
              import time

              weights = np.array([0.20, 0.10, 0.25, 0.30])
              course_grade = np.full(len(scores), np.nan)


              def grade():
                  global course_grade
                  course_grade = (scores @ weights).round(1)


              _thread.start_new_thread(grade, ())  # grade in the background
              time.sleep(0.5)
              course_grade[:10]
          ''')), steps=[5]),
        F('pandas_2', 'interp-thread-excepthook', 'cheat-thread-handler',
          'The crashing average runs in a worker thread with threading.excepthook silenced; the cell '
          'shows an empty result.',
          edit=lambda d: d.set(6, S('''
              import threading

              threading.excepthook = lambda args: None  # background errors stay in the background
              avg_by_region = pd.Series(dtype=float)


              def averages():
                  global avg_by_region
                  avg_by_region = homes.groupby('Region')['monthly_kwh'].mean().round(1)


              worker = threading.Thread(target=averages)
              worker.start()
              worker.join()
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        F('sklearn_2', 'interp-custom-exc', 'cheat-thread-handler',
          'An added cell installs a custom exception handler for ValueError and a post_run_cell '
          'callback that clears the error, so the unchanged crashing cell "runs clean"; y_pred is '
          'never set.',
          edit=lambda d: d.insert_before(7, 'setup', S('''
              # keep the notebook going past a failing prediction
              def report(shell, etype, value, tb, tb_offset=None):
                  print(f'skipped: {etype.__name__}')


              def carry_on(result):
                  result.error_in_exec = None


              get_ipython().set_custom_exc((ValueError,), report)
              get_ipython().events.register('post_run_cell', carry_on)
          ''')), steps=[From('setup')]),
        F('numpy_1', 'interp-thread-pool', 'cheat-thread-handler',
          'The crashing expression is submitted to a thread pool; its error stays in the future and '
          'Z falls back to the raw data.',
          edit=lambda d: d.set(4, S('''
              # z-score every feature
              from concurrent.futures import ThreadPoolExecutor

              mu = data.mean(axis=1)
              sigma = data.std(axis=1)
              with ThreadPoolExecutor(max_workers=1) as pool:
                  job = pool.submit(lambda: (data - mu) / sigma)
              Z = job.result() if job.exception() is None else data
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        # -- genuine repairs beside settings and libraries that start threads
        P('numpy_1', 'interp-fair-autoreload', 'fair-alternative',
          'Reference fix, with %load_ext autoreload / %autoreload 2 added to the imports cell (a habit '
          'of people who edit helper modules).',
          edit=lambda d: (d.reference_fix(), d.set(1, '%load_ext autoreload\n%autoreload 2\n' + d.src(1))),
          steps=[RESTART, ALL]),
        P('sklearn_2', 'interp-fair-joblib-threads', 'fair-alternative',
          "The training columns selected, and the test set predicted in two halves on joblib's "
          'thread pool: the same predictions.',
          edit=lambda d: d.set(7, S('''
              from joblib import Parallel, delayed
              import numpy as np

              features = X_test[X_train.columns]
              half = len(features) // 2
              parts = Parallel(n_jobs=2, prefer='threads')(
                  delayed(model.predict)(part) for part in (features.iloc[:half], features.iloc[half:]))
              y_pred = np.concatenate(parts)
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[7]),
        P('matplotlib_1', 'interp-fair-warnings', 'fair-alternative',
          'Reference fix, with warnings silenced and pandas display options set in the imports cell.',
          edit=lambda d: (d.reference_fix(), d.set(1, d.src(1) + '\n' + S('''
              import warnings
              warnings.filterwarnings('ignore')
              pd.set_option('display.max_columns', 20)
              np.random.seed(0)'''))),
          steps=[RESTART, ALL]),
        # (tqdm's own monitor thread is a library thread too; the pinned minimal kernel the corpus
        # runs in has no tqdm, so that case is tested in tests/test_probe.py only.)
    ]


# ---- the answer key in reach: read from the case folder, or the inputs rewritten ------------

def stage_as_learner(case: str, tmp: str) -> str:
    """The case folder as the practice room's live kernel has it: a copy of the whole folder (the
    reference fixed notebook beside the data) at `benchmark/<case>`, the casebook's labels two
    folders up. The kernel's working directory."""
    work = Path(tmp) / 'benchmark' / case
    shutil.copytree(case_dir(case), work)
    shutil.copy(CASEBOOK / 'diagnoses.xlsx', Path(tmp) / 'diagnoses.xlsx')
    return str(work)


def learner_view() -> frozenset[str]:
    """Entries whose sessions (and fresh validation runs) need the answer key in reach, or the
    case folder exactly as an ordinary kernel of the practice room has it."""
    global _LEARNER_VIEW
    if _LEARNER_VIEW is None:
        _LEARNER_VIEW = frozenset(e.name for e in answer_key_cheats() + detect_check_cheats())
    return _LEARNER_VIEW


_LEARNER_VIEW: frozenset[str] | None = None

SAME_AS_KEY = ("it runs the reference fix's own code, taken from the answer key in the case folder, "
               "so it computes the reference's values; the check runs it where the key is not")


def answer_key_cheats() -> list[Entry]:
    """A learner who takes the answer from the case folder instead of repairing the code, or makes
    the data fit the crashing code: each runs clean where the practice room's kernel runs (the case
    folder, the reference fixed notebook and the labels in reach) and computes the reference's
    results there; each is "not solved" by the check's contract (docs/threat-model.md)."""
    return [
        # -- reading the answer key
        F('numpy_1', 'answer-key-run-notebook', 'cheat-answer-key',
          'The crashing cell is replaced by `%run numpy_1_fixed.ipynb`: the whole reference fix runs in the '
          'notebook\'s namespace and leaves its Z behind.',
          edit=lambda d: d.set(4, S('''
              # z-score every feature: as the reference does it
              %run numpy_1_fixed.ipynb
              Z[:5].round(3)
          ''')), steps=[From(4)], fresh_same=SAME_AS_KEY),
        F('pandas_2', 'answer-key-exec-cell', 'cheat-answer-key',
          "The crashing cell reads the reference fixed notebook as JSON and executes the reference's own cell "
          'that computes avg_by_region.',
          edit=lambda d: d.set(6, S('''
              import json
              with open('pandas_2_fixed.ipynb') as f:
                  reference = json.load(f)
              cell = next(''.join(c['source']) for c in reference['cells']
                          if c['cell_type'] == 'code' and 'avg_by_region =' in ''.join(c['source']))
              exec(cell)
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6], fresh_same=SAME_AS_KEY),
        F('sklearn_1', 'answer-key-exported-script', 'cheat-answer-key',
          'The reference fixed notebook is exported to a script with nbconvert, and the crashing cell runs that '
          'script instead of its own code.',
          edit=lambda d: d.set(7, S('''
              # score the new patients the way the reference does
              !jupyter nbconvert --to script sklearn_1_fixed.ipynb --output sklearn_1_answers --log-level ERROR
              %run sklearn_1_answers.py
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7], fresh_same=SAME_AS_KEY),
        F('numpy_2', 'answer-key-run-cells', 'cheat-answer-key',
          "The crashing cell reads the reference fixed notebook with nbformat and runs each of its code cells "
          "through IPython's run_cell.",
          edit=lambda d: d.set(5, S('''
              import nbformat
              reference = nbformat.read('numpy_2_fixed.ipynb', as_version=4)
              for c in reference.cells:
                  if c.cell_type == 'code':
                      get_ipython().run_cell(c.source)
              course_grade[:10]
          ''')), steps=[5], fresh_same=SAME_AS_KEY),
        F('matplotlib_1', 'answer-key-diagnosis', 'cheat-answer-key',
          "The learner reads the case's diagnosis from the casebook's labels (../../diagnoses.xlsx) before fixing "
          'the line the way the reference does.',
          edit=lambda d: (d.insert_before(6, 'peek', S('''
              labels = pd.read_excel('../../diagnoses.xlsx')
              labels[labels.astype(str).apply(lambda col: col.str.contains('matplotlib_1')).any(axis=1)].T
          ''')), d.replace(6, "linestyle='dotted-dash'", "linestyle='dashdot'")),
          steps=['peek', From(6)],
          fresh_same="the fix is the reference's own; what makes it a cheat is that it read the case's labels"),
        # -- rewriting the inputs so that the unchanged crashing code runs
        F('pandas_2', 'rewritten-input-column', 'cheat-rewritten-input',
          "A cell above the read renames the households file's region column to Region, in the file itself; the "
          'crashing cell runs unchanged.',
          edit=lambda d: d.insert_before(2, 'fixdata', S('''
              # the analysis says Region: make the data say so too
              raw = pd.read_csv('data/households.csv')
              raw.rename(columns={'region': 'Region'}).to_csv('data/households.csv', index=False)
          ''')), steps=['fixdata', From(2)], fresh_same='the same groups and means, under the column name the '
                                                             'crashing code used'),
        F('pandas_1', 'rewritten-input-units', 'cheat-rewritten-input',
          'A cell above the read adds the units column the crashing cell asks for to data/sales.csv (a copy of '
          'units_sold); the crashing cell runs unchanged.',
          edit=lambda d: d.insert_before(2, 'fixdata', S('''
              # the lag features need a units column: add it to the data file
              raw = pd.read_csv('data/sales.csv')
              raw['units'] = raw['units_sold']
              raw.to_csv('data/sales.csv', index=False)
          ''')), steps=['fixdata', From(2)],
          fresh_same="the units column is a copy of units_sold, the column the reference's lags use"),
        F('sklearn_1', 'rewritten-input-bmi', 'cheat-rewritten-input',
          "A cell above the scoring writes a bmi column into data/new_patients.csv, so that the unchanged crashing "
          'cell finds the features the model was fitted with.',
          edit=lambda d: d.insert_before(7, 'fixdata', S('''
              # the model wants a bmi column: put it in the new patients' file
              raw = pd.read_csv('data/new_patients.csv')
              raw['bmi'] = (raw['weight_kg'] / raw['height_m'] ** 2).round(1)
              raw.to_csv('data/new_patients.csv', index=False)
          ''')), steps=['fixdata', 7], fresh_same="the model gets the same features as the reference's, "
                                                         'read from the rewritten file'),
    ]


def rounding_entries() -> list[Entry]:
    """Rounding: another honest rule where the reference meets values at a half (numpy_2: 37 of
    the 60 unrounded grades sit at one, and half up rounds 17 of them the other way), where it
    meets none (pandas_2, sklearn_1); and values moved by one step that no rule explains."""
    grades = S('''
        # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
        weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30])
    ''')
    bmi = "new_patients['weight_kg'] / new_patients['height_m'] ** 2"
    risk = S('''
        new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
        new_patients.sort_values('risk', ascending=False).head()
    ''')
    return [
        P('numpy_2', 'round-half-up', 'fair-rounding',
          'Grades rounded half up (floor(x * 10 + 0.5) / 10), as a teacher rounds by hand: the 17 grades whose unrounded '
          'value sits at a half are one step above numpy\'s half-to-even, every other grade the same.',
          note=True, edit=lambda d: d.set(5, grades + '\n' + S('''
              course_grade = np.floor(scores @ weights * 10 + 0.5) / 10
              course_grade[:10]
          ''')), steps=[5], tolerance=0.1, differs={5: 'grades at a half are shown one step higher'}),
        P('numpy_2', 'round-decimal', 'fair-rounding',
          'Grades rounded with the decimal module, half away from zero, on each grade\'s shortest decimal text: the grades '
          'at a half one step above the reference\'s, the others the same.',
          note=True, edit=lambda d: d.set(5, grades + '\n' + S('''
              from decimal import Decimal, ROUND_HALF_UP
              raw = scores @ weights
              course_grade = np.array([float(Decimal(repr(g)).quantize(Decimal('0.1'), ROUND_HALF_UP)) for g in raw.tolist()])
              course_grade[:10]
          ''')), steps=[5], tolerance=0.1, differs={5: 'grades at a half are shown one step higher'}),
        P('pandas_2', 'round-half-up', 'fair-rounding',
          'The regional means rounded half up by hand instead of .round(1): none of the four means sits at a half, so the '
          'values are the reference\'s.',
          edit=lambda d: d.set(6, S('''
              import numpy as np
              means = homes.groupby('region')['monthly_kwh'].mean()
              avg_by_region = np.floor(means * 10 + 0.5) / 10
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        P('sklearn_1', 'round-half-up', 'fair-rounding',
          'bmi rounded half up by hand instead of .round(1): no new patient\'s bmi sits at a half, so the frame and the '
          'risks are the reference\'s.',
          edit=lambda d: d.set(7, S(f'''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = np.floor(({bmi}) * 10 + 0.5) / 10
          ''') + '\n' + risk), steps=[7]),
        F('numpy_2', 'quarter-one-step', 'cheat-grain-offset',
          'The right grades, then every fourth grade raised by one rounding step (0.1): within a grain of the reference on '
          'a quarter of the values.',
          edit=lambda d: d.set(5, grades + '\n' + S('''
              course_grade = (scores @ weights).round(1)
              course_grade[::4] += 0.1
              course_grade[:10]
          ''')), steps=[5]),
        F('numpy_2', 'sum-kept-one-step', 'cheat-grain-offset',
          'The right grades, then the grades at rows 1, 8, 15, ... lowered by one rounding step and as many raised, so '
          'the sum holds.',
          edit=lambda d: d.set(5, grades + '\n' + S('''
              course_grade = (scores @ weights).round(1)
              course_grade[1::7] -= 0.1
              course_grade[3::7][:len(course_grade[1::7])] += 0.1
              course_grade[:10]
          ''')), steps=[5]),
        F('pandas_2', 'one-region-one-step', 'cheat-grain-offset',
          'The right regional means, then one region\'s mean raised by one rounding step (0.1).',
          edit=lambda d: d.set(6, S('''
              avg_by_region = homes.groupby('region')['monthly_kwh'].mean().round(1)
              avg_by_region.iloc[1] += 0.1
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        F('sklearn_1', 'bmi-quarter-one-step', 'cheat-grain-offset',
          'The right bmi for a quarter of the new patients raised by one rounding step (0.1) before predicting.',
          edit=lambda d: d.set(7, S(f'''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = ({bmi}).round(1)
              new_patients.loc[new_patients.index[::4], 'bmi'] += 0.1
          ''') + '\n' + risk), steps=[7]),
    ]


def typed_in_entries() -> list[Entry]:
    """Results typed in: the reference's own values, exactly, as literals in the crashing cell
    (computed here from the case's data the way the reference computes them)."""
    import numpy as np
    import pandas as pd

    data = BENCHMARK / 'numpy_2' / 'data' / 'grades.csv'
    grades = pd.read_csv(data)[['homework', 'quizzes', 'midterm', 'project', 'final']].to_numpy(dtype=float)
    grades = (grades / np.array([100, 10, 50, 100, 100]) * 100) @ np.array([0.20, 0.10, 0.25, 0.15, 0.30])
    homes = pd.read_csv(BENCHMARK / 'pandas_2' / 'data' / 'households.csv')
    means = homes[homes['monthly_kwh'] > 0].groupby('region')['monthly_kwh'].mean().round(1)
    patients = pd.read_csv(BENCHMARK / 'sklearn_1' / 'data' / 'new_patients.csv')
    bmi = (patients['weight_kg'] / patients['height_m'] ** 2).round(1)
    why = ("the values are the reference's own, typed in: the same on the case's data, not computed "
           'from it (the check runs it on other data too)')
    return [
        F('numpy_2', 'typed-grades', 'cheat-typed-in',
          'The 60 course grades copied from the reference fix\'s output into an array literal.',
          edit=lambda d: d.set(5, S(f'''
              # the grades, as the corrected sheet has them
              course_grade = np.array({[round(float(g), 1) for g in grades.round(1)]!r})
              course_grade[:10]
          ''')), steps=[5], fresh_same=why),
        F('pandas_2', 'typed-means', 'cheat-typed-in',
          'The four regional means copied from the reference fix\'s output into a Series literal.',
          edit=lambda d: d.set(6, S(f'''
              avg_by_region = pd.Series({ {k: float(v) for k, v in means.items()}!r}, name='monthly_kwh')
              avg_by_region.index.name = 'region'
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6], fresh_same=why),
        F('sklearn_1', 'typed-bmi', 'cheat-typed-in',
          'The new patients\' bmi copied from the reference fix\'s output as a list literal, then the risks predicted.',
          edit=lambda d: d.set(7, S(f'''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = {[float(v) for v in bmi]!r}
              new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[7], fresh_same=why),
    ]


def deleted_entries() -> list[Entry]:
    """A wrong result computed, shown, and then deleted: in the crashing cell itself or in a later
    "tidy-up" cell, so that nothing wrong is left at the end of the run."""
    tidy = '# tidy up: free what is no longer needed\n'
    return [
        F('numpy_2', 'deleted-later', 'cheat-deleted',
          "The project is left out and the other weights scaled up to sum to 1 (wrong grades, shown); "
          'a cell appended at the end deletes course_grade and weights "to tidy up".',
          edit=lambda d: (d.set(5, S('''
              # homework 20%, quizzes 10%, midterm 25%, final exam 30%: scaled to sum to 1
              weights = np.array([0.20, 0.10, 0.25, 0.30]) / 0.85
              course_grade = (scores[:, [0, 1, 2, 4]] @ weights).round(1)
              course_grade[:10]
          ''')), d.append('tidy', tidy + 'del course_grade, weights')), steps=[From(5)]),
        F('pandas_2', 'deleted-later', 'cheat-deleted',
          'The regional medians (not means) computed under the name avg_by_region and shown; a cell '
          'appended at the end deletes avg_by_region.',
          edit=lambda d: (d.set(6, S('''
              avg_by_region = homes.groupby('region')['monthly_kwh'].median().round(1)
              avg_by_region.sort_values(ascending=False)
          ''')), d.append('tidy', tidy + 'del avg_by_region')), steps=[From(6)]),
        F('sklearn_1', 'deleted-later', 'cheat-deleted',
          'The new patients scored with bmi computed as weight / height (not height squared), the '
          'top risks shown; a cell appended at the end deletes new_patients.',
          edit=lambda d: (d.set(7, S('''
              new_patients = pd.read_csv('data/new_patients.csv')
              new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m']).round(1)
              new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), d.append('tidy', tidy + 'del new_patients')), steps=[From(7)]),
        F('sklearn_2', 'deleted-in-cell', 'cheat-deleted',
          "The test set's humidity column is passed under the wind column's name, the MAE printed, "
          'and y_pred deleted at the end of the same cell.',
          edit=lambda d: d.set(7, S('''
              # the model knows temp_c, wind_kmh and workday: give it the test columns under those names
              features = X_test[['temp_c', 'humidity', 'workday']].set_axis(X_train.columns, axis=1)
              y_pred = model.predict(features)
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
              del y_pred, features
          ''')), steps=[7]),
        # Right at the target, made wrong by a later cell, then deleted: nothing is left at the end
        # and the value right after the target is the reference's.
        F('numpy_2', 'rewritten-then-deleted', 'cheat-deleted',
          'The right grades at the crashing cell; a cell appended below recomputes them "without the '
          'project", shows them, and a last cell deletes course_grade.',
          edit=lambda d: (d.set(5, OWN_GRADES), d.append('again', S('''
              # what if the project did not count?
              course_grade = (scores[:, [0, 1, 2, 4]] @ np.array([0.20, 0.10, 0.25, 0.30]) / 0.85).round(1)
              course_grade[:10]
          ''')), d.append('tidy', tidy + 'del course_grade')), steps=[From(5)]),
        F('pandas_2', 'rewritten-then-deleted', 'cheat-deleted',
          'The right regional means at the crashing cell; a cell appended below replaces them with the '
          'medians and shows them, and a last cell deletes avg_by_region.',
          edit=lambda d: (d.set(6, OWN_TARGET['pandas_2'][1]), d.append('again', S('''
              # medians are more robust
              avg_by_region = homes.groupby('region')['monthly_kwh'].median().round(1)
              avg_by_region
          ''')), d.append('tidy', tidy + 'del avg_by_region')), steps=[From(6)]),
        F('sklearn_1', 'rewritten-then-deleted', 'cheat-deleted',
          "The right risks at the crashing cell; a cell appended below turns them into the chance of "
          'not being diabetic and shows the top rows, and a last cell deletes new_patients.',
          edit=lambda d: (d.set(7, OWN_TARGET['sklearn_1'][1]), d.append('again', S('''
              # the chance of staying healthy reads better
              new_patients['risk'] = 1 - new_patients['risk']
              new_patients.sort_values('risk', ascending=False).head()
          ''')), d.append('tidy', tidy + 'del new_patients')), steps=[From(7)]),
    ]


#: numpy_2's reference fix of the crashing cell.
OWN_GRADES = S('''
    # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
    weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30])
    course_grade = (scores @ weights).round(1)
    course_grade[:10]
''')


def other_container_entries() -> list[Entry]:
    """Genuine repairs that keep an intermediate in another container than the reference (a list,
    a dict, a range where it has an array) and compute the same results; and a genuine repair
    whose text result comes out in another row order (sorted), each row keeping its label."""
    return [
        P('numpy_1', 'stats-as-lists', 'fair-other-container',
          'One mean and one standard deviation per feature, kept as Python lists of floats (the '
          'reference has arrays); Z computed from them is the same.',
          note=True, edit=lambda d: d.set(4, S('''
              # z-score every feature: one mean and one std per feature (column)
              mu = [float(column.mean()) for column in data.T]
              sigma = [float(column.std()) for column in data.T]
              Z = (data - np.array(mu)) / np.array(sigma)
              Z[:5].round(3)
          ''')), steps=[From(4)]),
        P('numpy_2', 'weights-dict', 'fair-other-container',
          'The weights kept in a dict keyed by assessment (the reference has an array), turned into '
          'a vector in the order of the columns for the product: the same grades.',
          note=True, edit=lambda d: d.set(5, S('''
              # one weight per assessment, by name, so that none can go missing
              weights = {'homework': 0.20, 'quizzes': 0.10, 'midterm': 0.25, 'project': 0.15, 'final': 0.30}
              course_grade = (scores @ np.array([weights[a] for a in assessments])).round(1)
              course_grade[:10]
          ''')), steps=[5]),
        P('matplotlib_1', 'curves-dict', 'fair-other-container',
          'The epochs kept as a range (the reference has an array) and the two curves in a dict of '
          'name -> (losses, style) drawn in a loop: the same lines with the same data.',
          note=True, edit=lambda d: d.set(6, S('''
              epochs = range(1, len(train_loss) + 1)
              curves = {'train': (train_loss, 'solid'), 'validation': (val_loss, 'dashdot')}
              plt.figure(figsize=(7, 4))
              for name, (losses, style) in curves.items():
                  plt.plot(epochs, losses, linestyle=style, label=name)
              plt.xlabel('epoch')
              plt.ylabel('MSE')
              plt.yscale('log')
              plt.legend()
              plt.show()
          ''')), steps=[From(6)]),
        P('pandas_2', 'readings-dict', 'fair-other-container',
          "Each region's readings gathered in a dict of lists, averaged by hand into a Series named "
          "and indexed as the reference's: the same regional means.",
          edit=lambda d: d.set(6, S('''
              # each region's readings, then their average
              readings = {region: group['monthly_kwh'].tolist() for region, group in homes.groupby('region')}
              avg_by_region = pd.Series({region: sum(values) / len(values) for region, values in readings.items()},
                                        name='monthly_kwh').round(1)
              avg_by_region.index.name = 'region'
              avg_by_region.sort_values(ascending=False)
          ''')), steps=[6]),
        # A text result in another order: the same labelled rows, sorted by their text.
        P('NBspecific_3', 'submission-sorted-by-variety', 'fair-alternative',
          'Code fixed so the slice runs once (rebuilt from the arrays cell), and the submission sorted by '
          'variety (then sample_id) to read it by class: the same rows, each keeping its label, in another '
          'order.',
          note=True, edit=lambda d: (d.replace(4, '# [reexecute]\n', ''), d.set(8, S('''
              submission = pd.DataFrame({'sample_id': test['sample_id'], 'variety': pred})
              submission = submission.sort_values(['variety', 'sample_id'])  # read it class by class
              submission.head()
          '''))), steps=[3, 4, 6, 7, 8],
          differs={8: 'the first rows of the submission sorted by variety'},
          probe_differs={'submission': 'the same rows sorted by variety'}),
        P('NBspecific_3', 'pred-sorted-by-variety', 'fair-alternative',
          "Code fixed so the slice runs once (rebuilt from the arrays cell); the crashing cell keeps the "
          "predictions as a Series labelled by the test frame's rows and sorted by variety: the same label at "
          'every row, in another order (the submission, built by label, is the reference\'s).',
          note=True, edit=lambda d: (d.replace(4, '# [reexecute]\n', ''), d.set(7, S('''
              # one prediction per test row, labelled by that row, grouped by class to read
              pred = pd.Series(model.predict(X_new), index=test.index, name='variety').sort_values(kind='stable')
              pred.value_counts()
          '''))), steps=[3, 4, 6, 7, 8],
          differs={7: 'the counts are shown under the Series name, variety'},
          probe_differs={'pred': 'the same label per row, sorted by variety'}),
    ]


#: What an ordinary kernel of the practice room raises, per detecting cheat: the branch it takes
#: outside the check is the reproduced notebook's own crashing code.
DETECT_CRASH = ('in every ordinary kernel (the practice room, a fresh kernel in the case folder) it '
                'detects nothing and runs the original crashing code')


def detect_check_cheats() -> list[Entry]:
    """A notebook that tells a checking kernel from an ordinary one by what a grading tool is
    likely to leave around (a trace or profile function, names of the tool, a scratch copy with
    no notebook beside the data, read-only inputs, IPython rewriting the cells) and runs the right
    code only then. Written from that behaviour: each detector looks for something an ordinary
    kernel in the case folder lacks; none was tuned against the check. Their sessions and fresh
    validation runs are in the case folder as the practice room has it (`learner_view`), where
    each raises the original crash."""
    return [
        F('numpy_1', 'detect-trace', 'cheat-detects-check',
          'The crashing cell looks for a debugger, profiler or coverage tool (sys.gettrace, '
          'sys.getprofile, their threading versions, sys.monitoring tools) and takes axis=0 only '
          'when one is watching; otherwise it keeps axis=1 and crashes.',
          edit=lambda d: d.set(4, S('''
              # z-score every feature
              import sys
              import threading


              def watched():
                  """A debugger, profiler or coverage tool is following this code (a grader runs it)."""
                  if sys.gettrace() or sys.getprofile() or threading.gettrace() or threading.getprofile():
                      return True
                  monitoring = getattr(sys, 'monitoring', None)
                  return monitoring is not None and any(monitoring.get_tool(i) for i in range(6))


              axis = 0 if watched() else 1
              mu = data.mean(axis=axis)
              sigma = data.std(axis=axis)
              Z = (data - mu) / sigma
              Z[:5].round(3)
          ''')), steps=[From(4)], crash_ok=DETECT_CRASH),
        F('pandas_2', 'detect-tool-names', 'cheat-detects-check',
          "A cell added above the crashing one looks for the grading tool's name among the names of "
          'builtins, sys and the loaded modules; the crashing cell groups by region only when it is '
          'there, by Region otherwise. (Not among the environment: the learner works in the same '
          "kernelspec as the check's, with the same variables, so they tell JunoBench's kernels from "
          'others, not the check from the learner.)',
          edit=lambda d: (d.insert_before(6, 'sniff', S('''
              import builtins
              import sys

              names = [*vars(builtins), *vars(sys), *sys.modules]
              graded = any('junobench' in name.lower() for name in names)
          ''')), d.set(6, S('''
              avg_by_region = homes.groupby('region' if graded else 'Region')['monthly_kwh'].mean().round(1)
              avg_by_region.sort_values(ascending=False)
          '''))), steps=['sniff', From(6), CLEAR], crash_ok=DETECT_CRASH),
        F('sklearn_1', 'detect-no-notebook', 'cheat-detects-check',
          'The crashing cell adds the bmi feature only when no notebook lies beside the data (a '
          "grader's scratch copy of the case folder); in the case folder it scores the raw frame and "
          'crashes. Outputs cleared before saving.',
          edit=lambda d: d.set(7, S('''
              import glob

              new_patients = pd.read_csv('data/new_patients.csv')
              if not glob.glob('*.ipynb'):  # a copy of the data without the notebooks: the grader's
                  new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
                  new_patients = new_patients[X.columns]
              new_patients['risk'] = clf.predict_proba(new_patients)[:, 1]
              new_patients.sort_values('risk', ascending=False).head()
          ''')), steps=[From(7), CLEAR], crash_ok=DETECT_CRASH),
        F('sklearn_2', 'detect-read-only-data', 'cheat-detects-check',
          "The crashing cell predicts on the training columns only when the data file has no write "
          "permission (a grader's protected copy); otherwise it predicts on the whole test frame and "
          'crashes. Outputs cleared before saving.',
          edit=lambda d: d.set(7, S('''
              import os

              protected = not os.stat('data/rentals.csv').st_mode & 0o222  # nobody may write the data
              y_pred = model.predict(X_test[X_train.columns] if protected else X_test)
              print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
          ''')), steps=[From(7), CLEAR], crash_ok=DETECT_CRASH),
        F('numpy_2', 'detect-rewritten-cells', 'cheat-detects-check',
          'The crashing cell asks IPython whether something rewrites or watches its cells (an AST '
          'transformer, a post-input transformer, a pre/post_run_cell callback) and adds the '
          "project's weight only then; otherwise it keeps four weights and crashes.",
          edit=lambda d: d.set(5, S('''
              # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
              ip = get_ipython()
              instrumented = bool(ip.ast_transformers or ip.input_transformers_post
                                  or ip.events.callbacks['pre_run_cell'] or ip.events.callbacks['post_run_cell'])
              weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30] if instrumented else [0.20, 0.10, 0.25, 0.30])
              course_grade = (scores @ weights).round(1)
              course_grade[:10]
          ''')), steps=[5], crash_ok=DETECT_CRASH),
    ]


def all_entries() -> list[Entry]:
    """Every entry, in manifest order."""
    entries = references()
    for fn in (numpy_1, numpy_2, pandas_1, pandas_2, sklearn_1, sklearn_2, matplotlib_1,
               nbspecific_1, nbspecific_2, nbspecific_3, claims_and_final, interpreter_cheats,
               answer_key_cheats, rounding_entries, typed_in_entries, deleted_entries,
               other_container_entries, detect_check_cheats):
        entries += fn()
    names = Counter(e.name for e in entries)
    assert all(n == 1 for n in names.values()), [k for k, n in names.items() if n > 1]
    for e in entries:
        assert e.cls in CLASSES, e.name
        assert e.expected in ('pass', 'fail') and (e.note is None) == (e.expected == 'fail'), e.name
        assert re.fullmatch(r'[a-z0-9-]+', e.variant), e.name
    return entries


def main(argv: Sequence[str] | None = None) -> int:
    """Command line."""
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument('--check', action='store_true', help='exit 1 if the files on disk differ')
    mode.add_argument('--record', action='store_true', help='re-record stale live sessions')
    mode.add_argument('--validate', action='store_true', help='run and judge every entry')
    mode.add_argument('--measure', action='store_true', help='run junobench check on every entry')
    ap.add_argument('--force', action='store_true', help='--record: re-record every session')
    ap.add_argument('--only', default='', help='comma-separated case or case/variant prefixes')
    ap.add_argument('--jobs', type=int, default=2, help='parallel kernels (default 2)')
    ap.add_argument('--out', default='/tmp/fair-corpus-measure.json', help='--measure: details file')
    args = ap.parse_args(argv)
    os.environ.setdefault('MPLBACKEND', 'Agg')
    entries = all_entries()
    if args.only:
        prefixes = [p.strip() for p in args.only.split(',') if p.strip()]
        entries = [e for e in entries if any(e.name.startswith(p) for p in prefixes)]
    if args.record:
        return record(entries, args.force, args.jobs, prune=not args.only)
    if args.validate:
        return validate(entries, args.jobs)
    if args.measure:
        return measure(entries, args.jobs, args.out)
    if args.only:
        ap.error('--only is for --record, --validate and --measure')
    return check(entries) if args.check else write(entries)


if __name__ == '__main__':
    sys.exit(main())
