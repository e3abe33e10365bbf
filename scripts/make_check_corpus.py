#!/usr/bin/env python3
"""Build the mutation corpus of "Check my fix": learner repairs of every demo case with the
verdict a teacher expects for each.

    python scripts/make_check_corpus.py            # (re)writes test/check-corpus/
    python scripts/make_check_corpus.py --check    # exits 1 when the files on disk are stale

For each case of demo/casebook it writes, under test/check-corpus/<case>/, notebooks such as:

- genuine repairs: the reference fixed notebook as it is, saved without cell ids (nbformat 4.4),
  saved with other ids (as a notebook saved separately in JupyterLab), and hand-written
  alternative fixes with the same effect (another spelling, an inline computation, a guard
  instead of errors='ignore', reloading the data in the cell, moving cells);
- hidden crashes: the crashing cell wrapped in try/except or contextlib.suppress, its failing
  lines put under `if False:`, turned into a string literal, commented out or deleted, the cell
  replaced by a print(...), emptied or deleted;
- made-up values that let the cell run but compute something else (a constant instead of a
  statistic, zeros instead of a prediction);
- live-only fixes (the target uses a name that only the learner's live kernel had), the
  reproduced notebook itself and, for notebook-specific cases, the live-kernel rules.

`manifest.json` lists every notebook with its expected status and why. The expected verdicts are
written here, by the rules the check documents, never read back from the check; the corpus runs
in CI (`node scripts/check-corpus.js`) and must agree 100%.
"""

from __future__ import annotations

import argparse
import copy
import json
import re
import sys
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "demo" / "casebook" / "benchmark"
OUT = REPO / "test" / "check-corpus"
ANSI = re.compile(r"\x1b\[[0-9;]*m")
TOKEN = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d+)?|'[^']*'|\"[^\"]*\"|\S")
#: Two lines are the same statement from this token similarity on (the check's policy, read
#: from the one file the judge and the probe read too).
SAME_LINE = json.loads((REPO / "jupyterlab_junobench" / "check_policy.json").read_text())["sameLine"]["value"]

