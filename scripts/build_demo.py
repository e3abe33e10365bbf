#!/usr/bin/env python3
"""Build the demo casebook: a small JunoBench-style benchmark written by us.

    python scripts/build_demo.py                 # (re)writes demo/casebook/
    python scripts/build_demo.py --out /tmp/cb   # somewhere else
    python scripts/build_demo.py --cases numpy_1 pandas_1 --jobs 1
    python scripts/build_demo.py --out /tmp/cb --skip-fixed     # quicker: no fixed notebooks
    python scripts/build_demo.py --check-hash    # exit 0 when demo/ and this script are as last built
    python scripts/build_demo.py --write-hash    # record them (after a build, or a passing rebuild test)
    python scripts/build_demo.py --container-paths  # rewrite the recorded outputs' paths in place

A full build into demo/casebook records `demo/casebook/.build-hash`: a digest of this script and of
every file of the casebook. tests/test_demo_casebook.py rebuilds the casebook into a temporary
folder and compares it with demo/casebook only when that digest no longer matches (the script or
the casebook changed since), or when JUNOBENCH_REBUILD_DEMO=1.

Every case folder gets the layout of a real JunoBench case:

    benchmark/<case>/<case>.ipynb             the "original": reproduced sources, not executed
    benchmark/<case>/<case>_reproduced.ipynb  the recorded run that crashes
    benchmark/<case>/<case>_fixed.ipynb       the repaired notebook, run top to bottom
    benchmark/<case>/README.md                dataset, what the notebook does, how it crashes
    benchmark/<case>/data/*.csv               tiny synthetic inputs (fixed seeds)

plus `benchmark_desc.xlsx` (sheet `Sheet1`, one row per case) and `diagnoses.xlsx` (sheet
`Ground_truth`) at the casebook root, and a README.

Nothing is hand-written into the notebooks' outputs: each notebook is produced by executing its
cells in a fresh IPython kernel (jupyter_client, kernel cwd = the case folder) in the order the
case's story requires, and recording what the kernel sent back: outputs, `error` outputs with
ANSI-coloured tracebacks and the execution counts it assigned. A cell the story runs twice
(`# [reexecute]` on its first line, the JunoBench convention) shows its second count; cells the
story never ran keep `execution_count: null` and no outputs. The script checks every story: the
reproduced run must stop at the intended target cell with the intended exception, replaying the
notebook in recorded order (counts ascending, `[reexecute]` cells twice) must be exactly the
sequence that ran, and the fixed notebook must run top to bottom without an error.

Notebooks are nbformat 4.5 with cell ids derived from the case and cell names, the same cell keeping
its id in all three notebooks. Two cases are shaped like notebooks not written by this script:
`sklearn_2`'s fixed notebook has ids of its own (derived under another key, as when the repaired
notebook was saved separately in JupyterLab), and `numpy_2`'s notebooks are nbformat 4.4 without
any cell ids. `pandas_2`, `sklearn_2` and `numpy_2` crash in their last code cell.

Outputs are deterministic for a given environment (seeded data, no timestamps in notebook or cell
metadata, fixed dates and zip timestamps in the workbooks); tracebacks and images depend on the
installed Python/library versions.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import queue
import re
import shutil
import subprocess
import sys
import textwrap
import time
import uuid
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from collections.abc import Callable

import nbformat
import numpy as np
import pandas as pd
from jupyter_client.manager import KernelManager
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, output_from_msg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from container_paths import container_outputs  # scripts/ is no package: found through sys.path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "demo" / "casebook"
# The digest of this script and the casebook as last built (see source_hash).
HASH_FILE = ".build-hash"


def source_hash(casebook: Path = DEFAULT_OUT) -> str:
    """A digest of this script and of every file of the casebook (the hash file, caches and checkpoints aside)."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    digest.update((Path(__file__).parent / "container_paths.py").read_bytes())
    for path in sorted(casebook.rglob("*")):
        rel = path.relative_to(casebook)
        if not path.is_file() or path.name == HASH_FILE:
            continue
        if {"__pycache__", ".ipynb_checkpoints"} & set(rel.parts):
            continue
        digest.update(b"\0" + rel.as_posix().encode("utf-8") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def recorded_hash(casebook: Path = DEFAULT_OUT) -> str | None:
    """The digest recorded by the last full build, or None."""
    try:
        return (casebook / HASH_FILE).read_text("utf-8").strip() or None
    except OSError:
        return None

#: Namespace of the descriptor's `eid` column: eid = uuid5(EID_NAMESPACE, case name).
EID_NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "urn:jupyterlab-junobench:demo-casebook")

#: The descriptor's columns, exactly as in JunoBench's benchmark_desc.xlsx.
DESC_COLUMNS = [
    "nb_name", "eid", "ename", "evalue", "traceback", "label_root_cause", "label_refined_exp_type",
    "label_ML_pipeline", "label_if_ML_bug", "DatasetTitle_1", "DatasetTitle_2",
    "DatasetLicenseName_1", "DatasetLicenseName_2", "DatasetUrl_1", "DatasetUrl_2", "NotebookUrl",
]
#: The Ground_truth columns of JunoBench's diagnoses.xlsx (the sixth column has no header there
#: either; it holds reviewer notes such as "miss executing a cell").
GT_COLUMNS = ["library", "instance", "detection", "diagnosis", "runinfo_help", None]
#: Group order of the real Ground_truth sheet (tensorflow and torch come first there).
GT_LIBRARY_ORDER = ["tensorflow", "torch", "sklearn", "pandas", "numpy", "NBspecific", "other"]

DATA_LICENCE = "CC0: Public Domain"
KERNEL_NAME = "python3"
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": KERNEL_NAME}
CELL_TIMEOUT = 120  # seconds; every notebook is meant to run in well under 10 s
FIXED_DATE = datetime(2025, 1, 1, 0, 0, 0)


def src(text: str) -> str:
    """Dedent a triple-quoted cell source and drop the surrounding blank lines."""
    return textwrap.dedent(text).strip("\n")


# --------------------------------------------------------------------------------------------
# Case definitions
# --------------------------------------------------------------------------------------------


@dataclass
class Cell:
    key: str  # stable name; also seeds the nbformat cell id
    kind: str  # "code" or "markdown"
    source: str


def code(key: str, text: str) -> Cell:
    return Cell(key, "code", src(text))


def md(key: str, text: str) -> Cell:
    return Cell(key, "markdown", src(text))


@dataclass
class Case:
    name: str
    gt_library: str  # the `library` column of Ground_truth
    summary: str  # one line for the casebook README
    notebook_desc: str  # README: what the notebook does
    crash_desc: str  # README: how it crashes
    fix_desc: str  # README: what the fixed notebook changes
    dataset_title: str
    dataset_desc: str
    make_data: Callable[[], dict[str, pd.DataFrame]]
    cells: list[Cell]  # reproduced notebook, document order
    recorded_run: list[str]  # cell keys in the order the story executed them; stops at the crash
    target: str  # key of the crashing cell (the last entry of recorded_run)
    expected_ename: str  # exception class name the recorded run must raise at the target
    fixed_edits: dict[str, str]  # key -> new source in the fixed notebook
    fixed_order: list[str] | None  # document order of the fixed notebook (None: unchanged)
    root_cause: str
    exp_type: str
    pipeline: str
    if_ml_bug: str
    diagnosis: str
    runinfo_help: str  # "None" when run-time information would not help (as in JunoBench)
    gt_note: str | None = None  # sixth Ground_truth column
    extra_fixed_cells: list[Cell] = field(default_factory=list)
    # Cell ids of the fixed notebook come from `<case>/<fixed_id_salt>/<key>` instead of the
    # reproduced notebook's `<case>/<key>`: no id is shared, as when the two notebooks were saved
    # separately in JupyterLab.
    fixed_id_salt: str | None = None
    # False: every notebook of the case is nbformat 4.4 without cell ids (older notebooks).
    cell_ids: bool = True


# ---- data generators (fixed seeds, rounded values, tiny files) ------------------------------


def data_houses() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(101)
    n = 160
    area = rng.uniform(45, 220, n).round(0)
    rooms = np.clip(np.round(area / 32 + rng.normal(0, 0.8, n)), 1, 8).astype(int)
    age = rng.integers(0, 81, n)
    dist = rng.uniform(0.5, 25, n).round(1)
    price = 1.9 * area + 12 * rooms - 0.9 * age - 4.5 * dist + 60 + rng.normal(0, 25, n)
    return {"houses.csv": pd.DataFrame({
        "area_m2": area, "rooms": rooms, "age_years": age, "distance_km": dist,
        "price_k": price.round(1)})}


def data_customers() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(202)
    n = 200
    age = rng.integers(18, 75, n)
    tenure = rng.integers(1, 72, n)
    charges = rng.uniform(15, 120, n).round(2)
    calls = rng.poisson(1.5, n)
    logit = -1.0 - 0.05 * tenure + 0.025 * charges + 0.6 * calls - 0.01 * (age - 45)
    churned = (rng.uniform(0, 1, n) < 1 / (1 + np.exp(-logit))).astype(int)
    return {"customers.csv": pd.DataFrame({
        "customer_id": [f"C{i:04d}" for i in range(1, n + 1)], "age": age,
        "tenure_months": tenure, "monthly_charges": charges, "support_calls": calls,
        "churned": churned})}


