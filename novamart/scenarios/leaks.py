"""Does the wording give a hidden fact away? A phrase leaks when the openings that contain it
show a value of a hidden fact (a real defect, a tier, an opened box) much more often than the
openings overall do.

Measured within one task (the agent knows the task; across tasks every phrase a task uses
would "predict" that task's facts). Phrases are the runs of one to three words; only phrases
common enough to measure (in at least ``min_share`` of the openings, and missing from as many)
are tested, so chance alone does not make a leak.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Hashable, Sequence

from pydantic import BaseModel

WORD = re.compile(r"[a-z]+(?:'[a-z]+)?")
MAX_WORDS = 3
MIN_SHARE = 0.08
MARGIN = 0.2


class Leak(BaseModel):
    phrase: str
    value: str
    rate: float
    """How often the hidden fact has ``value`` in the openings with the phrase."""
    base: float
    """How often it has ``value`` in all openings."""
    support: int


def phrases(text: str) -> set[str]:
    words = WORD.findall(text.lower())
    return {
        " ".join(words[i : i + n])
        for n in range(1, MAX_WORDS + 1)
        for i in range(len(words) - n + 1)
    }


def leaks(
    openings: Sequence[str],
    hidden: Sequence[Hashable],
    min_share: float = MIN_SHARE,
    margin: float = MARGIN,
) -> list[Leak]:
    """Every (phrase, value) whose rate beats the base rate by more than ``margin``, worst
    first; ``hidden[i]`` is the hidden fact behind ``openings[i]``."""
    total = len(openings)
    base = Counter(hidden)
    seen: dict[str, Counter[Hashable]] = defaultdict(Counter)
    for text, value in zip(openings, hidden, strict=True):
        for phrase in phrases(text):
            seen[phrase][value] += 1
    lowest = min_share * total
    found = []
    for phrase, values in seen.items():
        support = sum(values.values())
        if support < lowest or total - support < lowest:
            continue
        for value, count in base.items():
            rate, overall = values[value] / support, count / total
            if rate - overall > margin:
                found.append(
                    Leak(phrase=phrase, value=str(value), rate=rate, base=overall, support=support)
                )
    return sorted(found, key=lambda leak: leak.base - leak.rate)