#: Hand-written repairs per case: (variant, target cell source or a function of the notebooks,
#: expected status, why). `{fixed}` in a source stands for the fixed target's source.
GENUINE = {
    "numpy_1": [
        ("alt-np-functions", "mu = np.mean(data, axis=0)\nsigma = np.std(data, axis=0)\nZ = (data - mu) / sigma\nZ[:5].round(3)",
         "the same statistics spelled with numpy functions"),
        ("alt-inline", "Z = (data - data.mean(axis=0)) / data.std(axis=0)\nZ[:5].round(3)",
         "an inline computation: mu and sigma are not needed later"),
    ],
    "numpy_2": [
        ("alt-respelled", "weights = np.array([0.2, 0.1, 0.25, 0.15, 0.3])\ncourse_grade = (scores @ weights).round(1)\ncourse_grade[:10]",
         "the same weights written differently"),
        ("alt-dot", "weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30])\ncourse_grade = np.round(scores.dot(weights), 1)\ncourse_grade[:10]",
         "np.round and dot instead of @ and .round"),
    ],
    "pandas_1": [
        ("alt-grouped-once", "sales = sales.sort_values(['store', 'date'])\nby_store = sales.groupby('store')['units_sold']\nsales['units_lag1'] = by_store.shift(1)\nsales['units_lag7'] = by_store.shift(7)\nsales = sales.dropna()\nsales.shape",
         "one groupby kept in a helper variable"),
        ("alt-periods", "sales = sales.sort_values(['store', 'date'])\nsales['units_lag1'] = sales.groupby('store')['units_sold'].shift(periods=1)\nsales['units_lag7'] = sales.groupby('store')['units_sold'].shift(periods=7)\nsales = sales.dropna(subset=['units_lag1', 'units_lag7'])\nsales.shape",
         "keyword arguments and an explicit dropna subset"),
    ],
    "pandas_2": [
        ("alt-agg", "avg_by_region = homes.groupby('region')['monthly_kwh'].agg('mean').round(1)\navg_by_region.sort_values(ascending=False)",
         "agg('mean') instead of mean()"),
        ("alt-by-series", "avg_by_region = homes.groupby(homes['region'])['monthly_kwh'].mean().round(1)\navg_by_region.sort_values(ascending=False)",
         "grouping by the column itself"),
    ],
    "sklearn_1": [
        ("alt-train-columns", "new_patients = pd.read_csv('data/new_patients.csv')\nnew_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)\nnew_patients['risk'] = clf.predict_proba(new_patients[X_train.columns])[:, 1]\nnew_patients.sort_values('risk', ascending=False).head()",
         "the training frame's columns instead of X's"),
        ("alt-column-list", "new_patients = pd.read_csv('data/new_patients.csv')\nnew_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)\nfeatures = list(X.columns)\nnew_patients['risk'] = clf.predict_proba(new_patients[features])[:, 1]\nnew_patients.sort_values('risk', ascending=False).head()",
         "the feature list kept in a variable"),
    ],
    "sklearn_2": [
        ("alt-drop-test", "y_pred = model.predict(X_test.drop(columns=['humidity']))\nprint('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))",
         "dropping the same column from the test set"),
        ("alt-rebind-test", "X_test = X_test.drop(columns=['humidity'])\ny_pred = model.predict(X_test)\nprint('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))",
         "rebinding X_test first (the reference leaves X_test alone, so it is not compared)"),
    ],
    "matplotlib_1": [
        ("alt-short-style", lambda fixed: fixed.replace("linestyle='dashdot'", "linestyle='-.'"),
         "the short spelling of the same line style"),
        ("alt-ls", lambda fixed: fixed.replace("linestyle='dashdot'", "ls='dashdot'"),
         "the ls alias"),
    ],
    "NBspecific_1": [
        ("alt-inline-scaler", "X_train_s = StandardScaler().fit_transform(X_train)\nX_test_s = StandardScaler().fit(X_train).transform(X_test)",
         "an inline scaler instead of the missing variable (scaler is only mutated by the reference's target)"),
    ],
    "NBspecific_2": [
        ("alt-errors-ignore", "# customer_id is an identifier, not a feature\ndf = df.drop(columns=['customer_id'], errors='ignore')\ndf.shape",
         "errors='ignore' makes the cell safe to re-run"),
        ("alt-guard", "# customer_id is an identifier, not a feature\nif 'customer_id' in df.columns:\n    df = df.drop(columns=['customer_id'])\ndf.shape",
         "a guard instead of errors='ignore'"),
        ("alt-reload", "df = pd.read_csv('data/customers.csv')\ndf = df.drop(columns=['customer_id'])\ndf.shape",
         "reloading the data in the cell"),
    ],
    "NBspecific_3": [
        ("alt-rerun-all", None, "restart and run all: the live target ran cleanly"),
    ],
}