def data_seeds() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(303)
    varieties = np.array(["Kama", "Rosa", "Canadian"])
    centres = np.array([[5.5, 3.2, 2.7, 5.1], [6.1, 3.6, 3.6, 6.0], [5.2, 2.9, 4.8, 5.0]])
    spread = np.array([0.25, 0.15, 0.9, 0.25])

    def draw(n: int, start_id: int) -> tuple[pd.DataFrame, np.ndarray]:
        cls = rng.integers(0, 3, n)
        x = centres[cls] + rng.normal(0, 1, (n, 4)) * spread
        frame = pd.DataFrame(x.round(3), columns=["length", "width", "asymmetry", "groove"])
        frame.insert(0, "sample_id", np.arange(start_id, start_id + n))
        return frame, varieties[cls]

    train, y = draw(120, 1)
    train["variety"] = y
    test, _ = draw(30, 1001)
    return {"train.csv": train, "test.csv": test}


def data_flowers() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(404)
    species = np.array(["setosa", "versicolor", "virginica"])
    centres = np.array([[5.0, 3.4, 1.5, 0.25], [5.9, 2.8, 4.3, 1.3], [6.6, 3.0, 5.5, 2.0]])
    spread = np.array([0.35, 0.33, 0.35, 0.2])
    cls = np.repeat([0, 1, 2], 50)
    x = np.abs(centres[cls] + rng.normal(0, 1, (150, 4)) * spread).round(1)
    frame = pd.DataFrame(x, columns=["sepal_length", "sepal_width", "petal_length", "petal_width"])
    frame["species"] = species[cls]
    return {"flowers.csv": frame.sample(frac=1, random_state=4).reset_index(drop=True)}


def data_sales() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(505)
    dates = pd.date_range("2024-01-01", periods=60, freq="D")
    rows = []
    for store, base in [("A", 40), ("B", 25), ("C", 60)]:
        level = base
        for d in dates:
            promo = int(rng.uniform() < 0.2)
            price = round(float(rng.choice([4.99, 5.49, 5.99])) - 0.5 * promo, 2)
            weekend = 1.3 if d.day_of_week >= 5 else 1.0
            level = 0.7 * level + 0.3 * base + rng.normal(0, 2)
            units = max(0, int(round(level * weekend * (1.4 if promo else 1.0) + rng.normal(0, 3))))
            rows.append((d.strftime("%Y-%m-%d"), store, units, price, promo))
    frame = pd.DataFrame(rows, columns=["date", "store", "units_sold", "unit_price", "promo"])
    return {"sales.csv": frame.sort_values(["date", "store"]).reset_index(drop=True)}


def data_patients() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(606)

    def draw(n: int, with_label: bool) -> pd.DataFrame:
        age = rng.integers(20, 80, n)
        height = rng.normal(1.72, 0.09, n).round(2)
        bmi = rng.normal(27, 4.5, n)
        weight = (bmi * height ** 2).round(1)
        bp = (110 + 0.45 * age + rng.normal(0, 12, n)).round(0).astype(int)
        smoker = (rng.uniform(0, 1, n) < 0.25).astype(int)
        frame = pd.DataFrame({"age": age, "weight_kg": weight, "height_m": height,
                              "systolic_bp": bp, "smoker": smoker})
        if with_label:
            logit = -9.0 + 0.22 * bmi + 0.04 * age + 0.5 * smoker
            frame["diabetic"] = (rng.uniform(0, 1, n) < 1 / (1 + np.exp(-logit))).astype(int)
        return frame

    return {"patients.csv": draw(220, True), "new_patients.csv": draw(12, False)}


def data_advertising() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(707)
    n = 200
    tv = rng.uniform(0, 300, n).round(1)
    radio = rng.uniform(0, 50, n).round(1)
    sales = (3.0 + 0.045 * tv + 0.19 * radio + rng.normal(0, 1.5, n)).round(2)
    return {"advertising.csv": pd.DataFrame({"tv": tv, "radio": radio, "sales": sales})}


def data_households() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(808)
    n = 240
    regions = np.array(["north", "south", "east", "west"])
    region = regions[rng.integers(0, 4, n)]
    base = {"north": 410.0, "south": 330.0, "east": 365.0, "west": 385.0}
    size = rng.integers(1, 6, n)
    heating = rng.choice(["gas", "electric", "heat pump"], n, p=[0.5, 0.3, 0.2])
    kwh = (np.array([base[r] for r in region]) + 55 * size + rng.normal(0, 40, n)
           + np.where(heating == "electric", 120, 0))
    kwh[rng.choice(n, 6, replace=False)] = 0  # failed meters read 0
    return {"households.csv": pd.DataFrame({
        "household_id": [f"H{i:04d}" for i in range(1, n + 1)], "region": region,
        "household_size": size, "heating": heating, "monthly_kwh": kwh.round(1)})}


def data_rentals() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(909)
    n = 300
    temp = rng.uniform(-2, 32, n).round(1)
    humidity = rng.uniform(25, 95, n).round(0)
    wind = rng.uniform(0, 40, n).round(1)
    workday = (rng.uniform(0, 1, n) < 5 / 7).astype(int)
    rentals = 150 + 12 * temp - 0.3 * humidity - 2.5 * wind + 60 * workday + rng.normal(0, 35, n)
    return {"rentals.csv": pd.DataFrame({
        "temp_c": temp, "humidity": humidity, "wind_kmh": wind, "workday": workday,
        "rentals": np.clip(rentals, 0, None).round(0).astype(int)})}


def data_grades() -> dict[str, pd.DataFrame]:
    rng = np.random.default_rng(1010)
    n = 60
    ability = rng.normal(0, 1, n)

    def marks(out_of: int, mean: float, sd: float) -> np.ndarray:
        share = mean + sd * ability + rng.normal(0, 0.07, n)
        return np.clip(np.round(share * out_of), 0, out_of).astype(int)

    return {"grades.csv": pd.DataFrame({
        "student_id": [f"S{i:03d}" for i in range(1, n + 1)],
        "homework": marks(100, 0.78, 0.08), "quizzes": marks(10, 0.70, 0.12),
        "midterm": marks(50, 0.66, 0.12), "project": marks(100, 0.80, 0.07),
        "final": marks(100, 0.63, 0.13)})}


# ---- the cases -------------------------------------------------------------------------------


