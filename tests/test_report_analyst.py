"""The report's analyses in a background thread while the next section's games play
(`experiments.report.Analyst`, issue 30 item 5): jobs in the order submitted, one at a time; an
analysis that raises stops the report with the section's name; the charts drawn in the background
are the ones written; Token Race (tests/proof_ruleset.py) reported end to end."""

from __future__ import annotations

import threading
import time

import proof_ruleset
import pytest

from experiments import analyses, charts
from experiments.report import Analyst, run_report
from sim import ruleset as registry


@pytest.fixture
def token_race():
    registry.register(proof_ruleset.RULESET)
    yield proof_ruleset.RULESET
    registry.unregister(proof_ruleset.ID)


def test_jobs_run_one_at_a_time_in_the_order_submitted_off_the_main_thread():
    done, threads = [], set()

    def job(k: int) -> None:
        threads.add(threading.current_thread().name)
        time.sleep(0.01 * (3 - k))  # the first job is the slowest: a pool of several would finish it last
        done.append(k)

    with Analyst() as analyst:
        for k in range(3):
            analyst.submit(f"s{k}", job, k)
        analyst.wait()
    assert done == [0, 1, 2]
    assert len(threads) == 1 and threading.current_thread().name not in threads


def test_a_failed_job_stops_the_next_submit_with_its_section_named():
    def broken() -> None:
        raise KeyError("no such column")

    ran = []
    with Analyst() as analyst:
        analyst.submit("zombie40k/mods (3/31)", broken)
        time.sleep(0.2)  # the job has failed by now
        with pytest.raises(KeyError) as err:
            analyst.submit("zombie40k/budget (4/31)", ran.append, 1)
    assert any("zombie40k/mods (3/31)" in note for note in err.value.__notes__)
    assert ran == []  # nothing after the failure was queued


def test_wait_raises_the_first_failure_with_its_section(token_race, tmp_path, monkeypatch):
    """An analysis that raises in the background stops `run_report` with its own error and the
    section's name, and no page is written."""

    def broken(section) -> None:
        raise ValueError("the analysis broke")

    monkeypatch.setitem(analyses.ANALYSES, "by_value", broken)
    with pytest.raises(ValueError, match="the analysis broke") as err:
        run_report("broken", tmp_path, scale=0.05, rulesets=["token_race"], strong_play=False)
    assert any("token_race/track (1/1)" in note for note in err.value.__notes__)
    assert not (tmp_path / "broken" / "index.html").exists()


def test_the_charts_drawn_in_the_background_are_the_ones_written(token_race, tmp_path, monkeypatch):
    """Each chart is drawn once (PNG and SVG, by the analyst) and its bytes written as drawn."""
    drawn = []
    png_bytes = charts.png_bytes

    def counted(fig) -> bytes:
        drawn.append(threading.current_thread().name)
        return png_bytes(fig)

    monkeypatch.setattr(charts, "png_bytes", counted)
    folder = run_report("proof", tmp_path, scale=0.05, rulesets=["token_race"], strong_play=False)
    pngs = sorted(folder.glob("*.png"))
    assert pngs and len(drawn) == len(pngs)
    assert all(name.startswith("report-analyst") for name in drawn)
    assert all(p.with_suffix(".svg").read_text().lstrip().startswith("<?xml") for p in pngs)