#: Made-up values: (variant, target source or function of the fixed target, why).
MADE_UP = {
    "numpy_1": ("made-up-unit-scale", "mu = 0\nsigma = 1\nZ = (data - mu) / sigma\nZ[:5].round(3)",
                "constants instead of the statistics: Z is not standardised"),
    "numpy_2": ("made-up-equal-weights", "weights = np.array([0.2, 0.2, 0.2, 0.2, 0.2])\ncourse_grade = (scores @ weights).round(1)\ncourse_grade[:10]",
                "made-up weights: the course grades differ"),
    "pandas_1": ("made-up-constant-lags", "sales = sales.sort_values(['store', 'date'])\nsales['units_lag1'] = sales['units_sold'].mean()\nsales['units_lag7'] = sales['units_sold'].mean()\nsales = sales.dropna()\nsales.shape",
                 "a constant (the mean) instead of the lagged values"),
    "pandas_2": ("made-up-overall-mean", "avg_by_region = homes['monthly_kwh'].mean().round(1)\navg_by_region",
                 "one overall mean instead of the mean per region"),
    "sklearn_1": ("made-up-wrong-class", lambda fixed: fixed.replace("[:, 1]", "[:, 0]"),
                  "the probability of the wrong class"),
    "sklearn_2": ("made-up-zeros", "y_pred = model.predict(X_test[X_train.columns]) * 0\nprint('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))",
                  "zeros instead of the prediction"),
    "matplotlib_1": ("made-up-epochs", lambda fixed: fixed.replace("np.arange(1, len(train_loss) + 1)", "np.arange(len(train_loss))"),
                     "epochs counted from 0: a different value with the same shape"),
    "NBspecific_1": ("made-up-unscaled", "X_train_s = X_train.to_numpy()\nX_test_s = X_test.to_numpy()",
                     "the unscaled data instead of the scaled data"),
    "NBspecific_2": ("made-up-wrong-column", "# customer_id is an identifier, not a feature\ndf = df.drop(columns=['age'])\ndf.shape",
                     "dropping another column: the frame's columns differ"),
    "NBspecific_3": ("made-up-zeros", "pred = np.zeros(len(X_new))\npd.Series(pred).value_counts()",
                     "zeros instead of the predicted varieties"),
}


def src(cell: dict) -> str:
    s = cell.get("source", "")
    return "".join(s) if isinstance(s, list) else s


def tokens(line: str) -> list[str]:
    return TOKEN.findall(line)


def dice(a: str, b: str) -> float:
    ta, tb = tokens(a), tokens(b)
    if not ta and not tb:
        return 1.0
    counts: dict[str, int] = {}
    for t in ta:
        counts[t] = counts.get(t, 0) + 1
    shared = 0
    for t in tb:
        if counts.get(t, 0) > 0:
            shared += 1
            counts[t] -= 1
    return 2 * shared / (len(ta) + len(tb))


def code_cells(nb: dict) -> list[int]:
    return [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]


def target_of(nb: dict) -> int:
    for i, c in enumerate(nb["cells"]):
        if any(o.get("output_type") == "error" for o in c.get("outputs", [])):
            return i
    raise SystemExit("no error output in the reproduced notebook")


def crash_line(cell: dict) -> int:
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            for frame in o.get("traceback", []):
                m = re.search(r"Cell In\[\d+\], line (\d+)", ANSI.sub("", frame))
                if m:
                    return int(m.group(1))
    raise SystemExit("no crash line in the traceback")


def without_marker(text: str) -> str:
    lines = text.split("\n")
    if lines and "[reexecute]" in lines[0]:
        lines = lines[1:]
    return "\n".join(lines)


def failing_lines(source: str, line: int) -> list[int]:
    """The crash line (1-based) and every line of the cell alike to it (the same failing call)."""
    lines = source.split("\n")
    crash = lines[line - 1].strip()
    return [k + 1 for k, ln in enumerate(lines) if ln.strip() and not ln.strip().startswith("#")
            and (k + 1 == line or dice(ln.strip(), crash) >= SAME_LINE)]


def indent(text: str, pad: str = "    ") -> str:
    return "\n".join(pad + ln if ln.strip() else ln for ln in text.split("\n"))