def build_cases() -> list[Case]:
    cases: list[Case] = []

    # NBspecific_1: out-of-order execution; the cell that defines `scaler` sits below the cell
    # that uses it and never ran. A cell at the bottom ran before the crash (non-monotonic counts).
    cases.append(Case(
        name="NBspecific_1",
        gt_library="NBspecific",
        summary="out-of-order run: the scaling cell uses `scaler` before the cell defining it ran",
        notebook_desc=(
            "Ridge-regression baseline for house prices: loads `data/houses.csv`, splits it into "
            "train and test sets, standardises the features, fits `Ridge` and reports MAE/R²; an "
            "appendix cell at the bottom shows the correlations with the price."),
        crash_desc=(
            "The recorded run executed the imports, the loading cells and the appendix cell at the "
            "bottom of the notebook, then the split, then the scaling cell, which raises "
            "`NameError: name 'scaler' is not defined`: `scaler` (and `model`) are created in the "
            "cell under the \"Model\" heading, below the scaling cell, which never ran."),
        fix_desc=(
            "The cell that creates `scaler` and `model` is moved above the scaling cell (same cell "
            "id), so a top-to-bottom run defines them before use."),
        dataset_title="Synthetic house prices (generated)",
        dataset_desc="160 houses: area (m²), rooms, age (years), distance to the centre (km), price (k€).",
        make_data=data_houses,
        cells=[
            md("title", """
                # House prices: ridge regression baseline

                Predict the sale price (k€) of a house from its size, number of rooms, age and
                distance to the city centre.
                """),
            code("imports", """
                import numpy as np
                import pandas as pd
                from sklearn.model_selection import train_test_split
                from sklearn.preprocessing import StandardScaler
                from sklearn.linear_model import Ridge
                from sklearn.metrics import mean_absolute_error, r2_score
                """),
            code("load", """
                df = pd.read_csv('data/houses.csv')
                df.head()
                """),
            code("check", """
                print(df.shape)
                df.isna().sum()
                """),
            md("md_split", "## Train/test split and feature scaling"),
            code("split", """
                X = df.drop(columns=['price_k'])
                y = df['price_k']
                X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=42)
                print(X_train.shape, X_test.shape)
                """),
            code("scale", """
                X_train_s = scaler.fit_transform(X_train)
                X_test_s = scaler.transform(X_test)
                """),
            md("md_model", "## Model"),
            code("define", """
                # preprocessing and model objects
                scaler = StandardScaler()
                model = Ridge(alpha=1.0)
                """),
            code("fit", """
                model.fit(X_train_s, y_train)
                pred = model.predict(X_test_s)
                print(f'MAE: {mean_absolute_error(y_test, pred):.1f} k€')
                print(f'R2:  {r2_score(y_test, pred):.3f}')
                """),
            code("coef", """
                pd.Series(model.coef_, index=X.columns).sort_values().round(2)
                """),
            md("md_appendix", "## Appendix: correlation of each column with the price"),
            code("corr", """
                df.corr()['price_k'].sort_values(ascending=False).round(3)
                """),
        ],
        recorded_run=["imports", "load", "check", "corr", "split", "scale"],
        target="scale",
        expected_ename="NameError",
        fixed_edits={"define": src("""
            # fix------------ this cell must run before the scaling cell: it creates scaler (and model)
            # preprocessing and model objects
            scaler = StandardScaler()
            model = Ridge(alpha=1.0)
            """)},
        fixed_order=["title", "imports", "load", "check", "md_split", "split", "define", "scale",
                     "md_model", "fit", "coef", "md_appendix", "corr"],
        root_cause="NB specific",
        exp_type="variable not found",
        pipeline="data preparation",
        if_ml_bug="ML bug",
        diagnosis=(
            "scaler is not defined when X_train_s = scaler.fit_transform(X_train) runs, because the "
            "cell that creates scaler = StandardScaler() (and model = Ridge()) is placed below the "
            "scaling cell and was never executed before it."),
        runinfo_help="None",
        gt_note="miss executing a cell",
    ))

    # NBspecific_2: a `[reexecute]` cell that drops a column crashes on its own second run.
    cases.append(Case(
        name="NBspecific_2",
        gt_library="NBspecific",
        summary="re-executed cell: `df.drop(columns=['customer_id'])` run twice",
        notebook_desc=(
            "Churn baseline on `data/customers.csv`: drops the identifier column, splits the data "
            "and fits a logistic regression, then prints accuracy and a confusion matrix."),
        crash_desc=(
            "The cell `df = df.drop(columns=['customer_id'])` (marked `# [reexecute]`) was run twice "
            "in a row. The first run dropped the column; the second raises `KeyError: \"['customer_id'] "
            "not found in axis\"`. The notebook shows the second execution count and its error."),
        fix_desc="The drop cell runs once (the `[reexecute]` marker is replaced by a fix comment).",
        dataset_title="Synthetic telecom customers (generated)",
        dataset_desc="200 customers: id, age, tenure (months), monthly charges, support calls, churned (0/1).",
        make_data=data_customers,
        cells=[
            md("title", """
                # Customer churn: logistic regression baseline

                Which customers are about to leave? A first model on tenure, charges and support calls.
                """),
            code("imports", """
                import numpy as np
                import pandas as pd
                from sklearn.model_selection import train_test_split
                from sklearn.linear_model import LogisticRegression
                from sklearn.metrics import accuracy_score, confusion_matrix
                """),
            code("load", """
                df = pd.read_csv('data/customers.csv')
                print(df.shape)
                df.head()
                """),
            code("balance", """
                df['churned'].value_counts(normalize=True).round(3)
                """),
            code("drop", """
                # [reexecute]
                # customer_id is an identifier, not a feature
                df = df.drop(columns=['customer_id'])
                df.shape
                """),
            md("md_model", "## Model"),
            code("split", """
                X = df.drop(columns=['churned'])
                y = df['churned']
                X_train, X_test, y_train, y_test = train_test_split(
                    X, y, test_size=0.25, stratify=y, random_state=0)
                """),
            code("fit", """
                clf = LogisticRegression(max_iter=1000)
                clf.fit(X_train, y_train)
                pred = clf.predict(X_test)
                print('accuracy: %.3f' % accuracy_score(y_test, pred))
                """),
            code("cm", """
                pd.DataFrame(confusion_matrix(y_test, pred),
                             index=['stayed', 'churned'], columns=['pred stayed', 'pred churned'])
                """),
        ],
        recorded_run=["imports", "load", "balance", "drop", "drop"],
        target="drop",
        expected_ename="KeyError",
        fixed_edits={"drop": src("""
            # fix------------ run this cell once: on a second run customer_id is already gone
            # customer_id is an identifier, not a feature
            df = df.drop(columns=['customer_id'])
            df.shape
            """)},
        fixed_order=None,
        root_cause="NB specific",
        exp_type="key error",
        pipeline="data preparation",
        if_ml_bug="ML bug",
        diagnosis=(
            "Crash is because in df = df.drop(columns=['customer_id']), the column customer_id is "
            "already dropped from df by the previous execution of the same cell, resulting in a key "
            "error."),
        runinfo_help="runinfo should know the columns of df",
        gt_note="reexecuted a cell",
    ))

    # NBspecific_3: a `[reexecute]` cell that slices off the id column runs twice and silently
    # removes a real feature; the crash comes later, when predicting on the test array.
    cases.append(Case(
        name="NBspecific_3",
        gt_library="NBspecific",
        summary="re-executed cell: `X = X[:, 1:]` run twice, prediction fails later",
        notebook_desc=(
            "Wheat-seed variety classifier: turns `data/train.csv` and `data/test.csv` into NumPy "
            "arrays, drops the `sample_id` column, cross-validates and fits a logistic regression, "
            "then predicts the varieties of the unlabelled test kernels."),
        crash_desc=(
            "The cell `X = X[:, 1:]` (marked `# [reexecute]`) was run twice in a row: the second run "
            "removed the `length` feature as well as `sample_id`. Training still works on 3 "
            "features, but `model.predict(X_new)` on the 4-feature test array raises `ValueError: X "
            "has 4 features, but LogisticRegression is expecting 3 features as input.`"),
        fix_desc="The slicing cell runs once (the `[reexecute]` marker is replaced by a fix comment).",
        dataset_title="Synthetic wheat seed kernels (generated)",
        dataset_desc=("120 labelled kernels in `train.csv` (sample_id, four measurements, variety) "
                      "and 30 unlabelled ones in `test.csv`."),
        make_data=data_seeds,
        cells=[
            md("title", """
                # Wheat seed varieties: logistic regression

                Train on the labelled kernels in `train.csv`, then predict the variety of the
                unlabelled ones in `test.csv`.
                """),
            code("imports", """
                import numpy as np
                import pandas as pd
                from sklearn.linear_model import LogisticRegression
                from sklearn.model_selection import cross_val_score
                """),
            code("load", """
                train = pd.read_csv('data/train.csv')
                test = pd.read_csv('data/test.csv')
                print(train.shape, test.shape)
                train.head()
                """),
            code("arrays", """
                X = train.drop(columns=['variety']).to_numpy()
                y = train['variety'].to_numpy()
                X_new = test.drop(columns=['sample_id']).to_numpy()
                X.shape, X_new.shape
                """),
            code("slice", """
                # [reexecute]
                # the first column of X is sample_id: drop it
                X = X[:, 1:]
                X.shape
                """),
            md("md_model", "## Model"),
            code("fit", """
                model = LogisticRegression(max_iter=1000)
                scores = cross_val_score(model, X, y, cv=5)
                print('CV accuracy: %.3f' % scores.mean())
                model.fit(X, y);
                """),
            code("predict", """
                pred = model.predict(X_new)
                pd.Series(pred).value_counts()
                """),
            code("submission", """
                submission = pd.DataFrame({'sample_id': test['sample_id'], 'variety': pred})
                submission.head()
                """),
        ],
        recorded_run=["imports", "load", "arrays", "slice", "slice", "fit", "predict"],
        target="predict",
        expected_ename="ValueError",
        fixed_edits={"slice": src("""
            # fix------------ run this cell once: a second run also drops the first real feature
            # the first column of X is sample_id: drop it
            X = X[:, 1:]
            X.shape
            """)},
        fixed_order=None,
        root_cause="NB specific",
        exp_type="tensor shape mismatch",
        pipeline="evaluation/prediction",
        if_ml_bug="ML bug",
        diagnosis=(
            "Crash happens in model.predict(X_new) because X_new has 4 features while the model was "
            "fitted on 3. The cell X = X[:, 1:] was executed twice, so besides sample_id it also "
            "removed the first real feature (length) from X, while X_new kept all four features."),
        runinfo_help="runinfo should know the shapes of X and X_new",
        gt_note="reexecuted a cell",
    ))

    # numpy_1: per-row instead of per-column statistics; (150, 4) - (150,) does not broadcast.
    cases.append(Case(
        name="numpy_1",
        gt_library="numpy",
        summary="z-scoring with `axis=1` statistics: shapes (150,4) and (150,) do not broadcast",
        notebook_desc=(
            "Nearest-centroid classifier written with NumPy only: standardises the four flower "
            "measurements of `data/flowers.csv`, splits the rows, computes one centroid per species "
            "and classifies the test rows by Euclidean distance."),
        crash_desc=(
            "The standardisation cell computes the mean and standard deviation with `axis=1` (one "
            "value per row, shape (150,)) instead of `axis=0` (one per feature, shape (4,)); "
            "`data - mu` raises `ValueError: operands could not be broadcast together with shapes "
            "(150,4) (150,)`."),
        fix_desc="`axis=0` in the standardisation cell.",
        dataset_title="Synthetic flower measurements (generated)",
        dataset_desc="150 flowers: sepal/petal length and width (cm) and one of three species.",
        make_data=data_flowers,
        cells=[
            md("title", """
                # Nearest-centroid classifier from scratch

                Only NumPy: standardise the features, one centroid per class, predict the closest
                centroid.
                """),
            code("imports", """
                import numpy as np
                import pandas as pd
                """),
            code("load", """
                df = pd.read_csv('data/flowers.csv')
                features = ['sepal_length', 'sepal_width', 'petal_length', 'petal_width']
                data = df[features].to_numpy()
                labels = df['species'].to_numpy()
                print(data.shape, labels.shape)
                """),
            md("md_prep", "## Standardise the features"),
            code("standardise", """
                # z-score every feature
                mu = data.mean(axis=1)
                sigma = data.std(axis=1)
                Z = (data - mu) / sigma
                Z[:5].round(3)
                """),
            code("split", """
                rng = np.random.default_rng(0)
                idx = rng.permutation(len(Z))
                train_idx, test_idx = idx[:120], idx[120:]
                Z_train, Z_test = Z[train_idx], Z[test_idx]
                y_train, y_test = labels[train_idx], labels[test_idx]
                """),
            code("centroids", """
                classes = np.unique(y_train)
                centroids = np.stack([Z_train[y_train == c].mean(axis=0) for c in classes])
                centroids.round(2)
                """),
            code("predict", """
                dist = np.linalg.norm(Z_test[:, None, :] - centroids[None, :, :], axis=2)
                pred = classes[dist.argmin(axis=1)]
                print('test accuracy: %.3f' % (pred == y_test).mean())
                """),
        ],
        recorded_run=["imports", "load", "standardise"],
        target="standardise",
        expected_ename="ValueError",
        fixed_edits={"standardise": src("""
            # z-score every feature
            # fix------------ statistics per feature (axis=0), not per row (axis=1)
            mu = data.mean(axis=0)
            sigma = data.std(axis=0)
            Z = (data - mu) / sigma
            Z[:5].round(3)
            """)},
        fixed_order=None,
        root_cause="implementation error",
        exp_type="unsupported broadcast",
        pipeline="data preparation",
        if_ml_bug="ML bug",
        diagnosis=(
            "Crash happens in Z = (data - mu) / sigma because mu and sigma are computed with "
            "axis=1, giving one value per row with shape (150,), which cannot be broadcast against "
            "data of shape (150,4). The statistics should be computed per feature with axis=0."),
        runinfo_help="runinfo should know the shapes of data and mu",
    ))

    # numpy_2: a weight vector one entry short; `scores @ weights` fails in the last cell. The
    # notebooks are nbformat 4.4 without cell ids, like notebooks saved by older Jupyter versions.
    cases.append(Case(
        name="numpy_2",
        gt_library="numpy",
        summary=("weighted grade `scores @ weights` with 4 weights for 5 assessments (notebooks "
                 "without cell ids)"),
        notebook_desc=(
            "Course grades with NumPy: reads five assessment marks per student from "
            "`data/grades.csv`, puts them on a 0-100 scale and computes each student's weighted "
            "course grade in the last cell. The notebooks are nbformat 4.4 and have no cell ids."),
        crash_desc=(
            "The last cell lists the weights of homework, quizzes, midterm and final exam but "
            "forgets the project's: `weights` has 4 entries while `scores` has 5 columns, and "
            "`scores @ weights` raises `ValueError: matmul: Input operand 1 has a mismatch in its "
            "core dimension 0, ... (size 4 is different from 5)`."),
        fix_desc=(
            "The last cell's `weights` lists all five weights, the project's 0.15 included, so "
            "`course_grade` holds one weighted grade per student."),
        dataset_title="Synthetic course marks (generated)",
        dataset_desc=("60 students: id, homework (of 100), quizzes (of 10), midterm (of 50), "
                      "project (of 100), final exam (of 100)."),
        make_data=data_grades,
        cells=[
            md("title", """
                # Course grades: weighted average with NumPy

                Five assessments, each with its own weight in the course grade.
                """),
            code("imports", """
                import numpy as np
                import pandas as pd
                """),
            code("load", """
                df = pd.read_csv('data/grades.csv')
                assessments = ['homework', 'quizzes', 'midterm', 'project', 'final']
                scores = df[assessments].to_numpy(dtype=float)
                print(scores.shape)
                df.head()
                """),
            code("scale", """
                # quizzes are marked out of 10 and the midterm out of 50: put everything on 0-100
                max_points = np.array([100, 10, 50, 100, 100])
                scores = scores / max_points * 100
                scores.mean(axis=0).round(1)
                """),
            md("md_grade", "## Weighted course grade"),
            code("grade", """
                # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
                weights = np.array([0.20, 0.10, 0.25, 0.30])
                course_grade = (scores @ weights).round(1)
                course_grade[:10]
                """),
        ],
        recorded_run=["imports", "load", "scale", "grade"],
        target="grade",
        expected_ename="ValueError",
        fixed_edits={"grade": src("""
            # homework 20%, quizzes 10%, midterm 25%, project 15%, final exam 30%
            # fix------------ one weight per assessment: the project's 0.15 was missing
            weights = np.array([0.20, 0.10, 0.25, 0.15, 0.30])
            course_grade = (scores @ weights).round(1)
            course_grade[:10]
            """)},
        fixed_order=None,
        root_cause="implementation error",
        exp_type="tensor shape mismatch",
        pipeline="data preparation",
        if_ml_bug="python bug",
        diagnosis=(
            "Crash happens in course_grade = (scores @ weights).round(1) because weights has 4 "
            "entries while scores has 5 columns (homework, quizzes, midterm, project, final): the "
            "project weight 0.15 is missing, so the inner dimensions of the matrix product differ."),
        runinfo_help="runinfo should know the shapes of scores and weights",
        cell_ids=False,
    ))

    # pandas_1: a column-name slip inside groupby().
    cases.append(Case(
        name="pandas_1",
        gt_library="pandas",
        summary="lag features read column `units`, the column is `units_sold`",
        notebook_desc=(
            "Demand model for three stores from `data/sales.csv`: adds a revenue column, builds "
            "1-day and 7-day lag features of the units sold per store, and fits a linear regression "
            "evaluated on the last two weeks."),
        crash_desc=(
            "The lag-feature cell selects `sales.groupby('store')['units']`, but the column is "
            "called `units_sold`; pandas raises `KeyError: 'Column not found: units'`."),
        fix_desc="The lag-feature cell uses `units_sold`.",
        dataset_title="Synthetic daily store sales (generated)",
        dataset_desc="180 rows: date (60 days from 2024-01-01), store (A/B/C), units sold, unit price, promo flag.",
        make_data=data_sales,
        cells=[
            md("title", """
                # Daily store sales: lag features for a demand model
                """),
            code("imports", """
                import numpy as np
                import pandas as pd
                from sklearn.linear_model import LinearRegression
                """),
            code("load", """
                sales = pd.read_csv('data/sales.csv', parse_dates=['date'])
                sales.head()
                """),
            code("revenue", """
                sales['revenue'] = sales['units_sold'] * sales['unit_price']
                sales.groupby('store')['revenue'].sum().round(2)
                """),
            md("md_lags", "## Lag features"),
            code("lags", """
                sales = sales.sort_values(['store', 'date'])
                sales['units_lag1'] = sales.groupby('store')['units'].shift(1)
                sales['units_lag7'] = sales.groupby('store')['units'].shift(7)
                sales = sales.dropna()
                sales.shape
                """),
            code("model", """
                X = sales[['units_lag1', 'units_lag7', 'promo', 'unit_price']]
                y = sales['units_sold']
                early = sales['date'] < '2024-02-15'
                reg = LinearRegression().fit(X[early], y[early])
                print('R2 on the last two weeks: %.3f' % reg.score(X[~early], y[~early]))
                """),
            code("coef", """
                pd.Series(reg.coef_, index=X.columns).round(3)
                """),
        ],
        recorded_run=["imports", "load", "revenue", "lags"],
        target="lags",
        expected_ename="KeyError",
        fixed_edits={"lags": src("""
            sales = sales.sort_values(['store', 'date'])
            # fix------------ the column is units_sold, not units
            sales['units_lag1'] = sales.groupby('store')['units_sold'].shift(1)
            sales['units_lag7'] = sales.groupby('store')['units_sold'].shift(7)
            sales = sales.dropna()
            sales.shape
            """)},
        fixed_order=None,
        root_cause="data confusion",
        exp_type="key error",
        pipeline="data preparation",
        if_ml_bug="ML bug",
        diagnosis=(
            "Crash is due to sales.groupby('store')['units'] because sales does not have a column "
            "'units', the column holding the units is 'units_sold', causing a key error."),
        runinfo_help="runinfo knows column names",
    ))

    # pandas_2: a misspelt group key in the last cell of the notebook.
    cases.append(Case(
        name="pandas_2",
        gt_library="pandas",
        summary=("mean per region with `groupby('Region')`: the column is `region` (crash in the "
                 "last cell)"),
        notebook_desc=(
            "Household electricity use from `data/households.csv`: drops the months whose meter "
            "failed (0 kWh), compares heating types, and in the last cell computes the average "
            "monthly consumption per region."),
        crash_desc=(
            "The last cell groups by `'Region'`, but the column is called `region`; "
            "`homes.groupby('Region')` raises `KeyError: 'Region'`. Nothing runs after it."),
        fix_desc=(
            "The last cell groups by `region`, so `avg_by_region` holds the mean monthly kWh of "
            "each of the four regions."),
        dataset_title="Synthetic household electricity use (generated)",
        dataset_desc=("240 households: id, region (north/south/east/west), household size, heating "
                      "type, monthly consumption (kWh; 0 where the meter failed)."),
        make_data=data_households,
        cells=[
            md("title", """
                # Household electricity use by region

                How much electricity does a household use per month, and where?
                """),
            code("imports", """
                import pandas as pd
                """),
            code("load", """
                homes = pd.read_csv('data/households.csv')
                homes.head()
                """),
            code("clean", """
                # failed meters report 0 kWh: leave those households out
                print((homes['monthly_kwh'] == 0).sum(), 'failed meter readings')
                homes = homes[homes['monthly_kwh'] > 0]
                homes.shape
                """),
            code("heating", """
                homes.groupby('heating')['monthly_kwh'].median().round(1)
                """),
            md("md_region", "## Average use per region"),
            code("region", """
                avg_by_region = homes.groupby('Region')['monthly_kwh'].mean().round(1)
                avg_by_region.sort_values(ascending=False)
                """),
        ],
        recorded_run=["imports", "load", "clean", "heating", "region"],
        target="region",
        expected_ename="KeyError",
        fixed_edits={"region": src("""
            # fix------------ the column is region (lower case), not Region
            avg_by_region = homes.groupby('region')['monthly_kwh'].mean().round(1)
            avg_by_region.sort_values(ascending=False)
            """)},
        fixed_order=None,
        root_cause="data confusion",
        exp_type="key error",
        pipeline="data preparation",
        if_ml_bug="python bug",
        diagnosis=(
            "Crash is due to homes.groupby('Region') because homes has no column 'Region': the "
            "region column is spelt in lower case, 'region', so pandas raises a key error."),
        runinfo_help="runinfo knows column names",
    ))

    # sklearn_1: the engineered feature `bmi` is missing from the data passed to predict_proba.
    cases.append(Case(
        name="sklearn_1",
        gt_library="sklearn",
        summary="scoring new data without the engineered `bmi` column: feature names mismatch",
        notebook_desc=(
            "Diabetes-risk model on `data/patients.csv`: adds a body-mass-index feature, fits a "
            "random forest, then scores the unlabelled patients in `data/new_patients.csv`."),
        crash_desc=(
            "`bmi` was added to the training frame only. `clf.predict_proba(new_patients)` gets a "
            "frame without it and raises `ValueError: The feature names should match those that "
            "were passed during fit.` (feature seen at fit time, yet now missing: `bmi`)."),
        fix_desc="The scoring cell adds `bmi` to the new patients and selects the training columns.",
        dataset_title="Synthetic patient records (generated)",
        dataset_desc=("220 labelled patients in `patients.csv` (age, weight, height, systolic blood "
                      "pressure, smoker, diabetic) and 12 unlabelled ones in `new_patients.csv`."),
        make_data=data_patients,
        cells=[
            md("title", """
                # Diabetes risk: random forest on patient records
                """),
            code("imports", """
                import numpy as np
                import pandas as pd
                from sklearn.model_selection import train_test_split
                from sklearn.ensemble import RandomForestClassifier
                from sklearn.metrics import accuracy_score, roc_auc_score
                """),
            code("load", """
                df = pd.read_csv('data/patients.csv')
                df.head()
                """),
            code("bmi", """
                # body-mass index is a stronger signal than weight and height alone
                df['bmi'] = (df['weight_kg'] / df['height_m'] ** 2).round(1)
                df[['weight_kg', 'height_m', 'bmi']].describe().round(2)
                """),
            code("split", """
                X = df.drop(columns=['diabetic'])
                y = df['diabetic']
                X_train, X_test, y_train, y_test = train_test_split(
                    X, y, test_size=0.25, stratify=y, random_state=0)
                """),
            code("fit", """
                clf = RandomForestClassifier(n_estimators=100, max_depth=4, random_state=0)
                clf.fit(X_train, y_train)
                proba = clf.predict_proba(X_test)[:, 1]
                print('accuracy: %.3f' % accuracy_score(y_test, proba > 0.5))
                print('ROC AUC:  %.3f' % roc_auc_score(y_test, proba))
                """),
            md("md_new", "## Score the new patients"),
            code("score", """
                new_patients = pd.read_csv('data/new_patients.csv')
                new_patients['risk'] = clf.predict_proba(new_patients)[:, 1]
                new_patients.sort_values('risk', ascending=False).head()
                """),
        ],
        recorded_run=["imports", "load", "bmi", "split", "fit", "score"],
        target="score",
        expected_ename="ValueError",
        fixed_edits={"score": src("""
            new_patients = pd.read_csv('data/new_patients.csv')
            # fix------------ same feature engineering as for the training data, same column order
            new_patients['bmi'] = (new_patients['weight_kg'] / new_patients['height_m'] ** 2).round(1)
            new_patients['risk'] = clf.predict_proba(new_patients[X.columns])[:, 1]
            new_patients.sort_values('risk', ascending=False).head()
            """)},
        fixed_order=None,
        root_cause="implementation error",
        exp_type="feature name mismatch",
        pipeline="evaluation/prediction",
        if_ml_bug="ML bug",
        diagnosis=(
            "Crash happens when clf.predict_proba(new_patients) because the feature names of "
            "new_patients do not match those passed during fit: the engineered column 'bmi' was "
            "only added to the training dataframe df, not to new_patients."),
        runinfo_help="runinfo knows the columns of new_patients and the feature names seen by clf",
    ))

    # sklearn_2: a column dropped from the training features only; the prediction in the last
    # cell fails. The fixed notebook was saved apart from the reproduced one: no cell id in common.
    cases.append(Case(
        name="sklearn_2",
        gt_library="sklearn",
        summary=("`humidity` dropped from `X_train` only: `model.predict(X_test)` in the last cell "
                 "fails (fixed notebook with its own cell ids)"),
        notebook_desc=(
            "Daily bike rentals from `data/rentals.csv`: splits the data, leaves the weakly "
            "correlated `humidity` out of the training features, fits a scaled ridge regression and "
            "in the last cell predicts the test days. The fixed notebook was saved separately, so "
            "its cell ids differ from the reproduced notebook's."),
        crash_desc=(
            "`humidity` was dropped from `X_train` after the split but not from `X_test`; in the "
            "last cell `y_pred = model.predict(X_test)` raises `ValueError: The feature names "
            "should match those that were passed during fit.` (feature unseen at fit time: "
            "`humidity`)."),
        fix_desc=(
            "The last cell predicts on the training columns, `model.predict(X_test[X_train.columns])`, "
            "so `y_pred` holds one prediction per test day."),
        dataset_title="Synthetic daily bike rentals (generated)",
        dataset_desc="300 days: temperature (°C), humidity (%), wind (km/h), workday (0/1), rentals.",
        make_data=data_rentals,
        cells=[
            md("title", """
                # Daily bike rentals: ridge regression

                Predict the number of rentals of a day from the weather and the day type.
                """),
            code("imports", """
                import pandas as pd
                from sklearn.model_selection import train_test_split
                from sklearn.pipeline import make_pipeline
                from sklearn.preprocessing import StandardScaler
                from sklearn.linear_model import Ridge
                from sklearn.metrics import mean_absolute_error
                """),
            code("load", """
                df = pd.read_csv('data/rentals.csv')
                df.describe().round(1)
                """),
            code("split", """
                X = df.drop(columns=['rentals'])
                y = df['rentals']
                X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=1)
                X_train.corrwith(y_train).round(3)
                """),
            code("select", """
                # humidity hardly correlates with the rentals: leave it out of the model
                X_train = X_train.drop(columns=['humidity'])
                X_train.columns.tolist()
                """),
            code("fit", """
                model = make_pipeline(StandardScaler(), Ridge(alpha=1.0))
                model.fit(X_train, y_train)
                print('train R2: %.3f' % model.score(X_train, y_train))
                """),
            md("md_test", "## Test days"),
            code("predict", """
                y_pred = model.predict(X_test)
                print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
                """),
        ],
        recorded_run=["imports", "load", "split", "select", "fit", "predict"],
        target="predict",
        expected_ename="ValueError",
        fixed_edits={"predict": src("""
            # fix------------ the model was fitted without humidity: predict on the training columns
            y_pred = model.predict(X_test[X_train.columns])
            print('test MAE: %.1f rentals per day' % mean_absolute_error(y_test, y_pred))
            """)},
        fixed_order=None,
        root_cause="implementation error",
        exp_type="feature name mismatch",
        pipeline="evaluation/prediction",
        if_ml_bug="ML bug",
        diagnosis=(
            "Crash happens in y_pred = model.predict(X_test) because X_test still has the column "
            "'humidity', which was dropped from X_train only, after the split; the model was "
            "fitted without it, so the feature names do not match those seen during fit."),
        runinfo_help="runinfo knows the columns of X_train and X_test",
        fixed_id_salt="fixed",
    ))

    # matplotlib_1: an invalid linestyle name.
    cases.append(Case(
        name="matplotlib_1",
        gt_library="other",
        summary="`plt.plot(..., linestyle='dotted-dash')`: not a matplotlib line style",
        notebook_desc=(
            "Linear regression of sales on TV and radio budgets (`data/advertising.csv`) trained "
            "with hand-written gradient descent; plots the train/validation learning curve and "
            "compares learning rates."),
        crash_desc=(
            "The learning-curve cell passes `linestyle='dotted-dash'`, which is not a valid "
            "matplotlib line style (`'dashdot'`/`'-.'` is), and raises `ValueError`; the half-drawn "
            "figure is still displayed under the error."),
        fix_desc="`linestyle='dashdot'` in the learning-curve cell.",
        dataset_title="Synthetic advertising budgets and sales (generated)",
        dataset_desc="200 markets: TV budget, radio budget (k$) and sales (k units).",
        make_data=data_advertising,
        cells=[
            md("title", """
                # Advertising budgets vs sales: linear regression by gradient descent
                """),
            code("imports", """
                %matplotlib inline
                import numpy as np
                import pandas as pd
                import matplotlib.pyplot as plt
                """),
            code("load", """
                df = pd.read_csv('data/advertising.csv')
                df.describe().round(2)
                """),
            code("prep", """
                X = df[['tv', 'radio']].to_numpy()
                X = (X - X.mean(axis=0)) / X.std(axis=0)
                X = np.hstack([np.ones((len(X), 1)), X])
                y = df['sales'].to_numpy()
                X_train, X_val = X[:160], X[160:]
                y_train, y_val = y[:160], y[160:]
                """),
            code("train", """
                def train(lr, epochs=60):
                    w = np.zeros(X.shape[1])
                    train_loss, val_loss = [], []
                    for _ in range(epochs):
                        grad = 2 * X_train.T @ (X_train @ w - y_train) / len(y_train)
                        w -= lr * grad
                        train_loss.append(np.mean((X_train @ w - y_train) ** 2))
                        val_loss.append(np.mean((X_val @ w - y_val) ** 2))
                    return w, train_loss, val_loss

                w, train_loss, val_loss = train(lr=0.05)
                print('weights:', w.round(3))
                print('final validation MSE: %.3f' % val_loss[-1])
                """),
            md("md_curve", "## Learning curve"),
            code("curve", """
                epochs = np.arange(1, len(train_loss) + 1)
                plt.figure(figsize=(7, 4))
                plt.plot(epochs, train_loss, label='train')
                plt.plot(epochs, val_loss, linestyle='dotted-dash', label='validation')
                plt.xlabel('epoch')
                plt.ylabel('MSE')
                plt.yscale('log')
                plt.legend()
                plt.show()
                """),
            code("rates", """
                plt.figure(figsize=(7, 4))
                for lr in [0.01, 0.05, 0.2]:
                    _, _, vl = train(lr)
                    plt.plot(vl, label=f'lr={lr}')
                plt.yscale('log')
                plt.title('validation MSE by learning rate')
                plt.legend()
                plt.show()
                """),
        ],
        recorded_run=["imports", "load", "prep", "train", "curve"],
        target="curve",
        expected_ename="ValueError",
        fixed_edits={"curve": src("""
            epochs = np.arange(1, len(train_loss) + 1)
            plt.figure(figsize=(7, 4))
            plt.plot(epochs, train_loss, label='train')
            # fix------------ 'dotted-dash' is not a line style; dash-dot is 'dashdot' (or '-.')
            plt.plot(epochs, val_loss, linestyle='dashdot', label='validation')
            plt.xlabel('epoch')
            plt.ylabel('MSE')
            plt.yscale('log')
            plt.legend()
            plt.show()
            """)},
        fixed_order=None,
        root_cause="API misuse",
        exp_type="invalid argument",
        pipeline="data visualization",
        if_ml_bug="ML bug",
        diagnosis=(
            "Crash is in plt.plot(epochs, val_loss, linestyle='dotted-dash', label='validation') "
            "because 'dotted-dash' is not a valid matplotlib linestyle; the dash-dot style is "
            "called 'dashdot' or '-.'."),
        runinfo_help="None",
    ))

    return cases


