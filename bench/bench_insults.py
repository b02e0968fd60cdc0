"""Benchmark: do insulting closings pass? The pass gate (novamart.reward.held) holds an order
case below the pass mark once a message is rude, so an insult costs as much as the reader
finds it. This prints the reader's precision and recall for rudeness on the labelled
rudeness corpus (tests/language/rudeness: insults in many voices, and kind, firm, blunt or
self-critical closings and the customer's own rude words quoted back), on each half, and the
order cases that pass after the oracle's actions and its closing with a held-out insult
appended (every order task, both modes).
Run: .venv/bin/python bench/bench_insults.py [seeds per order task and mode] [--misses]
(--misses lists the training half's misreadings; the held-out half is only scored.)
"""

from __future__ import annotations

import sys

from tests.language.insults import HALVES, passing, scores


def main(argv: list[str]) -> None:
    for half in HALVES:
        s = scores(half)
        print(f"{half}: reader's rudeness precision {s.precision:.3f}, recall {s.recall:.3f} "
              f"({s.found}/{s.insults} insults found, {s.flagged_kind} of {s.kind} kind or "
              f"firm closings flagged)")  # fmt: skip
        if half == "train" and "--misses" in argv:
            print("\n".join(f"  {m}" for m in s.misses))
    numbers = [a for a in argv if a.isdigit()]
    passed, total, finals = passing(int(numbers[0]) if numbers else 10)
    print(f"oracle actions + its closing + a held-out insult: {passed}/{total} order cases "
          f"pass (highest score {max(finals):.3f})")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
