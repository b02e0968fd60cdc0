"""Precision and recall of the ticket readers on tests/tickets/corpus/reasons.yaml, per half:
the escalation reason (accepted on a ticket exactly when it names that ticket's one sign,
``escalation.reason_reading``) and declining in account recovery (``reply.conveys`` of the
declining concept). ``python -m tests.tickets.reasons`` prints both, with ``-v`` the misses.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from novamart.tickets import reply
from novamart.tickets.escalation import reason_reading
from novamart.tickets.model import Signals
from novamart.tickets.recovery import DECLINE_SHARE

CORPUS = Path(__file__).resolve().parent / "corpus" / "reasons.yaml"
SIGNS = tuple(Signals.model_fields)
PARTS = ("dev", "held-out")


@lru_cache(maxsize=1)
def corpus() -> dict[str, list[dict[str, Any]]]:
    return yaml.safe_load(CORPUS.read_text(encoding="utf-8"))


def _part(row: dict[str, Any]) -> str:
    return PARTS[int(row["id"].rsplit("-", 1)[1]) % 2]


@dataclass(frozen=True)
class Tally:
    """Verdicts against labels: a positive is an accepted reason or a declining sentence."""

    precision: float
    recall: float
    positives: int
    accepted: int
    misses: tuple[str, ...]


def tally(verdicts: list[tuple[str, bool, bool]]) -> Tally:
    """From (what was read, the verdict, the label) triples."""
    hits = sum(got and want for _, got, want in verdicts)
    accepted = sum(got for _, got, _ in verdicts)
    positives = sum(want for _, _, want in verdicts)
    return Tally(
        precision=hits / accepted if accepted else 1.0,
        recall=hits / positives if positives else 1.0,
        positives=positives,
        accepted=accepted,
        misses=tuple(
            f"{'accepted' if got else 'missed'}: {what}" for what, got, want in verdicts
            if got != want
        ),
    )  # fmt: skip


def reasons(part: str) -> Tally:
    """Every reason of ``part`` on a ticket showing each sign in turn."""
    return tally([
        (f"{row['text']!r} on {sign}",
         reason_reading(row["text"], Signals(**{sign: True})) == (1.0, []),
         row["signs"] == [sign])
        for row in corpus()["reasons"] if _part(row) == part
        for sign in SIGNS
    ])  # fmt: skip


def declining(part: str) -> Tally:
    return tally([
        (repr(row["text"]), reply.conveys(row["text"], DECLINE_SHARE), row["declines"])
        for row in corpus()["declining"] if _part(row) == part
    ])  # fmt: skip


def main(argv: list[str]) -> None:
    for part in PARTS:
        for name, got in (("escalation reason", reasons(part)), ("declining", declining(part))):
            print(f"{part}: {name} precision {got.precision:.3f} recall {got.recall:.3f} "
                  f"({got.positives} positives, {got.accepted} accepted)")  # fmt: skip
            if "-v" in argv:
                print("\n".join(f"  {m}" for m in got.misses))


if __name__ == "__main__":
    main(sys.argv[1:])