# --------------------------------------------------------------------------------------------
# Kernel execution
# --------------------------------------------------------------------------------------------


def kernel_env() -> dict[str, str]:
    env = dict(os.environ)
    env["MPLBACKEND"] = "Agg"  # headless; notebooks that plot switch to `%matplotlib inline`
    env["PYTHONHASHSEED"] = "0"
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    env.pop("PYTHONSTARTUP", None)
    return env


class Kernel:
    """A fresh python3 kernel in a given working directory; `run` executes one cell."""

    def __init__(self, cwd: Path):
        self.km = KernelManager(kernel_name=KERNEL_NAME)
        self.km.start_kernel(cwd=str(cwd), env=kernel_env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.kc = self.km.blocking_client()
        self.kc.start_channels()
        try:
            self.kc.wait_for_ready(timeout=90)
            reply = self.kc.kernel_info(reply=True, timeout=30)
            self.language_info = reply["content"]["language_info"]
        except BaseException:
            self.close()
            raise

    def run(self, source: str) -> tuple[int | None, list, dict]:
        """Execute a cell; return (execution_count, nbformat outputs, reply content)."""
        msg_id = self.kc.execute(source, store_history=True, allow_stdin=False, stop_on_error=True)
        outputs: list = []
        deadline = time.monotonic() + CELL_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"cell did not finish in {CELL_TIMEOUT}s:\n{source}")
            try:
                msg = self.kc.get_iopub_msg(timeout=remaining)
            except queue.Empty:
                continue
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            content = msg["content"]
            if kind == "status" and content["execution_state"] == "idle":
                break
            if kind == "clear_output":
                outputs.clear()
            elif kind in ("stream", "display_data", "execute_result", "error"):
                out = output_from_msg(msg)
                if (kind == "stream" and outputs and outputs[-1]["output_type"] == "stream"
                        and outputs[-1]["name"] == out["name"]):
                    outputs[-1]["text"] += out["text"]  # the notebook UI merges adjacent streams
                else:
                    outputs.append(out)
        while True:
            reply = self.kc.get_shell_msg(timeout=CELL_TIMEOUT)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        content = reply["content"]
        # The building machine's paths in tracebacks and warnings, as the benchmark container's.
        return content.get("execution_count"), container_outputs(outputs), content

    def close(self) -> None:
        try:
            self.kc.stop_channels()
        finally:
            self.km.shutdown_kernel(now=True)


