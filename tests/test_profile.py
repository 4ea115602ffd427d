"""`shamble profile`: the mangled-name decoder, the perf map writer, the report parser and summary
(on canned text), the input errors, and one end-to-end run of outwest under perf."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from typer.testing import CliRunner

from experiments import profile as P
from experiments.cli import app

# A real symbol of outwest's game (perf report, shortened after the abi tags' end)
OUTWEST_SYMBOL = ("_ZN7kernels7outwest6humans13choose_targetB4v163B66c8tJTIeFIjxB2IKSgI4CrvQCk0Z4yRYcWsBAQ4s_2fqErM2"
                  "IZKIKUpsIgmAA_3d_3dE498GameState_28array_28float64_2c_203d_2c_20C_29_29xb")
Z40K_SYMBOL = ("_ZN7kernels9zombie40k7assault16_initiative_stepB3v12B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dE"
               "5ArrayIxLi1E")


# ---------------------------------------------------------------------------------- the decoder


def test_decode_numba_symbol_gives_function_and_module():
    assert P.decode_symbol(OUTWEST_SYMBOL) == ("choose_target", "kernels.outwest.humans")
    assert P.decode_symbol(Z40K_SYMBOL) == ("_initiative_step", "kernels.zombie40k.assault")


def test_decode_length_prefix_is_read_not_guessed():
    # "5d6_2x" is one part of 5 characters, digits and all
    assert P.decode_symbol("_ZN7kernels2ab5d6_2xB2v1E") == ("d6_2x", "kernels.ab")


def test_decode_closure_keeps_its_enclosing_function():
    symbol = "_ZN7kernels3foo5outer12_3clocals_3e5innerB2v1E"
    assert P.decode_symbol(symbol) == ("outer.<locals>.inner", "kernels.foo")


def test_decode_python_wrapper_is_marked():
    function, module = P.decode_symbol("_ZN7cpython7kernels7outwest4turn10play_batchB2v9E5Array")
    assert (function, module) == ("play_batch (wrapper for Python)", "kernels.outwest.turn")


@pytest.mark.parametrize("symbol", ["__sincos_fma", "__ieee754_atan2_fma", "0x00007f12ab", "_ZN99short"])
def test_decode_unmangled_or_broken_symbol_is_itself(symbol):
    assert P.decode_symbol(symbol) == (symbol, "")


# ---------------------------------------------------------------------------------- the map writer


def test_perf_map_sorted_sizes_from_next_address(tmp_path):
    symbols = [(0x3000, "c"), (0x1000, "a"), (0x1400, "b"), (0x1000, "a_again"), (0, "never")]
    assert P.perf_map_lines(symbols) == ["1000 400 a", "1400 1c00 b", f"3000 {P.LAST_SIZE:x} c"]
    path = tmp_path / "perf-1.map"
    assert P.write_perf_map(symbols, path) == 3
    assert path.read_text() == "1000 400 a\n1400 1c00 b\n3000 1000 c\n"


def test_perf_map_of_nothing_is_empty(tmp_path):
    assert P.perf_map_lines([]) == []
    assert P.write_perf_map([], tmp_path / "m") == 0


# ---------------------------------------------------------------------------------- the report


REPORT_TABS = "\n".join([
    "# To display the perf.data header info, please use --header/--header-only options.",
    "#",
    f" 50.00%  \t 50         \t[JIT] tid 13752                    \t[.] {OUTWEST_SYMBOL}",
    f" 20.00%  \t 20         \t[JIT] tid 13752                    \t[.] {Z40K_SYMBOL}",
    f" 10.00%  \t 10         \t[JIT] tid 13752                    \t[.] {OUTWEST_SYMBOL}x",  # another overload
    " 10.00%  \t 10         \tlibm.so.6                          \t[.] __ieee754_atan2_fma",
    "  6.00%  \t 6          \tlibpython3.11.so.1.0               \t[.] _PyEval_EvalFrameDefault",
    "  2.00%  \t 2          \t[unknown]                          \t[.] 0x00007f5e1c2d3000",
    "  2.00%  \t 2          \t[kernel.kallsyms]                  \t[k] clear_page_erms",
    "",
])
REPORT_SPACES = """\
# Overhead  Symbol
# ........  ......
    25.00%  [.] _ZN7kernels7outwest7zombies7shambleB4v188E5Array
     4.41%  [.] __ieee754_atan2_fma
     2.94%  [.] _PyEval_EvalFrameDefault
