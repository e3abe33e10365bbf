"""The check's policy (jupyterlab_junobench/check_policy.json): every entry has a number and a
reason, the kernel-side modules run with its values and keep no copy of their own, and the corpus
validators read the same file."""

from __future__ import annotations

import json
import re
import sys
import types
from pathlib import Path

import pytest

from jupyterlab_junobench import check_policy

REPO = Path(__file__).resolve().parent.parent
POLICY = check_policy.values()

#: Per kernel-side module: its constants and the policy entries they are.
MODULES = {
    "probe.py": {"WHOLE": "wholeElements", "SAMPLES": "sampledRows", "MAX_DIGEST": "digestElements",
                 "MAX_COLUMNS": "digestColumns", "MAX_NAMES": "summaryNames", "ROUND_DIGITS": "roundDigits",
                 "MAX_PAIRS": "roundPairs"},
    "scratch.py": {"JITTER": "perturbJitter", "MAX_PERTURB_BYTES": "perturbMaxBytes"},
}


def _run(name: str, source: str) -> types.SimpleNamespace:
    ns = {"__name__": f"junobench_{name}", "get_ipython": lambda: None}
    exec(compile(source, f"<{name}>", "exec"), ns)
    return types.SimpleNamespace(**ns)


def test_every_entry_has_a_number_and_a_reason():
    raw = json.loads(check_policy.PATH.read_text("utf-8"))
    assert raw and set(raw) == set(POLICY)
    for name, entry in raw.items():
        assert set(entry) == {"value", "reason"}, name
        assert isinstance(entry["value"], (int, float)) and not isinstance(entry["value"], bool), name
        assert len(entry["reason"].split()) >= 8, f"{name}: say why, in a sentence"


@pytest.mark.parametrize("broken", [{"x": {"value": 1}}, {"x": {"value": "1", "reason": "why"}},
                                    {"x": {"value": 1, "reason": " "}}])
def test_a_malformed_entry_is_refused_by_name(tmp_path, broken):
    path = tmp_path / "check_policy.json"
    path.write_text(json.dumps(broken))
    with pytest.raises(ValueError, match=r"check_policy.json: x: "):
        check_policy.load(path)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_the_kernel_side_modules_run_with_the_policy_values(module):
    source = (REPO / "jupyterlab_junobench" / module).read_text("utf-8")
    ran = _run(module, check_policy.embed(source))
    assert ran.POLICY == POLICY
    for constant, entry in MODULES[module].items():
        assert getattr(ran, constant) == POLICY[entry], constant
    # No number of the policy is written in the module itself: its one POLICY line is empty.
    assert re.search(r"^POLICY: dict\[str, float\] = \{\}$", source, re.M)
    for constant in MODULES[module]:
        assert re.search(rf"^{constant} = [^\n]*POLICY\[", source, re.M), constant
    with pytest.raises(KeyError):
        _run(module, source)  # the text without the policy fails at once, never runs on defaults


def test_embed_refuses_a_module_without_its_policy_line():
    with pytest.raises(ValueError, match="POLICY"):
        check_policy.embed("VERSION = 1\n")


def test_the_corpus_validators_read_the_policy():
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import make_check_corpus
        import make_fair_corpus
    finally:
        sys.path.pop(0)
    assert make_check_corpus.SAME_LINE == POLICY["sameLine"]
    assert make_fair_corpus.RELATIVE_TOLERANCE == POLICY["relativeTolerance"]
    a = 1000.0
    assert make_fair_corpus.diff_values(a, a * (1 + POLICY["relativeTolerance"] / 2), 0.0) == []
    assert make_fair_corpus.diff_values(a, a * (1 + POLICY["relativeTolerance"] * 2), 0.0) != []


def test_the_scratch_module_imported_from_the_package_reads_the_file():
    from jupyterlab_junobench import scratch  # the container's mounts and the MCP session import it

    assert scratch.POLICY == POLICY and scratch.JITTER == POLICY["perturbJitter"]