# --------------------------------------------------------------------------------------------
# Notebook construction
# --------------------------------------------------------------------------------------------


def cell_id(case: str, key: str, salt: str | None = None) -> str:
    name = f"{case}/{key}" if salt is None else f"{case}/{salt}/{key}"
    return hashlib.sha1(name.encode()).hexdigest()[:8]


def make_notebook(case: Case, cells: list[Cell], state: dict[str, tuple[int | None, list]],
                  language_info: dict | None, id_salt: str | None = None) -> nbformat.NotebookNode:
    """An nbformat 4.5 notebook with ids from `cell_id`, or 4.4 without ids (`case.cell_ids`)."""
    nb = new_notebook()
    nb.nbformat, nb.nbformat_minor = 4, (5 if case.cell_ids else 4)
    nb.metadata = {"kernelspec": dict(KERNELSPEC)}
    nb.metadata["language_info"] = language_info or {"name": "python"}
    for c in cells:
        if c.kind == "markdown":
            cell = new_markdown_cell(c.source, id=cell_id(case.name, c.key, id_salt))
        else:
            count, outputs = state.get(c.key, (None, []))
            cell = new_code_cell(c.source, id=cell_id(case.name, c.key, id_salt),
                                 execution_count=count, outputs=outputs)
        cell.metadata = {}
        if not case.cell_ids:
            del cell["id"]  # nbformat 4.4 has no cell ids (its schema refuses the key)
        nb.cells.append(cell)
    nbformat.validate(nb)
    return nb


