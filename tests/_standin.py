"""Stand-in input data for the real JunoBench cases whose data could not be obtained.

The real case folders in ``../shared/junobench`` (third-party, never copied into
this repository) hold sklearn_3 with its input CSVs, and sklearn_5, sklearn_6 and
sklearn_7 without them. This module builds, in a folder of the caller's choice
(a temporary folder at test time), a casebook laid out like JunoBench:

    OUTDIR/benchmark_desc.xlsx, OUTDIR/diagnoses.xlsx          copied at run time
    OUTDIR/cells/{reproduced,fixed}/<case>.json                copied when present
    OUTDIR/benchmark/<case>/*.ipynb, README.md                 copied at run time
    OUTDIR/benchmark/<case>/data/...                           sklearn_3: copied;
                                                               the others: generated here

The generated files are synthetic and deterministic (seeded numpy generators):
same file names, columns, dtypes, value ranges, categorical levels and
missing-value pattern as far as the notebooks depend on them, inferred from the
notebooks' code, their saved outputs and READMEs. No value is taken from the
original data sets. Sizes are a few hundred rows so a notebook runs in seconds.

It also holds the small runner the verification and tests/test_standin.py use:
``run_recorded`` executes a notebook's code cells in their recorded order (by
execution count; a cell whose first line has ``[reexecute]`` runs twice) in a
fresh kernel with the case folder as working directory, and stops at the first
error.

Command line::

    python tests/_standin.py OUTDIR [--cases sklearn_6,sklearn_7] [--source DIR]
                             [--verify] [--jobs 2] [--kernel python3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

#: Where the real material lives when the repository sits beside shared/.
DEFAULT_SOURCE = Path(__file__).resolve().parents[2] / "shared" / "junobench"

#: Every case this module knows; sklearn_3 has real data and is copied.
CASES: tuple[str, ...] = ("sklearn_3", "sklearn_5", "sklearn_6", "sklearn_7")

#: Libraries a case's recorded cells import besides numpy/pandas/scikit-learn/matplotlib.
CASE_REQUIRES: dict[str, tuple[str, ...]] = {
    "sklearn_3": ("tensorflow", "catboost"),
    "sklearn_5": ("seaborn",),
    "sklearn_6": ("seaborn",),
    "sklearn_7": (),
}

SEED = 20240601


# --------------------------------------------------------------------------- sklearn_5


def write_iris(case_dir: Path, seed: int = SEED) -> list[Path]:
    """``data/iris.csv``: 150 flowers, 50 per species, in species blocks.

    The notebook drops ``species`` and fits a LogisticRegression on the four
    measurements; the crash needs all three species in the test split and in the
    predictions (a 3x3 confusion matrix against two display labels). Species are
    in blocks in sorted order, as in the public file, so the order of first
    appearance equals the sorted order some repairs rely on.
    """
    rng = np.random.default_rng(seed)
    # per species: mean and spread of sepal length/width, petal length/width (cm)
    spec = {
        "setosa": ([5.0, 3.4, 1.5, 0.25], [0.35, 0.38, 0.17, 0.10]),
        "versicolor": ([5.9, 2.8, 4.3, 1.33], [0.50, 0.31, 0.47, 0.20]),
        "virginica": ([6.6, 3.0, 5.55, 2.03], [0.63, 0.32, 0.55, 0.27]),
    }
    rows = []
    for species, (mean, sd) in spec.items():
        values = rng.normal(mean, sd, size=(50, 4))
        values = np.clip(values, [4.3, 2.0, 1.0, 0.1], [7.9, 4.4, 6.9, 2.5]).round(1)
        for v in values:
            rows.append([*v, species])
    df = pd.DataFrame(rows, columns=["sepal_length", "sepal_width", "petal_length", "petal_width", "species"])
    out = case_dir / "data" / "iris.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False)
    return [out]


# --------------------------------------------------------------------------- sklearn_6

# The House Prices (Ames) columns in file order: (name, kind, levels or range).
# kind: "cat" (string levels, weights roughly as in the data description), "int", "float".
_HP_COLUMNS: list[tuple[str, str, Any]] = [
    ("Id", "id", None),
    ("MSSubClass", "int", [20, 30, 40, 45, 50, 60, 70, 75, 80, 85, 90, 120, 160, 180, 190]),
    ("MSZoning", "cat", {"RL": 77, "RM": 15, "FV": 4, "RH": 1, "C (all)": 3}),
    ("LotFrontage", "float", (21, 313)),
    ("LotArea", "int", (1300, 215245)),
    ("Street", "cat", {"Pave": 99, "Grvl": 1}),
    ("Alley", "cat", {"Grvl": 55, "Pave": 45}),
    ("LotShape", "cat", {"Reg": 63, "IR1": 33, "IR2": 3, "IR3": 1}),
    ("LandContour", "cat", {"Lvl": 90, "Bnk": 4, "HLS": 3, "Low": 3}),
    ("Utilities", "cat", {"AllPub": 100}),
    ("LotConfig", "cat", {"Inside": 72, "Corner": 18, "CulDSac": 6, "FR2": 3, "FR3": 1}),
    ("LandSlope", "cat", {"Gtl": 95, "Mod": 4, "Sev": 1}),
    (
        "Neighborhood",
        "cat",
        {
            n: 4
            for n in (
                "Blmngtn Blueste BrDale BrkSide ClearCr CollgCr Crawfor Edwards Gilbert IDOTRR MeadowV Mitchel "
                "NAmes NoRidge NPkVill NridgHt NWAmes OldTown SWISU Sawyer SawyerW Somerst StoneBr Timber Veenker"
            ).split()
        },
    ),
    ("Condition1", "cat", {"Norm": 86, "Feedr": 6, "Artery": 3, "RRAn": 2, "PosN": 1, "RRAe": 1, "PosA": 1}),
    ("Condition2", "cat", {"Norm": 99, "Feedr": 1}),
    ("BldgType", "cat", {"1Fam": 84, "TwnhsE": 8, "Duplex": 4, "Twnhs": 2, "2fmCon": 2}),
    ("HouseStyle", "cat", {"1Story": 50, "2Story": 30, "1.5Fin": 10, "SLvl": 5, "SFoyer": 3, "1.5Unf": 1, "2.5Unf": 1}),
    ("OverallQual", "int", (1, 10)),
    ("OverallCond", "int", (1, 9)),
    ("YearBuilt", "int", (1872, 2010)),
    ("YearRemodAdd", "int", (1950, 2010)),
    ("RoofStyle", "cat", {"Gable": 78, "Hip": 20, "Flat": 1, "Gambrel": 1}),
    ("RoofMatl", "cat", {"CompShg": 98, "Tar&Grv": 1, "WdShngl": 1}),
    (
        "Exterior1st",
        "cat",
        {
            "VinylSd": 35,
            "HdBoard": 15,
            "MetalSd": 15,
            "Wd Sdng": 14,
            "Plywood": 7,
            "CemntBd": 4,
            "BrkFace": 4,
            "WdShing": 2,
            "Stucco": 2,
            "AsbShng": 2,
        },
    ),
    (
        "Exterior2nd",
        "cat",
        {
            "VinylSd": 35,
            "MetalSd": 15,
            "HdBoard": 14,
            "Wd Sdng": 13,
            "Plywood": 9,
            "CmentBd": 4,
            "Wd Shng": 3,
            "Stucco": 2,
            "BrkFace": 2,
            "AsbShng": 2,
            "ImStucc": 1,
        },
    ),
    ("MasVnrType", "cat", {"BrkFace": 70, "Stone": 25, "BrkCmn": 5}),
    ("MasVnrArea", "float", (0, 1600)),
    ("ExterQual", "cat", {"TA": 62, "Gd": 33, "Ex": 4, "Fa": 1}),
    ("ExterCond", "cat", {"TA": 88, "Gd": 10, "Fa": 2}),
    ("Foundation", "cat", {"PConc": 44, "CBlock": 43, "BrkTil": 10, "Slab": 2, "Stone": 1}),
    ("BsmtQual", "cat", {"TA": 45, "Gd": 43, "Ex": 9, "Fa": 3}),
    ("BsmtCond", "cat", {"TA": 92, "Gd": 4, "Fa": 3, "Po": 1}),
    ("BsmtExposure", "cat", {"No": 67, "Av": 15, "Gd": 10, "Mn": 8}),
    ("BsmtFinType1", "cat", {"Unf": 30, "GLQ": 29, "ALQ": 15, "BLQ": 10, "Rec": 9, "LwQ": 7}),
    ("BsmtFinSF1", "int", (0, 2300)),
    ("BsmtFinType2", "cat", {"Unf": 88, "Rec": 4, "LwQ": 3, "BLQ": 2, "ALQ": 2, "GLQ": 1}),
    ("BsmtFinSF2", "int", (0, 1100)),
    ("BsmtUnfSF", "int", (0, 2300)),
    ("TotalBsmtSF", "int", (0, 3200)),
    ("Heating", "cat", {"GasA": 98, "GasW": 1, "Grav": 1}),
    ("HeatingQC", "cat", {"Ex": 51, "TA": 29, "Gd": 17, "Fa": 3}),
    ("CentralAir", "cat", {"Y": 93, "N": 7}),
    ("Electrical", "cat", {"SBrkr": 91, "FuseA": 6, "FuseF": 2, "FuseP": 1}),
    ("1stFlrSF", "int", (334, 4692)),
    ("2ndFlrSF", "int", (0, 2065)),
    ("LowQualFinSF", "int", (0, 572)),
    ("GrLivArea", "int", (334, 5642)),
    ("BsmtFullBath", "int", (0, 2)),
    ("BsmtHalfBath", "int", (0, 1)),
    ("FullBath", "int", (0, 3)),
    ("HalfBath", "int", (0, 2)),
    ("BedroomAbvGr", "int", (0, 6)),
    ("KitchenAbvGr", "int", (1, 2)),
    ("KitchenQual", "cat", {"TA": 50, "Gd": 40, "Ex": 7, "Fa": 3}),
    ("TotRmsAbvGrd", "int", (2, 14)),
    ("Functional", "cat", {"Typ": 91, "Min2": 2, "Min1": 2, "Mod": 1, "Maj1": 3, "Maj2": 1}),
    ("Fireplaces", "int", (0, 3)),
    ("FireplaceQu", "cat", {"Gd": 50, "TA": 40, "Fa": 5, "Ex": 3, "Po": 2}),
    ("GarageType", "cat", {"Attchd": 63, "Detchd": 28, "BuiltIn": 6, "Basment": 2, "CarPort": 1}),
    ("GarageYrBlt", "float", (1900, 2010)),
    ("GarageFinish", "cat", {"Unf": 44, "RFn": 31, "Fin": 25}),
    ("GarageCars", "int", (0, 4)),
    ("GarageArea", "int", (0, 1418)),
    ("GarageQual", "cat", {"TA": 95, "Fa": 4, "Gd": 1}),
    ("GarageCond", "cat", {"TA": 96, "Fa": 3, "Gd": 1}),
    ("PavedDrive", "cat", {"Y": 92, "N": 6, "P": 2}),
    ("WoodDeckSF", "int", (0, 857)),
    ("OpenPorchSF", "int", (0, 547)),
    ("EnclosedPorch", "int", (0, 552)),
    ("3SsnPorch", "int", (0, 508)),
    ("ScreenPorch", "int", (0, 480)),
    ("PoolArea", "int", (0, 738)),
    ("PoolQC", "cat", {"Gd": 40, "Ex": 30, "Fa": 30}),
    ("Fence", "cat", {"MnPrv": 55, "GdPrv": 20, "GdWo": 20, "MnWw": 5}),
    ("MiscFeature", "cat", {"Shed": 90, "Gar2": 4, "Othr": 4, "TenC": 2}),
    ("MiscVal", "int", (0, 15500)),
    ("MoSold", "int", (1, 12)),
    ("YrSold", "int", (2006, 2010)),
    ("SaleType", "cat", {"WD": 87, "New": 8, "COD": 3, "ConLD": 1, "Oth": 1}),
    ("SaleCondition", "cat", {"Normal": 82, "Partial": 9, "Abnorml": 7, "Family": 1, "Alloca": 1}),
    ("SalePrice", "int", (34900, 755000)),
]

# Missing values per column, scaled from the counts the notebooks printed (about 1/5 of
# 1460 training and 1459 test rows), keeping what the notebooks decide on: more than one
# missing value drops the column, exactly one keeps it.
_HP_TRAIN_ROWS, _HP_TEST_ROWS = 292, 292
_HP_TRAIN_NULLS = {
    "LotFrontage": 52,
    "Alley": 274,
    "MasVnrType": 174,
    "MasVnrArea": 2,
    "BsmtQual": 7,
    "BsmtCond": 7,
    "BsmtExposure": 8,
    "BsmtFinType1": 7,
    "BsmtFinType2": 8,
    "Electrical": 1,
    "FireplaceQu": 138,
    "GarageType": 16,
    "GarageYrBlt": 16,
    "GarageFinish": 16,
    "GarageQual": 16,
    "GarageCond": 16,
    "PoolQC": 290,
    "Fence": 236,
    "MiscFeature": 281,
}
_HP_TEST_NULLS = {
    "MSZoning": 4,
    "LotFrontage": 45,
    "Alley": 270,
    "Utilities": 2,
    "Exterior1st": 1,
    "Exterior2nd": 1,
    "MasVnrType": 179,
    "MasVnrArea": 3,
    "BsmtQual": 9,
    "BsmtCond": 9,
    "BsmtExposure": 9,
    "BsmtFinType1": 8,
    "BsmtFinSF1": 1,
    "BsmtFinType2": 8,
    "BsmtFinSF2": 1,
    "BsmtUnfSF": 1,
    "TotalBsmtSF": 1,
    "BsmtFullBath": 2,
    "BsmtHalfBath": 2,
    "KitchenQual": 1,
    "Functional": 2,
    "FireplaceQu": 146,
    "GarageType": 15,
    "GarageYrBlt": 16,
    "GarageFinish": 16,
    "GarageCars": 1,
    "GarageArea": 1,
    "GarageQual": 16,
    "GarageCond": 16,
    "PoolQC": 290,
    "Fence": 234,
    "MiscFeature": 282,
    "SaleType": 1,
}
# Price effects of the columns that go missing in the test file only, so that a repair which
# invents their values (a constant for every house) visibly shifts the predictions.
_HP_ZONING_EFFECT = {"RL": 0, "RM": -25000, "FV": 20000, "RH": -15000, "C (all)": -60000}
_HP_FUNCTIONAL_EFFECT = {"Typ": 0, "Min1": -8000, "Min2": -8000, "Mod": -15000, "Maj1": -35000, "Maj2": -35000}

# Columns that go missing together (no basement, no garage): one shared set of rows, each
# column taking as many of them as its count says.
_HP_GROUPS = (
    ("BsmtQual", "BsmtCond", "BsmtFinType1", "BsmtExposure", "BsmtFinType2"),
    ("GarageType", "GarageYrBlt", "GarageFinish", "GarageQual", "GarageCond"),
)


def _house_frame(rng: np.random.Generator, n: int, first_id: int, nulls: dict[str, int], with_price: bool) -> pd.DataFrame:
    data: dict[str, Any] = {}
    for name, kind, spec in _HP_COLUMNS:
        if name == "SalePrice":
            continue
        if kind == "id":
            data[name] = np.arange(first_id, first_id + n)
        elif kind == "cat":
            levels = list(spec)
            weights = np.array([spec[k] for k in levels], dtype=float)
            data[name] = rng.choice(levels, size=n, p=weights / weights.sum())
        elif isinstance(spec, list):
            data[name] = rng.choice(spec, size=n)
        else:
            lo, hi = spec
            data[name] = rng.integers(lo, hi + 1, size=n)
    df = pd.DataFrame(data)
    # a few plausible dependencies, so the regression has something to learn
    q = df["OverallQual"] = np.clip(np.round(rng.normal(6.1, 1.4, n)), 1, 10).astype(int)
    df["LotArea"] = np.clip(rng.lognormal(9.1, 0.45, n), 1300, 215245).astype(int)
    df["LotFrontage"] = np.clip(rng.normal(70, 22, n), 21, 313).round()
    df["YearBuilt"] = np.clip(np.round(1920 + 9 * q + rng.normal(0, 18, n)), 1872, 2010).astype(int)
    df["YearRemodAdd"] = np.maximum(df["YearBuilt"], rng.integers(1950, 2011, n))
    df["GarageYrBlt"] = df["YearBuilt"].astype(float)
    df["1stFlrSF"] = np.clip(rng.normal(1160, 380, n), 334, 4692).astype(int)
    two = rng.random(n) < 0.43
    df["2ndFlrSF"] = np.where(two, np.clip(rng.normal(800, 250, n), 110, 2065), 0).astype(int)
    df["LowQualFinSF"] = np.where(rng.random(n) < 0.02, rng.integers(50, 573, n), 0)
    df["GrLivArea"] = df["1stFlrSF"] + df["2ndFlrSF"] + df["LowQualFinSF"]
    df["TotalBsmtSF"] = np.clip(df["1stFlrSF"] + rng.normal(-100, 200, n), 0, 3200).astype(int)
    fin1 = (df["TotalBsmtSF"] * rng.uniform(0, 0.9, n)).astype(int)
    fin2 = np.where(rng.random(n) < 0.11, (df["TotalBsmtSF"] - fin1) * rng.uniform(0, 0.5, n), 0).astype(int)
    df["BsmtFinSF1"], df["BsmtFinSF2"] = fin1, fin2
    df["BsmtUnfSF"] = df["TotalBsmtSF"] - fin1 - fin2
    df["FullBath"] = np.clip(1 + (df["GrLivArea"] > 1500) + (rng.random(n) < 0.1), 0, 3)
    df["TotRmsAbvGrd"] = np.clip(np.round(df["GrLivArea"] / 250 + rng.normal(0, 1, n)), 2, 14).astype(int)
    df["BedroomAbvGr"] = np.clip(df["TotRmsAbvGrd"] // 2, 0, 6)
    df["KitchenAbvGr"] = np.where(rng.random(n) < 0.05, 2, 1)
    df["BsmtFullBath"] = (rng.random(n) < 0.42).astype(int)
    df["BsmtHalfBath"] = (rng.random(n) < 0.06).astype(int)
    df["HalfBath"] = (rng.random(n) < 0.37).astype(int)
    df["GarageCars"] = np.clip(np.round(0.4 * q - 0.2 + rng.normal(0, 0.5, n)), 0, 4).astype(int)
    df["GarageArea"] = np.clip(df["GarageCars"] * 240 + rng.normal(0, 60, n), 0, 1418).astype(int)
    df["Fireplaces"] = rng.choice([0, 1, 2, 3], size=n, p=[0.47, 0.45, 0.075, 0.005])
    for porch, share, top in (
        ("WoodDeckSF", 0.48, 857),
        ("OpenPorchSF", 0.55, 547),
        ("EnclosedPorch", 0.14, 552),
        ("3SsnPorch", 0.02, 508),
        ("ScreenPorch", 0.08, 480),
    ):
        df[porch] = np.where(rng.random(n) < share, rng.integers(20, top + 1, n), 0)
    df["PoolArea"] = 0
    df["MiscVal"] = 0
    df["MasVnrArea"] = np.where(rng.random(n) < 0.4, rng.integers(10, 1600, n), 0).astype(float)
    df["OverallCond"] = np.clip(np.round(rng.normal(5.6, 1.1, n)), 1, 9).astype(int)
    if with_price:
        price = (
            -110000
            + 21000 * q
            + 52 * df["GrLivArea"]
            + 28 * df["TotalBsmtSF"]
            + 11000 * df["GarageCars"]
            + 380 * (df["YearBuilt"] - 1900)
            + 1.2 * np.sqrt(df["LotArea"]) * 40
            + 9000 * df["BsmtFullBath"]
            + df["MSZoning"].map(_HP_ZONING_EFFECT).to_numpy()
            + df["Functional"].map(_HP_FUNCTIONAL_EFFECT).to_numpy()
            + rng.normal(0, 18000, n)
        )
        df["SalePrice"] = np.clip(price, 34900, 755000).astype(int)

    # missing values, structured where the data description implies it
    taken: dict[str, np.ndarray] = {}
    for group in _HP_GROUPS:
        size = max(nulls.get(c, 0) for c in group)
        rows = rng.choice(n, size=size, replace=False)
        for c in group:
            taken[c] = rows[: nulls.get(c, 0)]
    garage_rows = taken["GarageType"]
    df.loc[garage_rows, ["GarageCars", "GarageArea"]] = 0
    bsmt_rows = taken["BsmtQual"]
    df.loc[bsmt_rows, ["BsmtFinSF1", "BsmtFinSF2", "BsmtUnfSF", "TotalBsmtSF", "BsmtFullBath", "BsmtHalfBath"]] = 0
    for c, count in nulls.items():
        if c in taken:
            continue
        if c == "FireplaceQu":
            # no fireplace, no quality: make the fireplace-less rows exactly the missing ones
            rows = rng.choice(n, size=count, replace=False)
            df["Fireplaces"] = np.where(np.isin(np.arange(n), rows), 0, np.maximum(df["Fireplaces"], 1))
        elif c == "PoolQC":
            rows = rng.choice(n, size=count, replace=False)
            df.loc[~np.isin(np.arange(n), rows), "PoolArea"] = rng.integers(400, 739)
        elif c == "MiscFeature":
            rows = rng.choice(n, size=count, replace=False)
            df.loc[~np.isin(np.arange(n), rows), "MiscVal"] = rng.integers(300, 2000, n - count)
        elif c == "MasVnrType":
            rows = rng.choice(n, size=count, replace=False)
            df.loc[rows, "MasVnrArea"] = 0.0
        else:
            rows = rng.choice(n, size=count, replace=False)
        taken[c] = rows
    if "MasVnrArea" in nulls and "MasVnrType" in taken:
        # masonry area missing only where the type is missing too
        taken["MasVnrArea"] = taken["MasVnrType"][: nulls["MasVnrArea"]]
    for c, rows in taken.items():
        if len(rows):
            if pd.api.types.is_numeric_dtype(df[c]):
                df[c] = df[c].astype(float)
            df.loc[rows, c] = np.nan
    return df[[c for c, _, _ in _HP_COLUMNS if c in df.columns]]


def write_house_prices(case_dir: Path, seed: int = SEED) -> list[Path]:
    """``data/train.csv`` (with SalePrice) and ``data/test.csv`` (without), Ames columns.

    What the recorded cells need: the 81/80 columns in file order (58 features after
    the notebook's drops, as its Keras cell expects), string columns for the
    LabelEncoder, and the missing-value pattern that makes the training loop drop 17
    columns and the test loop 22, so that MSZoning, Utilities, BsmtFullBath,
    BsmtHalfBath and Functional (two to four missing values in test only) are missing
    at prediction time: the recorded crash.
    """
    rng = np.random.default_rng(seed + 6)
    train = _house_frame(rng, _HP_TRAIN_ROWS, 1, _HP_TRAIN_NULLS, with_price=True)
    test = _house_frame(rng, _HP_TEST_ROWS, 1461, _HP_TEST_NULLS, with_price=False)
    out = case_dir / "data"
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "train.csv", out / "test.csv"]
    train.to_csv(paths[0], index=False)
    test.to_csv(paths[1], index=False)
    return paths


# --------------------------------------------------------------------------- sklearn_7

_PROFESSIONS = {
    "Artist": 612,
    "Healthcare": 339,
    "Entertainment": 234,
    "Engineer": 179,
    "Doctor": 161,
    "Executive": 153,
    "Lawyer": 142,
    "Marketing": 85,
    "Homemaker": 60,
}


def write_customers(case_dir: Path, seed: int = SEED, rows: int = 400) -> list[Path]:
    """``data/Customers.csv``: the shop customers (8 columns, a few missing professions).

    The crash cell drops only the target, so the string column Gender reaches the
    RandomForestRegressor; the first training row after the notebook's split
    (test_size=0.2, random_state=42) is made a 'Male' so the message names the same
    value as the recorded one.
    """
    rng = np.random.default_rng(seed + 7)
    gender = rng.choice(["Female", "Male"], size=rows, p=[0.593, 0.407])
    levels = list(_PROFESSIONS)
    weights = np.array([_PROFESSIONS[k] for k in levels], dtype=float)
    profession = rng.choice(levels, size=rows, p=weights / weights.sum()).astype(object)
    profession[rng.choice(rows, size=max(2, round(rows * 35 / 2000)), replace=False)] = np.nan
    df = pd.DataFrame(
        {
            "CustomerID": np.arange(1, rows + 1),
            "Gender": gender,
            "Age": rng.integers(0, 100, rows),
            "Annual Income ($)": rng.integers(0, 189975, rows),
            "Spending Score (1-100)": rng.integers(0, 101, rows),
            "Profession": profession,
            "Work Experience": np.clip(np.round(rng.exponential(4, rows)), 0, 17).astype(int),
            "Family Size": rng.integers(1, 10, rows),
        }
    )
    try:  # the row the recorded message names comes first in the training split
        from sklearn.model_selection import train_test_split

        first_train = train_test_split(np.arange(rows), test_size=0.2, random_state=42)[0][0]
        df.loc[first_train, "Gender"] = "Male"
    except ImportError:  # pragma: no cover - scikit-learn is always there in practice
        pass
    out = case_dir / "data" / "Customers.csv"
    out.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(out, index=False)
    return [out]


# --------------------------------------------------------------------------- casebook

WRITERS: dict[str, Callable[[Path, int], list[Path]]] = {
    "sklearn_5": write_iris,
    "sklearn_6": write_house_prices,
    "sklearn_7": write_customers,
}


def build_casebook(
    outdir: Path | str,
    cases: list[str] | tuple[str, ...] | None = None,
    source: Path | str = DEFAULT_SOURCE,
    seed: int = SEED,
    derive_fixed: bool = False,
) -> Path:
    """Lay out a JunoBench-like casebook in ``outdir`` with stand-in data; return ``outdir``.

    Copies the descriptor workbooks, the chosen cases' cell files, notebooks and
    READMEs from ``source`` (read-only), copies sklearn_3's real data, and writes
    generated data for the others. Existing files in ``outdir`` are overwritten.

    With ``derive_fixed``, a case without a ``_fixed`` notebook (sklearn_5) gets one
    derived from its reproduced notebook and the benchmark's own fixed target cell in
    ``cells/fixed/<case>.json`` (see :func:`derive_fixed_notebook`), so that tools that
    need a reference fix can run on it. Off by default: the real folder has none.
    """
    source, outdir = Path(source), Path(outdir)
    if not (source / "benchmark_desc.xlsx").is_file():
        raise FileNotFoundError(f"no JunoBench material at {source}")
    chosen = list(cases) if cases else list(CASES)
    unknown = [c for c in chosen if c not in CASES]
    if unknown:
        raise ValueError(f"unknown case(s): {', '.join(unknown)} (known: {', '.join(CASES)})")
    outdir.mkdir(parents=True, exist_ok=True)
    for name in ("benchmark_desc.xlsx", "diagnoses.xlsx"):
        _copy(source / name, outdir / name)
    for case in chosen:
        for kind in ("reproduced", "fixed"):
            cell_file = source / "cells" / kind / f"{case}.json"
            if cell_file.is_file():
                _copy(cell_file, outdir / "cells" / kind / cell_file.name)
        src_case, dst_case = source / "benchmark" / case, outdir / "benchmark" / case
        dst_case.mkdir(parents=True, exist_ok=True)
        for item in sorted(src_case.iterdir()):
            if item.is_file() and (item.suffix == ".ipynb" or item.name == "README.md"):
                _copy(item, dst_case / item.name)
        if derive_fixed and not (dst_case / f"{case}_fixed.ipynb").exists():
            derive_fixed_notebook(source, case, dst_case / f"{case}_fixed.ipynb")
        if case in WRITERS:
            WRITERS[case](dst_case, seed)
        elif (src_case / "data").is_dir():
            for item in sorted((src_case / "data").rglob("*")):
                if item.is_file():
                    _copy(item, dst_case / "data" / item.relative_to(src_case / "data"))
    return outdir


def derive_fixed_notebook(source: Path | str, case: str, dst: Path) -> bool:
    """Write ``dst``: the case's reproduced notebook with its crashing cell replaced by
    the fixed ``target`` code recorded in ``cells/fixed/<case>.json`` (its outputs
    cleared, its execution count kept). Returns False when that file is missing."""
    source = Path(source)
    cell_file = source / "cells" / "fixed" / f"{case}.json"
    reproduced = source / "benchmark" / case / f"{case}_reproduced.ipynb"
    if not cell_file.is_file() or not reproduced.is_file():
        return False
    target = json.loads(cell_file.read_text(encoding="utf-8"))["target"]
    nb = json.loads(reproduced.read_text(encoding="utf-8"))
    crash = recorded_crash(nb)
    index = crash[0] if crash else None
    if index is None:  # fall back on the target's index among code cells
        code = [i for i, c in enumerate(nb["cells"]) if c.get("cell_type") == "code"]
        index = code[int(target["code_cell_id"])]
    cell = nb["cells"][index]
    cell["source"] = target["code"]
    cell["outputs"] = []
    cell.setdefault("metadata", {})["junobench_standin"] = "fixed target from cells/fixed (derived)"
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(nb, indent=1), encoding="utf-8")
    return True


def _copy(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)  # content only: the source is read-only, the copy must not be
    os.chmod(dst, 0o644)


# --------------------------------------------------------------------------- running


@dataclass
class RunResult:
    """What a run of a notebook's recorded cells did."""

    notebook: str
    ok: bool
    executed: list[int] = field(default_factory=list)  # notebook cell indices, in run order
    error_cell: int | None = None  # notebook cell index of the first error
    ename: str | None = None
    evalue: str | None = None
    seconds: float = 0.0
    stdout: str = ""

    def summary(self) -> str:
        if self.ok:
            return f"ran clean ({len(self.executed)} cells, {self.seconds:.1f} s)"
        first = (self.evalue or "").splitlines()[0][:110] if self.evalue else ""
        return f"{self.ename} at cell {self.error_cell}: {first} ({self.seconds:.1f} s)"


def recorded_cells(nb: dict[str, Any], all_cells: bool = False) -> list[tuple[int, str]]:
    """The code cells in recorded order: by execution count (cells without one are left
    out unless ``all_cells``, then every code cell in notebook order). A cell whose first
    line has ``[reexecute]`` appears twice."""
    cells = [(i, c) for i, c in enumerate(nb["cells"]) if c.get("cell_type") == "code"]
    if not all_cells:
        cells = [(i, c) for i, c in cells if isinstance(c.get("execution_count"), int)]
        cells.sort(key=lambda ic: (ic[1]["execution_count"], ic[0]))
    out: list[tuple[int, str]] = []
    for i, c in cells:
        src = c.get("source", "")
        src = "".join(src) if isinstance(src, list) else src
        out.append((i, src))
        if "[reexecute]" in (src.splitlines() or [""])[0]:
            out.append((i, src))
    return out


def recorded_crash(nb: dict[str, Any]) -> tuple[int, str, str] | None:
    """(cell index, ename, evalue) of the error output saved in a notebook, if any."""
    for i, c in enumerate(nb["cells"]):
        for o in c.get("outputs", []) or []:
            if o.get("output_type") == "error":
                return i, o.get("ename", ""), o.get("evalue", "")
    return None


def descriptor_row(casebook: Path | str, case: str) -> dict[str, Any]:
    """The descriptor row of a case (``ename`` is lower case there, e.g. 'valueerror')."""
    df = pd.read_excel(Path(casebook) / "benchmark_desc.xlsx")
    rows = df[df["nb_name"].astype(str) == case]
    if rows.empty:
        raise KeyError(case)
    return rows.iloc[0].to_dict()


def run_recorded(
    nb_path: Path | str, cwd: Path | str | None = None, timeout: int = 180, kernel_name: str = "python3", all_cells: bool = False
) -> RunResult:
    """Run a notebook's code cells in recorded order in a fresh kernel; stop at the first error."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb_path = Path(nb_path)
    raw = json.loads(nb_path.read_text(encoding="utf-8"))
    plan = recorded_cells(raw, all_cells=all_cells)
    run_nb = nbformat.v4.new_notebook()
    run_nb.metadata["kernelspec"] = {"name": kernel_name, "display_name": kernel_name, "language": "python"}
    run_nb.cells = [nbformat.v4.new_code_cell(src) for _, src in plan]
    env_cwd = str(cwd if cwd is not None else nb_path.parent)
    os.environ.setdefault("MPLBACKEND", "Agg")
    client = NotebookClient(
        run_nb, timeout=timeout, kernel_name=kernel_name, resources={"metadata": {"path": env_cwd}}, allow_errors=False
    )
    result = RunResult(notebook=str(nb_path), ok=True)
    start = time.monotonic()
    streams: list[str] = []
    with client.setup_kernel(cwd=env_cwd):
        for pos, (index, _src) in enumerate(plan):
            cell = run_nb.cells[pos]
            try:
                client.execute_cell(cell, pos)
            except CellExecutionError as exc:
                result.ok = False
                result.error_cell = index
                result.ename = getattr(exc, "ename", None)
                result.evalue = getattr(exc, "evalue", None)
                result.executed.append(index)
                break
            finally:
                for o in cell.get("outputs", []):
                    if o.get("output_type") == "stream":
                        streams.append(o.get("text", ""))
            result.executed.append(index)
    result.seconds = time.monotonic() - start
    result.stdout = "".join(streams)
    return result


def missing_requirements(case: str) -> list[str]:
    """The libraries a case needs that this interpreter cannot import."""
    import importlib.util

    def absent(module: str) -> bool:
        try:
            return importlib.util.find_spec(module) is None
        except (ImportError, ValueError):
            return True

    return [m for m in CASE_REQUIRES.get(case, ()) if absent(m)]


def verify(casebook: Path, cases: list[str], jobs: int = 2, kernel_name: str = "python3") -> list[dict[str, Any]]:
    """Run every reproduced and fixed notebook of ``cases``; say whether each behaves as recorded."""
    tasks = []
    for case in cases:
        folder = casebook / "benchmark" / case
        for kind in ("reproduced", "fixed"):
            nb = folder / f"{case}_{kind}.ipynb"
            if nb.is_file():
                tasks.append((case, kind, nb))

    # read the descriptor before the threads start (openpyxl's first import is not thread-safe)
    enames = {case: str(descriptor_row(casebook, case).get("ename", "")) for case in cases}

    def one(task: tuple[str, str, Path]) -> dict[str, Any]:
        case, kind, nb = task
        raw = json.loads(nb.read_text(encoding="utf-8"))
        want = recorded_crash(raw) if kind == "reproduced" else None
        ename = enames[case]
        res = run_recorded(nb, nb.parent, kernel_name=kernel_name)
        if kind == "reproduced":
            good = not res.ok and want is not None and res.error_cell == want[0] and (res.ename or "").lower() == ename.lower()
        else:
            good = res.ok
        return {
            "case": case,
            "kind": kind,
            "as_recorded": good,
            "result": res.summary(),
            "recorded": (f"{want[1]} at cell {want[0]}" if want else None),
        }

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, tasks))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated, default: all four")
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--verify", action="store_true", help="run the notebooks and report (nbclient)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--kernel", default="python3")
    parser.add_argument(
        "--derive-fixed", action="store_true", help="give sklearn_5 a fixed notebook derived from cells/fixed (it has none)"
    )
    args = parser.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    build_casebook(args.outdir, cases, args.source, args.seed, derive_fixed=args.derive_fixed)
    print(f"stand-in casebook for {', '.join(cases)} in {args.outdir}")
    if args.verify:
        failed = 0
        for row in verify(args.outdir, cases, args.jobs, args.kernel):
            mark = "ok " if row["as_recorded"] else "NO "
            failed += not row["as_recorded"]
            print(f"{mark} {row['case']:10} {row['kind']:10} {row['result']}  [recorded: {row['recorded']}]")
        return 1 if failed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
