"""Every `shamble` command of the README and docs/ runs as pasted, at tiny sizes.

The commands are read from the fenced code blocks of README.md and docs/*.md (lines starting with
``shamble`` or ``$ shamble``; ``;`` and ``&&`` separate commands, so the quick start's
``... && shamble report`` runs too), in document order, and run through
the command line (typer's runner, in-process) from a scratch folder that sees the checkout's
``examples/``. Only the sizes shrink: ``--games`` (play, sweep, sensitivity) and the report's
``--scale``, and `rebalance`'s games, candidates and validation games; every other argument is as
written, and `solve` runs as written (a few seconds). A rebalance that FAILS its validation at
those sizes exits 1, an honest answer: it passes here when it printed its verdict.
A ``shamble report`` at the shrunk scale plays the very same games as conftest's ``tiny_report``
(tests/test_report.py's: the name and folder do not change them), so a report into a new folder
starts from a copy of that report's checkpoints (``data/``) and resumes them, as the docs say a
report does (every section must say so), then analyses and writes its own page. A ``python``
block runs after the commands before it in its file (the guide reads the sweep it just made). Install lines (``pip``,
``python3 -m venv``, ``jupyter``) are not run here: CI runs the README's test line itself, and
tests/test_notebooks.py executes the notebooks as ``jupyter execute`` would.
"""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

import pytest
from conftest import REPORT_SCALE
from typer.testing import CliRunner

from experiments.cli import app

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
TINY = {"play": ("--games", "3"), "sweep": ("--games", "2"), "sensitivity": ("--games", "2"),
        "report": ("--scale", str(REPORT_SCALE)),
        "rebalance": ("--games", "10", "--iterations", "2", "--validate-games", "10"),
        "optimality": ("--games", "100"), "notebooks": ("--games", "3", "--only", "01"),
        "tune": ("--budget", "400", "--games", "100", "--validate-games", "100")}
# solve runs as written: a few seconds, and too few games make it refuse
SIZE_FLAGS = {"--games", "-n", "--scale", "--iterations", "--budget", "--validate-games"}
VERDICT_EXIT = {"rebalance": 1, "tune": 1}  # a command's exit code for an honest negative verdict
BLOCK = re.compile(r"^```(bash|sh|console|python)?\n(.*?)^```", re.S | re.M)


def snippets() -> list[tuple[str, str, object]]:
    """(file, shown text, argv or python source) in document order, shrunk, without repeats."""
    found, seen = [], set()
    for path in DOCS:
        for kind, body in BLOCK.findall(path.read_text()):
            if kind == "python":
                found.append((path.name, body.strip().splitlines()[0], body))
                continue
            for line in body.splitlines():
                for part in re.split(r";|&&", line.strip().removeprefix("$ ")):
                    if not part.strip().startswith("shamble "):
                        continue
                    words = shlex.split(part, comments=True)
                    if words[:1] == ["shamble"] and (argv := tiny(words[1:])) and tuple(argv) not in seen:
                        seen.add(tuple(argv))
                        found.append((path.name, " ".join(words), argv))
    return found


def tiny(args: list[str]) -> list[str]:
    """The command with its size options set small (ruleset commands, `shamble outwest odds`, as written)."""
    command = args[0] if args else ""
    if command not in TINY:
        return args
    out, skip = [], False
    for word in args:
        if skip:
            skip = False
            continue
        if word in SIZE_FLAGS:
            skip = True
            continue
        out.append(word)
    return [*out, *TINY[command]]


SNIPPETS = snippets()


def test_the_docs_have_commands_to_run():
    names = {argv[0] for _, _, argv in SNIPPETS if isinstance(argv, list)}
    assert {"play", "trace", "sweep", "solve", "sensitivity", "report", "roster", "params", "units"} <= names


def _report_folder(scratch: Path, argv: list[str]) -> Path | None:
    """Where a `shamble report` command writes (``--out``/``--name``, else reports/latest); None for
    another command."""
    if argv[0] != "report":
        return None
    given = {option: value for option, value in zip(argv, argv[1:]) if option in ("--out", "--name")}
    return scratch / given.get("--out", "reports") / given.get("--name", "latest")


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    folder = tmp_path_factory.mktemp("docs")
    (folder / "examples").symlink_to(ROOT / "examples")
    return folder


@pytest.mark.parametrize(("where", "shown", "what"), SNIPPETS, ids=[f"{w}: {s[:70]}" for w, s, _ in SNIPPETS])
def test_the_command_runs_as_documented(request, scratch, monkeypatch, where, shown, what):
    monkeypatch.chdir(scratch)
    if isinstance(what, str):
        exec(compile(what, f"{where} python block", "exec"), {})
        return
    report = _report_folder(scratch, what)
    copied = bool(report and not report.exists())
    if copied:  # the same games as the tiny report: resumed, not replayed
        shutil.copytree(request.getfixturevalue("tiny_report") / "data", report / "data")
    result = CliRunner().invoke(app, what)
    verdict = VERDICT_EXIT.get(what[0])
    honest = "FAILED" in result.output or "NOT BETTER" in result.output
    ok = result.exit_code == 0 or (result.exit_code == verdict and honest)
    assert ok, f"{where}: {shown}\n{result.output}"
    assert "Traceback" not in result.output
    if copied:  # every section resumed its cells (else the copy was not the same games)
        played = re.findall(r"^finished \S+ \(\d+/\d+\): (\d+) cells played", result.output, re.M)
        assert played and set(played) == {"0"}, f"{where}: {shown}\n{result.output}"