"""


def test_parse_report_tab_separated_with_samples_and_objects():
    rows = P.parse_report(REPORT_TABS)
    assert len(rows) == 7
    assert rows[0] == {"share": 50.0, "samples": 50, "dso": "[JIT] tid 13752", "symbol": OUTWEST_SYMBOL,
                       "kernel": False}
    assert rows[3]["dso"] == "libm.so.6" and rows[3]["symbol"] == "__ieee754_atan2_fma"
    assert rows[-1]["kernel"] is True


def test_parse_report_plain_columns_without_samples():
    rows = P.parse_report(REPORT_SPACES)
    assert [(r["share"], r["samples"], r["dso"], r["symbol"]) for r in rows] == [
        (25.0, None, "", "_ZN7kernels7outwest7zombies7shambleB4v188E5Array"),
        (4.41, None, "", "__ieee754_atan2_fma"), (2.94, None, "", "_PyEval_EvalFrameDefault")]


def test_summary_keeps_the_game_merges_overloads_and_normalises():
    summary = P.summarise(P.parse_report(REPORT_TABS), top=2)
    # the game: 50 + 10 (choose_target, two overloads) + 20 + 10 (atan2) = 90 of 100 samples
    assert summary["samples"] == 100
    assert summary["game_samples_share"] == pytest.approx(90.0)
    assert summary["unresolved_share"] == pytest.approx(2.0)
    assert summary["rows"] == [
        {"share": pytest.approx(600 / 9), "function": "choose_target", "module": "kernels.outwest.humans"},
        {"share": pytest.approx(200 / 9), "function": "_initiative_step", "module": "kernels.zombie40k.assault"}]
    assert summary["rest_functions"] == 1 and summary["functions"] == 3
    assert summary["rest_share"] == pytest.approx(100 / 9)
    assert sum(r["share"] for r in summary["rows"]) + summary["rest_share"] == pytest.approx(100.0)


def test_summary_math_library_is_its_own_row():
    rows = P.summarise(P.parse_report(REPORT_TABS), top=10)["rows"]
    assert rows[-1] == {"share": pytest.approx(100 / 9), "function": "__ieee754_atan2_fma",
                        "module": "libm.so.6 (math library)"}


def test_summary_without_object_column_counts_mangled_names_only():
    summary = P.summarise(P.parse_report(REPORT_SPACES), top=5)
    assert [r["function"] for r in summary["rows"]] == ["shamble"]
    assert summary["samples"] is None
    assert summary["game_samples_share"] == pytest.approx(100 * 25 / (25 + 4.41 + 2.94))


def test_summary_of_no_game_samples_is_empty():
    text = "  100.00%  \t 7 \tlibpython3.11.so.1.0 \t[.] _PyEval_EvalFrameDefault\n"
    summary = P.summarise(P.parse_report(text), top=5)
    assert summary["rows"] == [] and summary["game_samples_share"] == 0.0 and summary["rest_share"] == 0.0


# ---------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("args", "words"), [
    (["--ruleset", "nope"], "nope"),
    (["--ruleset", "outwest", "--config", "no_such"], "'no_such': not a bench config of outwest; allowed: "
                                                      "'hold_the_town'"),
    (["--ruleset", "outwest", "--games", "0"], "--games 0; allowed: an integer 1-10000000"),
    (["--top", "0"], "--top 0; allowed: an integer 1-1000"),
])
def test_bad_input_is_one_error_line(args, words):
    result = CliRunner().invoke(app, ["profile", *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.output


def test_perf_missing_or_not_permitted_is_refused():
    with pytest.raises(P.ProfileError, match="perf is not installed"):
        P.find_perf(which=lambda name: None)
    with pytest.raises(P.ProfileError, match="perf_event_paranoid = 3; allowed: 2 or less"):
        P.find_perf(which=lambda name: "/usr/bin/perf", paranoid=3, root=False)
    assert P.find_perf(which=lambda name: "/usr/bin/perf", paranoid=3, root=True) == "/usr/bin/perf"
    assert P.find_perf(which=lambda name: "/usr/bin/perf", paranoid=2, root=False) == "/usr/bin/perf"


def test_perf_missing_on_the_command_line(monkeypatch):
    monkeypatch.setattr(P.shutil, "which", lambda name: None)
    result = CliRunner().invoke(app, ["profile", "--ruleset", "outwest", "--games", "5"])
    assert result.exit_code == 2 and result.output.strip().startswith("error: perf is not installed")


def test_paranoid_level_reads_the_kernel_setting(tmp_path):
    (tmp_path / "p").write_text("2\n")
    assert P.paranoid_level(tmp_path / "p") == 2
    assert P.paranoid_level(tmp_path / "missing") is None


def _fake_perf(tmp_path, message: str):
    script = tmp_path / "perf"
    script.write_text(f"#!/bin/sh\necho 'some first line' >&2\necho '{message}' >&2\nexit 1\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize(("message", "words"), [
    ("Error: Access to performance monitoring and observability operations is limited. Permission denied",
     "perf is not permitted here: Error: Access"),
    ("ValueError: something broke in the worker", "the profiled play failed: ValueError: something broke"),
])
def test_perf_record_failure_is_one_line(tmp_path, message, words):
    folder = tmp_path / "run"
    folder.mkdir()
    with pytest.raises(P.ProfileError, match="^" + re.escape(words)):
        P._record(_fake_perf(tmp_path, message), ["outwest", "hold_the_town", 5], folder)


def test_worker_map_is_removed_by_its_pid(tmp_path, monkeypatch):
    monkeypatch.setattr(P, "perf_map_path", lambda pid: tmp_path / f"perf-{pid}.map")
    (tmp_path / "perf-4242.map").write_text("1000 10 f\n")
    (tmp_path / "worker.pid").write_text("4242")
    P._remove_map(tmp_path)
    assert not (tmp_path / "perf-4242.map").exists()
    P._remove_map(tmp_path / "no_worker")  # no pid file: nothing to remove, no error


# ---------------------------------------------------------------------------------- end to end


@pytest.mark.slow
def test_profile_outwest_end_to_end(outwest_fresh_compiles):
    """The command as a user runs it: outwest compiled afresh (~35 s), 300 games under perf (this
    machine and CI have /usr/bin/perf; without it the command must say so in one line). The command
    (`shamble profile --ruleset outwest --games 300 --json` in a fresh process) runs beside
    tests/test_bench.py's cold compile: conftest's ``outwest_fresh_compiles``."""
    done = outwest_fresh_compiles["profile"]
    if shutil.which("perf") is None:
        assert done.returncode == 2 and done.stderr.startswith("error: ") and "perf" in done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        return
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert (result["ruleset"], result["config"], result["games"]) == ("outwest", "hold_the_town", 300)
    assert result["compile_source"] == "compiled" and result["map_functions"] > 10
    assert result["seconds"] > 0 and result["games_per_s"] == pytest.approx(300 / result["seconds"])
    assert sum(r["share"] for r in result["rows"]) + result["rest_share"] == pytest.approx(100.0)
    assert result["game_samples_share"] > 50 and result["unresolved_share"] < 5
    assert result["rows"][0]["module"].startswith("kernels.outwest.")
    outwest = sum(r["share"] for r in result["rows"] if r["module"].startswith("kernels.outwest."))
    assert outwest > 60, result["rows"]