def has_marker(source: str) -> bool:
    return "[reexecute]" in source.split("\n", 1)[0].lower()


def recorded_order(nb: nbformat.NotebookNode) -> list[int]:
    """Code-cell positions in recorded order: counts ascending (ties by position), markers twice."""
    code_cells = [(c.execution_count, i) for i, c in enumerate(nb.cells)
                  if c.cell_type == "code" and c.execution_count is not None]
    order: list[int] = []
    for _, i in sorted(code_cells):
        order.extend([i, i] if has_marker(nb.cells[i].source) else [i])
    return order


def first_error(nb: nbformat.NotebookNode) -> tuple[int, dict] | None:
    for i, c in enumerate(nb.cells):
        if c.cell_type == "code":
            for out in c.outputs:
                if out.output_type == "error":
                    return i, out
    return None


def record_reproduced(case: Case, case_dir: Path) -> tuple[nbformat.NotebookNode, float]:
    by_key = {c.key: c for c in case.cells}
    assert case.recorded_run[-1] == case.target, f"{case.name}: the run must end at the target"
    state: dict[str, tuple[int | None, list]] = {}
    started = time.monotonic()
    kernel = Kernel(case_dir)
    try:
        crashed = None
        for step, key in enumerate(case.recorded_run):
            count, outputs, reply = kernel.run(by_key[key].source)
            state[key] = (count, outputs)  # a re-run overwrites the first run's count and outputs
            if reply["status"] == "error":
                crashed = (step, key, reply["ename"])
                break
        language_info = kernel.language_info
    finally:
        kernel.close()
    elapsed = time.monotonic() - started
    if crashed is None:
        raise RuntimeError(f"{case.name}: the recorded run did not crash")
    step, key, ename = crashed
    if step != len(case.recorded_run) - 1 or key != case.target or ename != case.expected_ename:
        raise RuntimeError(f"{case.name}: crashed at step {step} ({key}) with {ename}; expected "
                           f"the last step ({case.target}) with {case.expected_ename}")
    nb = make_notebook(case, case.cells, state, language_info)

    # Self-check: the recorded order read back from the notebook is exactly what ran, and the
    # first error output is the target's.
    key_at = {i: c.key for i, c in enumerate(case.cells)}
    replay = [key_at[i] for i in recorded_order(nb)]
    if replay != case.recorded_run:
        raise RuntimeError(f"{case.name}: recorded order {replay} != executed {case.recorded_run}")
    found = first_error(nb)
    if found is None or key_at[found[0]] != case.target:
        raise RuntimeError(f"{case.name}: the first error output is not in the target cell")
    return nb, elapsed


