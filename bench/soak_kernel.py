"""Soak: 100,000 kernel decisions on random fact sets from several threads, with reloads.

Every 5,000 decisions the standard return window in a copy of rules/ flips (30 <-> 14 days)
and the kernel reloads; every third reload first meets a broken rule file, which must be
refused while the running version keeps serving. Each decision runs on a pinned snapshot
and is checked against its version's window. Prints crashes (the process would be gone),
errors, reloads, RSS at the start, every 10,000 decisions and at the end, and decisions/s.
Run: .venv/bin/python bench/soak_kernel.py [decisions] [threads]
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from tests.reliability.soak import Soak


def main(decisions: int = 100_000, threads: int = 4) -> int:
    print(f"python {platform.python_version()} on {platform.platform()}, cpus={os.cpu_count()}")
    print(f"{decisions:,} decisions on {threads} threads, reload every 5,000")
    with tempfile.TemporaryDirectory() as workdir:
        soak = Soak(Path(workdir), reload_every=5_000, sample_every=10_000)
        report = soak.run(decisions, threads)
    for done, rss in report.rss_mb:
        print(f"  RSS after {done:>7,} decisions: {rss:7.1f} MB")
    start, end = report.rss_mb[0][1], report.rss_mb[-1][1]
    first_sample = report.rss_mb[1][1] if len(report.rss_mb) > 2 else start
    print(
        f"RSS start {start:.1f} MB, end {end:.1f} MB; growth after the first sample "
        f"{end - first_sample:+.1f} MB"
    )
    print(
        f"decisions {report.decisions:,} ({report.checked:,} checked against their version's "
        f"window), crashes 0, errors {len(report.errors)}"
    )
    print(
        f"reloads {report.reloads} ({report.refused_reloads} broken rule sets refused, "
        f"{len(report.versions)} versions)"
    )
    print(f"throughput {report.rate:,.0f} decisions/s ({report.seconds:.1f} s)")
    for error in report.errors[:5]:
        print(f"  error: {error}")
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main(*(int(arg) for arg in sys.argv[1:3])))