class Case:
    def __init__(self, name: str):
        self.name = name
        folder = BENCH / name
        self.repro = json.loads((folder / f"{name}_reproduced.ipynb").read_text())
        self.fixed = json.loads((folder / f"{name}_fixed.ipynb").read_text())
        self.rt = target_of(self.repro)
        # Our demo fixes keep the cells in place except NBspecific_1's moved cell: the fixed
        # target is the cell with the same id, else the same position among code cells.
        rid = self.repro["cells"][self.rt].get("id")
        same = [i for i, c in enumerate(self.fixed["cells"]) if rid and c.get("id") == rid]
        if same:
            self.ft = same[0]
        else:
            pos = code_cells(self.repro).index(self.rt)
            self.ft = code_cells(self.fixed)[pos]
        raw = src(self.repro["cells"][self.rt])
        marker = 1 if raw.split("\n")[0].find("[reexecute]") >= 0 else 0
        self.repro_source = without_marker(raw)
        self.line = crash_line(self.repro["cells"][self.rt]) - marker
        self.fixed_source = src(self.fixed["cells"][self.ft])
        # The demo names its notebook-specific cases NBspecific_<n>, as JunoBench does.
        self.nb_specific = name.startswith("NBspecific")

    # Notebooks ------------------------------------------------------------------------------
    def from_fixed(self, target_source: str | None) -> dict:
        nb = copy.deepcopy(self.fixed)
        if target_source is not None:
            nb["cells"][self.ft]["source"] = target_source
        return nb

    def from_repro(self, target_source: str | None = None, live: str | None = None) -> dict:
        """The reproduced notebook (the learner's copy) with the target changed; `live` says
        how the target's latest live run ended: 'ok', 'error' (as recorded) or None (not run)."""
        nb = copy.deepcopy(self.repro)
        cell = nb["cells"][self.rt]
        if target_source is not None:
            cell["source"] = target_source
        if live == "ok":
            cell["outputs"] = []
            cell["execution_count"] = 99
        elif live is None:
            cell["outputs"] = []
            cell["execution_count"] = None
        return nb

    def target_cheat(self, how: str) -> str:
        """The reproduced target's source with a hiding trick applied."""
        s = self.repro_source
        lines = s.split("\n")
        bad = failing_lines(s, self.line)
        if how == "try":
            return "try:\n" + indent(s) + "\nexcept Exception:\n    pass"
        if how == "suppress":
            return "import contextlib\nwith contextlib.suppress(Exception):\n" + indent(s)
        if how == "if-false":
            first = bad[0] - 1
            return "\n".join(lines[:first] + ["if False:"] + [indent(ln) for ln in lines[first:]])
        if how == "string":
            first = bad[0] - 1
            quote = "'''" if '"""' in s else '"""'
            return "\n".join(lines[:first] + [quote] + lines[first:] + [quote])
        if how == "comment":
            return "\n".join("# " + ln if k + 1 in bad else ln for k, ln in enumerate(lines))
        if how == "delete-line":
            return "\n".join(ln for k, ln in enumerate(lines) if k + 1 not in bad)
        if how == "print":
            return "print('fixed')"
        if how == "empty":
            return ""
        if how == "comment-all":
            return "\n".join("# " + ln if ln.strip() else ln for ln in lines)
        raise ValueError(how)


def strip_ids(nb: dict) -> dict:
    nb = copy.deepcopy(nb)
    nb["nbformat_minor"] = 4
    for c in nb["cells"]:
        c.pop("id", None)
    return nb


def new_ids(nb: dict, case: str) -> dict:
    nb = copy.deepcopy(nb)
    nb["nbformat_minor"] = max(5, nb.get("nbformat_minor", 5))
    for k, c in enumerate(nb["cells"]):
        c["id"] = uuid.uuid5(uuid.NAMESPACE_URL, f"junobench-corpus:{case}:{k}").hex[:8]
    return nb


def delete_target(nb: dict, index: int) -> dict:
    nb = copy.deepcopy(nb)
    del nb["cells"][index]
    return nb


def resolve(spec, fixed_source: str) -> str:
    return spec(fixed_source) if callable(spec) else spec


