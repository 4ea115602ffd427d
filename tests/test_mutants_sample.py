"""The mutation harness in CI (issue 27): every mutant of tests/mutants/ is well formed, and a small
fixed sample of them (two per ruleset) is killed by that ruleset's kill tests.

The whole run is ``python tests/mutants/run.py RULESET`` (minutes per ruleset, not for CI). The
sample runs the same harness on a scratch copy, each sampled mutant must make the kill tests fail
(no baseline run here: the kill tests run unpatched in this same suite). A sampled mutant whose
snippet no longer occurs exactly once in the source (STALE: the code changed under it) fails here,
so that its snippet gets updated.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "tests" / "mutants"
RULESETS = ("outwest", "zombies9", "zombie40k", "apocalypse")

# two mutants per ruleset and the (fast) test file that kills them
SAMPLE = {
    "outwest": (["ow_cover_ignored", "ow_all_contact_attack"], "tests/outwest/test_outwest_mutant_kills.py"),
    "zombies9": (["z9_kill_strict", "z9_q4_rule"], "tests/zombies9/test_zombies9_mutant_kills.py"),
    "zombie40k": (["core_save_ap_equal", "core_id_strict"], "tests/zombie40k/test_zombie40k_mutant_kills.py"),
    "apocalypse": (["ap_sweep_tie", "ap_plague_ic_first_wound"], "tests/apocalypse/test_apocalypse_mutant_kills.py"),
}
RULE_ID = re.compile(r"(§\d|\b[A-Z]\d+\b)")  # "§5.4", "core §7.3", "W12", "A25", "Q6", "D21"


def load(ruleset: str):
    sys.path.insert(0, str(MUTANTS))
    try:
        spec = importlib.util.spec_from_file_location(f"mutants_{ruleset}", MUTANTS / f"{ruleset}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(MUTANTS))
    return module


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_mutant_is_well_formed(ruleset):
    module = load(ruleset)
    names = [m.name for m in module.MUTANTS]
    assert len(names) == len(set(names)), f"{ruleset}: a mutant name is used twice"
    for m in module.MUTANTS:
        assert RULE_ID.search(m.rule), f"{m.name}: rule = {m.rule!r} cites no rule of the spec"
        assert (ROOT / m.path).is_file(), f"{m.name}: path = {m.path!r} is not a file of the repository"
        assert m.old and m.old != m.new, f"{m.name}: the replacement must change the snippet"
        assert m.breaks.strip(), f"{m.name}: says nothing of what it breaks"
    for t in module.TESTS:
        assert (ROOT / t).is_file(), f"{ruleset}: TESTS names {t!r}, not a file"
    sample, kills = SAMPLE[ruleset]
    assert set(sample) <= set(names) and (ROOT / kills).is_file()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_sample_mutants_are_killed(ruleset):
    sample, kills = SAMPLE[ruleset]
    out = subprocess.run([sys.executable, str(MUTANTS / "run.py"), ruleset, "--only", *sample, "--tests", kills,
                          "--min-score", "1.0", "--no-baseline"], cwd=ROOT, capture_output=True, text=True, timeout=900)
    report = out.stdout + out.stderr
    assert "STALE" not in report, f"a sampled mutant no longer applies; update its snippet:\n{report}"
    assert out.returncode == 0 and f"mutants killed: {len(sample)}/{len(sample)}" in report, report
