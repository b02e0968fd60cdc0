"""A small kernel soak (the full 100,000-decision run is bench/soak_kernel.py): random fact
sets from three threads while the rule set is reloaded, edited and broken; every decision
agrees with the version it was taken on, and a broken rule set never replaces a good one."""

from __future__ import annotations

from pathlib import Path

from tests.reliability.soak import Soak


def test_decisions_stay_right_through_reloads(tmp_path: Path) -> None:
    soak = Soak(tmp_path, reload_every=400, sample_every=1_000)
    report = soak.run(decisions=2_400, threads=3, seed=1)
    assert report.errors == []
    assert report.decisions == 2_400
    assert report.checked > 300
    assert report.reloads == 6
    assert report.refused_reloads == 2
    assert len(report.versions) == 2