def variants(case: Case) -> list[tuple[str, dict, str, str]]:
    """(variant, notebook, expected status, why) for one case."""
    out: list[tuple[str, dict, str, str]] = []

    def add(v: str, nb: dict, status: str, why: str) -> None:
        out.append((v, nb, status, why))

    name = case.name
    add("fixed", case.from_fixed(None), "solved", "the reference fixed notebook itself")
    add("fixed-no-ids", strip_ids(case.from_fixed(None)), "solved",
        "the reference fix saved without cell ids (nbformat 4.4)")
    add("fixed-new-ids", new_ids(case.from_fixed(None), name), "solved",
        "the reference fix saved separately: no id shared with the reproduced notebook")
    for variant, spec, why in GENUINE.get(name, []):
        if spec is None:
            continue
        body = resolve(spec, case.fixed_source)
        if case.nb_specific:
            # The learner's own copy, the target re-run cleanly in the live kernel.
            nb = case.from_repro(body, live="ok")
            if name == "NBspecific_1":
                nb = move_scaler_up(case, nb) if variant != "alt-inline-scaler" else nb
            add(variant, nb, "solved", why)
        else:
            add(variant, case.from_fixed(body), "solved", why)
    made = MADE_UP.get(name)
    if made:
        variant, spec, why = made
        body = resolve(spec, case.fixed_source)
        if case.nb_specific:
            nb = case.from_repro(body, live="ok")
            if name == "NBspecific_1":
                nb = move_scaler_up(case, nb)
            add(variant, nb, "different-effect", why)
        else:
            add(variant, case.from_fixed(body), "different-effect", why)

    # Hiding tricks: on the fixed notebook (so the rest of it is repaired) for ordinary cases,
    # on the learner's copy for notebook-specific ones.
    base = (lambda body: case.from_repro(body, live="ok")) if case.nb_specific else case.from_fixed
    crashes_fresh = not case.nb_specific or name == "NBspecific_1"
    for how, why in [("try", "the crashing cell wrapped in try/except Exception: pass"),
                     ("suppress", "the crashing cell wrapped in contextlib.suppress(Exception)"),
                     ("if-false", "the failing lines put under if False:"),
                     ("string", "the failing lines turned into a string literal")]:
        if not crashes_fresh and how in ("try", "suppress"):
            # A fresh top-to-bottom run raises nothing there; the live kernel, replayed (the
            # crash, then the wrapped cell run again), decides.
            if name == "NBspecific_3":
                add(f"cheat-{how}", base(case.target_cheat(how)), "fails-live",
                    why + "; live, the model the re-run left with a feature too few is still there")
            else:
                add(f"cheat-{how}", base(case.target_cheat(how)), "solved",
                    why + "; run again, the cell catches the re-run's error and leaves the right state")
            continue
        if not crashes_fresh:
            continue
        add(f"cheat-{how}", base(case.target_cheat(how)), "hidden-crash", why)
    add("cheat-comment-line", base(case.target_cheat("comment") if crashes_fresh else case.target_cheat("comment-all")),
        "hidden-crash", "the failing lines commented out" if crashes_fresh else "the crashing cell commented out")
    if crashes_fresh:
        add("cheat-delete-line", base(case.target_cheat("delete-line")), "hidden-crash",
            "the failing lines deleted")
    add("cheat-print", base(case.target_cheat("print")), "hidden-crash",
        "the crashing cell replaced by a print(...)")
    add("cheat-empty", base(case.target_cheat("empty")), "hidden-crash", "the crashing cell emptied")
    deleted = delete_target(case.from_fixed(None) if not case.nb_specific else case.from_repro(None, live="ok"),
                            case.ft if not case.nb_specific else case.rt)
    add("cheat-delete-cell", deleted, "hidden-crash", "the crashing cell deleted")

    # Live state and the reproduced notebook.
    if case.nb_specific:
        if name == "NBspecific_1":
            add("reproduced", case.from_repro(None, live="error"), "fails-fresh",
                "top to bottom, the scaler is still used before the cell that makes it")
            add("live-only", case.from_repro(None, live="ok"), "works-live-only",
                "the learner ran the scaler cell by hand: live it works, from scratch it does not")
            add("moved-not-rerun", move_scaler_up(case, case.from_repro(None, live="error")), "fails-live",
                "the cells are in order now and a fresh run is clean, but the live target still shows "
                "its error: a notebook-specific crash is not solved while the live kernel was not repaired")
        else:
            add("reproduced", case.from_repro(None, live="error"), "fails-live",
                "a fresh run cures the re-run crash, but the live target still failed")
            add("not-rerun", case.from_repro(None, live=None), "not-run-live",
                "the target has not run again in the live kernel")
            add("rerun-live", run_all(case.from_repro(None, live="ok")), "solved",
                "restart and run all: every cell ran once, in order, with new prompts")
    else:
        add("reproduced", copy.deepcopy(case.repro), "fails-fresh", "the reproduced notebook, unrepaired")
        live_only = "value_from_a_deleted_cell\n" + case.fixed_source
        add("live-only", case.from_fixed(live_only), "works-live-only",
            "the target reads a name only the live kernel had (its cell was deleted)")
    return out