def fixed_cells(case: Case) -> list[Cell]:
    by_key = {c.key: c for c in case.cells + case.extra_fixed_cells}
    order = case.fixed_order or [c.key for c in case.cells]
    cells = []
    for key in order:
        c = by_key[key]
        cells.append(Cell(c.key, c.kind, case.fixed_edits.get(key, c.source)))
    for c in cells:
        if has_marker(c.source):
            raise RuntimeError(f"{case.name}: fixed cell {c.key} still carries [reexecute]")
    return cells


def record_fixed(case: Case, case_dir: Path) -> tuple[nbformat.NotebookNode, float]:
    cells = fixed_cells(case)
    state: dict[str, tuple[int | None, list]] = {}
    started = time.monotonic()
    kernel = Kernel(case_dir)
    try:
        for c in cells:
            if c.kind != "code":
                continue
            count, outputs, reply = kernel.run(c.source)
            state[c.key] = (count, outputs)
            if reply["status"] != "ok":
                raise RuntimeError(f"{case.name}: fixed cell {c.key} failed: "
                                   f"{reply.get('ename')}: {reply.get('evalue')}")
        language_info = kernel.language_info
    finally:
        kernel.close()
    nb = make_notebook(case, cells, state, language_info, id_salt=case.fixed_id_salt)
    return nb, time.monotonic() - started


def check_cell_ids(case: Case, repro: nbformat.NotebookNode, fixed: nbformat.NotebookNode) -> None:
    """The fixed notebook shares the reproduced cells' ids, shares none, or neither has ids."""
    ids = [{c.get("id") for c in nb.cells} for nb in (repro, fixed)]
    if not case.cell_ids:
        if ids != [{None}, {None}]:
            raise RuntimeError(f"{case.name}: a notebook without cell ids has an id")
    elif case.fixed_id_salt is not None:
        if ids[0] & ids[1]:
            raise RuntimeError(f"{case.name}: the fixed notebook shares cell ids {ids[0] & ids[1]}")
    elif not ids[0] <= ids[1]:
        raise RuntimeError(f"{case.name}: the fixed notebook lost cell ids {ids[0] - ids[1]}")


def original_notebook(case: Case, language_info: dict) -> nbformat.NotebookNode:
    return make_notebook(case, case.cells, {}, language_info)


# --------------------------------------------------------------------------------------------
# READMEs and workbooks
# --------------------------------------------------------------------------------------------


def case_readme(case: Case, files: list[str], ename: str, evalue: str) -> str:
    first_line = evalue.strip().splitlines()[0] if evalue.strip() else ""
    file_list = ", ".join(f"`data/{f}`" for f in files)
    return f"""# Dataset Information

## Synthetic dataset

This case belongs to the demo casebook of jupyterlab-junobench. The notebook and the data were
written for the demo (they are not taken from JunoBench or Kaggle): the data are random numbers
generated with a fixed seed by `scripts/build_demo.py`.

#### Dataset: {case.dataset_title}

**Source:**  
- **Title:** {case.dataset_title}  
- **Files:** {file_list}  
- **Content:** {case.dataset_desc}  

**License:**  
- **License Type:** {DATA_LICENCE}  

## Notebook

{case.notebook_desc}

## Crash

{case.crash_desc}

Recorded exception: `{ename}: {first_line}`

Labels: root cause *{case.root_cause}*, crash type *{case.exp_type}*, pipeline stage
*{case.pipeline}*.

## Fix

{case.fix_desc}
"""


def casebook_readme(results: list[dict]) -> str:
    rows = "\n".join(
        f"| `{r['case'].name}` | {r['case'].summary} | `{r['ename']}` | {r['case'].root_cause} "
        f"| {r['case'].exp_type} | {r['case'].pipeline} |" for r in results)
    return f"""# Demo casebook

A small casebook in the layout of [JunoBench](https://github.com/PELAB-LiU/JunoBench_construct),
written by the jupyterlab-junobench authors for demos, tutorials and tests. **None of it comes from
JunoBench or Kaggle**: the notebooks, the synthetic data, the labels and the diagnoses are ours.
Case names follow JunoBench's `<library>_<n>` / `NBspecific_<n>` convention, so they overlap with
real JunoBench case names without being the same cases.

Licence: the synthetic data are dedicated to the public domain (CC0 1.0); the notebooks, READMEs
and workbooks are under the project's BSD-3-Clause licence.

## Layout

- `benchmark_desc.xlsx`: sheet `Sheet1`, one row per case with the JunoBench columns: `nb_name`;
  `eid` = `uuid5(uuid5(NAMESPACE_URL, "urn:jupyterlab-junobench:demo-casebook"), nb_name)`;
  lower-case `ename`; `evalue`; `traceback` = Python list literal (`repr`) of the recorded
  traceback lines with their ANSI colour codes, written as `\\x1b` escapes (JunoBench's own
  descriptor holds tracebacks without colour codes, so readers should strip ANSI either way);
  labels; dataset credits. Dataset and notebook URLs are empty: there is nothing online to
  point to.
- `diagnoses.xlsx`: sheet `Ground_truth` (`library`, `instance`, `detection`, `diagnosis`,
  `runinfo_help` and an unnamed note column, as in JunoBench's ground truth), one
  `<case>_reproduced` row (detection `True`, a written diagnosis) and one `<case>_fixed` row
  (detection `False`, no diagnosis) per case.
- `benchmark/<case>/`: `<case>.ipynb` (the notebook as written, not executed),
  `<case>_reproduced.ipynb` (the recorded run ending in the crash), `<case>_fixed.ipynb` (the
  repaired notebook, run top to bottom), `README.md`, `data/`.
- Notebooks are nbformat 4.5 and a cell keeps its id across the three notebooks of a case, with
  two exceptions shaped like notebooks from elsewhere: `sklearn_2_fixed.ipynb` has cell ids of
  its own (saved separately from the reproduced notebook), and the `numpy_2` notebooks are
  nbformat 4.4 without cell ids.

All notebooks are produced by `python scripts/build_demo.py`, which executes the cells in a real
IPython kernel in the order each story requires and records the real outputs and execution counts.
A code cell whose first line is `# [reexecute]` was run twice in a row in the recorded run (the
JunoBench convention); cells that never ran have no execution count. Replaying a reproduced
notebook in recorded order (execution counts ascending, `[reexecute]` cells twice) crashes at its
first cell with an `error` output, with the exception in the descriptor. Every notebook runs in a
few seconds with numpy, pandas, scikit-learn and matplotlib.

## Cases

| case | story | exception | root cause | crash type | pipeline stage |
|---|---|---|---|---|---|
{rows}
"""


def style_header(ws, centred_columns: set[int] | None, bordered: bool) -> None:
    from openpyxl.styles import Alignment, Border, Font, Side

    thin = Side(style="thin")
    for idx, cell in enumerate(ws[1], start=1):
        cell.font = Font(bold=True)
        if centred_columns is None or idx in centred_columns:
            cell.alignment = Alignment(horizontal="center", vertical="top")
        if bordered:
            cell.border = Border(left=thin, right=thin, top=thin, bottom=thin)


def save_workbook(wb, path: Path) -> None:
    """Save with fixed document dates and zip timestamps so that rebuilds are byte-identical."""
    wb.properties.creator = "jupyterlab-junobench scripts/build_demo.py"
    wb.properties.lastModifiedBy = None
    wb.properties.created = FIXED_DATE
    wb.properties.modified = FIXED_DATE
    buf = io.BytesIO()
    wb.save(buf)
    buf.seek(0)
    with zipfile.ZipFile(buf) as src_zip, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src_zip.infolist():
            data = src_zip.read(info.filename)
            if info.filename == "docProps/core.xml":
                # openpyxl stamps the save time into dcterms:modified: pin it
                text = data.decode("utf-8")
                stamp = FIXED_DATE.strftime("%Y-%m-%dT%H:%M:%SZ")
                text = re.sub(r"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)",
                              rf"\g<1>{stamp}\g<2>", text)
                data = text.encode("utf-8")
            fixed = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, data)


