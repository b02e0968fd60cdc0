"""Benchmark: `novamart rules diff` over the default scenario set, wall clock as an analyst
waits for it (a fresh process: imports, loading and compiling both rule sets, every case).

Target (issue 13): <= 30 s. Two changes: the standard return window 30 -> 45 days (decisions
change) and an identical copy (none do); each run 3 times, median reported.
Run: .venv/bin/python bench/bench_rules_diff.py [runs]
"""

from __future__ import annotations

import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from novamart.kernel.rulebook import DEFAULT_RULES_DIR

WINDOW = "order.days_since_purchase <= 30"


def timed(old: Path, new: Path) -> tuple[float, int]:
    command = [sys.executable, "-m", "novamart.cli", "rules", "diff", str(old), str(new), "--json"]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"rules diff failed ({done.returncode}):\n{done.stderr}")
    return elapsed, done.returncode


def main(runs: int = 3) -> None:
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()}")
    print(f"python {platform.python_version()} on {platform.platform()}")
    with tempfile.TemporaryDirectory() as tmp:
        same = Path(tmp) / "same"
        wider = Path(tmp) / "wider"
        shutil.copytree(DEFAULT_RULES_DIR, same)
        shutil.copytree(DEFAULT_RULES_DIR, wider)
        rule = wider / "standard_return.yaml"
        rule.write_text(rule.read_text().replace(WINDOW, "order.days_since_purchase <= 45"))
        for label, new in (("window 30 -> 45", wider), ("identical copy", same)):
            results = [timed(DEFAULT_RULES_DIR, new) for _ in range(runs)]
            seconds = [s for s, _ in results]
            codes = {c for _, c in results}
            print(
                f"rules diff, {label:16s} median {statistics.median(seconds):.1f} s "
                f"(min {min(seconds):.1f}, max {max(seconds):.1f}; exit {codes})"
            )
    print("target: <= 30 s for the default scenario set")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