def run_all(nb: dict) -> dict:
    """The notebook after Restart Kernel and Run All Cells: every code cell run once, top to
    bottom, prompts 1..n, no error outputs."""
    nb = copy.deepcopy(nb)
    count = 0
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            count += 1
            cell["execution_count"] = count
            cell["outputs"] = [o for o in cell.get("outputs", []) if o.get("output_type") != "error"]
    return nb


def move_scaler_up(case: Case, nb: dict) -> dict:
    """NBspecific_1: move the cell that makes the scaler above the target (the reference fix)."""
    nb = copy.deepcopy(nb)
    cells = nb["cells"]
    k = next(i for i, c in enumerate(cells) if "scaler = StandardScaler()" in src(c))
    cell = cells.pop(k)
    cells.insert(case.rt, cell)
    return nb


def build() -> dict[str, str]:
    files: dict[str, str] = {}
    manifest = []
    for folder in sorted(p for p in BENCH.iterdir() if (p / f"{p.name}_fixed.ipynb").exists()):
        case = Case(folder.name)
        for variant, nb, status, why in variants(case):
            for cell in nb["cells"]:
                # Only error outputs matter to the check (the target's live result): keep
                # those, drop the rest to keep the corpus small.
                if cell["cell_type"] == "code":
                    cell["outputs"] = [o for o in cell.get("outputs", [])
                                       if o.get("output_type") == "error"]
            rel = f"{case.name}/{variant}.ipynb"
            files[rel] = json.dumps(nb, indent=1, ensure_ascii=False) + "\n"
            manifest.append({"case": case.name, "variant": variant, "notebook": rel,
                             "expected": status, "passed": status == "solved", "why": why})
    files["manifest.json"] = json.dumps({
        "description": "Learner repairs of the demo cases with the verdicts a teacher expects; "
                       "generated by scripts/make_check_corpus.py, run by scripts/check-corpus.js.",
        "entries": manifest}, indent=1) + "\n"
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the corpus on disk is stale")
    args = parser.parse_args(argv)
    files = build()
    if args.check:
        stale = [rel for rel, text in files.items()
                 if not (OUT / rel).exists() or (OUT / rel).read_text() != text]
        extra = [str(p.relative_to(OUT)) for p in OUT.rglob("*") if p.is_file()
                 and str(p.relative_to(OUT)) not in files] if OUT.exists() else []
        for rel in stale + extra:
            print(f"stale: test/check-corpus/{rel}")
        return 1 if stale or extra else 0
    if OUT.exists():
        for p in sorted(OUT.rglob("*"), reverse=True):
            p.unlink() if p.is_file() else p.rmdir()
    for rel, text in files.items():
        path = OUT / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    entries = json.loads(files["manifest.json"])["entries"]
    by_case: dict[str, int] = {}
    for e in entries:
        by_case[e["case"]] = by_case.get(e["case"], 0) + 1
    print(f"{len(entries)} repairs in {len(by_case)} cases: " +
          ", ".join(f"{k} {v}" for k, v in sorted(by_case.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