def write_descriptor(results: list[dict], path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Sheet1"
    ws.append(DESC_COLUMNS)
    for r in results:
        case: Case = r["case"]
        row = {
            "nb_name": case.name,
            "eid": str(uuid.uuid5(EID_NAMESPACE, case.name)),
            "ename": r["ename"].lower(),
            "evalue": r["evalue"],
            # repr() of the list: a Python list literal; ANSI escapes appear as \x1b, which also
            # keeps the cell free of control characters that xlsx cannot hold.
            "traceback": repr(list(r["traceback"])),
            "label_root_cause": case.root_cause,
            "label_refined_exp_type": case.exp_type,
            "label_ML_pipeline": case.pipeline,
            "label_if_ML_bug": case.if_ml_bug,
            "DatasetTitle_1": case.dataset_title if r["data_files"] else None,
            "DatasetTitle_2": None,
            "DatasetLicenseName_1": DATA_LICENCE if r["data_files"] else None,
            "DatasetLicenseName_2": None,
            "DatasetUrl_1": None,
            "DatasetUrl_2": None,
            "NotebookUrl": None,
        }
        ws.append([row[c] for c in DESC_COLUMNS])
    style_header(ws, None, bordered=True)
    save_workbook(wb, path)


def write_diagnoses(results: list[dict], path: Path) -> None:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Ground_truth"
    ws.append(GT_COLUMNS)
    cases: list[Case] = [r["case"] for r in results]
    groups = sorted({c.gt_library for c in cases},
                    key=lambda g: GT_LIBRARY_ORDER.index(g) if g in GT_LIBRARY_ORDER else 99)
    for group in groups:
        members = [c for c in cases if c.gt_library == group]
        for c in members:
            ws.append([group, f"{c.name}_fixed", False, None, "None", None])
        for c in members:
            ws.append([group, f"{c.name}_reproduced", True, c.diagnosis, c.runinfo_help, c.gt_note])
    style_header(ws, {1, 2}, bordered=False)
    for letter, width in zip("ABCDE", [10.57, 30.43, 9.0, 93.71, 48.43], strict=True):
        ws.column_dimensions[letter].width = width
    ws.freeze_panes = "A2"
    save_workbook(wb, path)


# --------------------------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------------------------


def write_nb(nb: nbformat.NotebookNode, path: Path) -> None:
    nbformat.validate(nb)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        nbformat.write(nb, fh)


def build_case(case: Case, bench: Path, log, skip_fixed: bool = False) -> dict:
    case_dir = bench / case.name
    if case_dir.exists():
        shutil.rmtree(case_dir)
    (case_dir / "data").mkdir(parents=True)
    frames = case.make_data()
    for fname, frame in frames.items():
        frame.to_csv(case_dir / "data" / fname, index=False, lineterminator="\n")

    repro, t_repro = record_reproduced(case, case_dir)
    fixed, t_fixed = (None, 0.0) if skip_fixed else record_fixed(case, case_dir)
    leftovers = sorted(p.name for p in case_dir.iterdir())
    if leftovers != ["data"]:
        raise RuntimeError(f"{case.name}: the notebooks wrote files into the case folder: {leftovers}")

    if fixed is not None:
        check_cell_ids(case, repro, fixed)
    write_nb(original_notebook(case, repro.metadata["language_info"]), case_dir / f"{case.name}.ipynb")
    write_nb(repro, case_dir / f"{case.name}_reproduced.ipynb")
    if fixed is not None:
        write_nb(fixed, case_dir / f"{case.name}_fixed.ipynb")

    _, err = first_error(repro)
    (case_dir / "README.md").write_text(
        case_readme(case, sorted(frames), err.ename, err.evalue), encoding="utf-8")
    for t, label in [(t_repro, "reproduced"), (t_fixed, "fixed")]:
        if t > 10:  # a loaded machine can exceed this; the notebooks themselves are quick
            log(f"warning: {case.name}_{label} took {t:.1f}s (meant to stay under 10s)")
    log(f"{case.name}: {err.ename}: {err.evalue.strip().splitlines()[0]}  "
        f"(reproduced {t_repro:.1f}s, fixed {t_fixed:.1f}s)")
    return {"case": case, "ename": err.ename, "evalue": err.evalue,
            "traceback": list(err.traceback), "data_files": sorted(frames)}


def load_result(case: Case, case_dir: Path) -> dict:
    """The descriptor facts of a case built earlier, read from its reproduced notebook."""
    nb = nbformat.read(case_dir / f"{case.name}_reproduced.ipynb", as_version=4)
    found = first_error(nb)
    if found is None:
        raise RuntimeError(f"{case.name}: the existing reproduced notebook has no error output")
    _, err = found
    files = sorted(p.name for p in (case_dir / "data").glob("*")) if (case_dir / "data").is_dir() else []
    return {"case": case, "ename": err.ename, "evalue": err.evalue,
            "traceback": list(err.traceback), "data_files": files}


def rewrite_paths(out: Path) -> int:
    """Rewrite the paths of the outputs recorded in the casebook `out` as a build now records them
    (`container_outputs`), then its workbooks and README from the rewritten notebooks."""
    results = []
    for case in build_cases():
        case_dir = out / "benchmark" / case.name
        for kind in ("reproduced", "fixed"):
            path = case_dir / f"{case.name}_{kind}.ipynb"
            if path.is_file():
                nb = nbformat.read(path, as_version=nbformat.NO_CONVERT)
                for cell in nb.cells:
                    if cell.cell_type == "code":
                        container_outputs(cell.outputs)
                write_nb(nb, path)
        if (case_dir / f"{case.name}_reproduced.ipynb").is_file():
            results.append(load_result(case, case_dir))
    write_descriptor(results, out / "benchmark_desc.xlsx")
    write_diagnoses(results, out / "diagnoses.xlsx")
    (out / "README.md").write_text(casebook_readme(results), encoding="utf-8")
    if out == DEFAULT_OUT.resolve():
        (out / HASH_FILE).write_text(source_hash(out) + "\n", encoding="utf-8")
    print(f"rewrote the recorded paths of {len(results)} case(s) in {out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help="casebook folder to (re)write (default: demo/casebook)")
    parser.add_argument("--jobs", type=int, default=2, help="cases built in parallel (default 2)")
    parser.add_argument("--cases", nargs="*",
                        help="rebuild only these case folders (the workbooks still list every case "
                             "found in the casebook)")
    parser.add_argument("--skip-fixed", action="store_true",
                        help="do not execute or write the fixed notebooks (a quicker structural check)")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--check-hash", action="store_true",
                        help="only say whether demo/casebook and this script are as last built (exit 1 if not)")
    parser.add_argument("--write-hash", action="store_true",
                        help="only record the digest of demo/casebook and this script")
    parser.add_argument("--container-paths", action="store_true",
                        help="only rewrite the paths in the recorded outputs of --out as the benchmark "
                             "container's (scripts/container_paths.py), as a build writes them")
    args = parser.parse_args(argv)
    if args.container_paths:
        return rewrite_paths(args.out.resolve())
    if args.check_hash:
        current, recorded = source_hash(), recorded_hash()
        same = current == recorded
        print(f"demo casebook {'unchanged since' if same else 'changed since (or never)'} its last build "
              f"({current[:12]} against {(recorded or 'none')[:12]})")
        return 0 if same else 1
    if args.write_hash:
        (DEFAULT_OUT / HASH_FILE).write_text(source_hash() + "\n", encoding="utf-8")
        print(f"recorded {DEFAULT_OUT / HASH_FILE}")
        return 0

    def log(msg: str) -> None:
        if not args.quiet:
            print(msg, flush=True)

    cases = build_cases()
    names = [c.name for c in cases]
    assert len(set(names)) == len(names)
    if args.cases:
        unknown = sorted(set(args.cases) - set(names))
        if unknown:
            parser.error(f"unknown case(s): {', '.join(unknown)}")
        cases = [c for c in cases if c.name in args.cases]

    out: Path = args.out.resolve()
    bench = out / "benchmark"
    if bench.exists() and not args.cases:
        shutil.rmtree(bench)  # drop folders of cases that no longer exist
    bench.mkdir(parents=True, exist_ok=True)

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        built = list(pool.map(lambda c: build_case(c, bench, log, args.skip_fixed), cases))

    # The workbooks and README list every case present in the casebook: with --cases, the cases
    # not rebuilt this time are read back from their existing reproduced notebooks.
    by_name = {r["case"].name: r for r in built}
    results = []
    for case in build_cases():
        if case.name in by_name:
            results.append(by_name[case.name])
        elif (bench / case.name / f"{case.name}_reproduced.ipynb").is_file():
            results.append(load_result(case, bench / case.name))

    write_descriptor(results, out / "benchmark_desc.xlsx")
    write_diagnoses(results, out / "diagnoses.xlsx")
    (out / "README.md").write_text(casebook_readme(results), encoding="utf-8")
    if out == DEFAULT_OUT.resolve() and not args.cases and not args.skip_fixed:
        (out / HASH_FILE).write_text(source_hash(out) + "\n", encoding="utf-8")
    log(f"built {len(built)} case(s), casebook {out} lists {len(results)}, "
        f"in {time.monotonic() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
