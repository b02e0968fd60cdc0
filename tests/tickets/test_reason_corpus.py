"""The escalation reason and account-recovery declining read against a labelled corpus in
many voices (tests/tickets/corpus/reasons.yaml; issue 18, items 4 and 7): a reason is
accepted exactly when it names the ticket's one sign (a list of signs, a topic alone or
nothing named is not), a declining sentence is read as declining; precision and recall on
the held-out half, which the readers were not tuned on."""

from __future__ import annotations

import pytest

from novamart.tickets.escalation import reason_reading
from novamart.tickets.model import Signals
from tests.tickets.reasons import PARTS, declining, reasons


@pytest.mark.parametrize("part", PARTS)
def test_a_reason_is_accepted_only_when_it_names_the_sign(part: str) -> None:
    tally = reasons(part)
    assert tally.precision >= 0.95 and tally.recall >= 0.85, tally.misses


@pytest.mark.parametrize("part", PARTS)
def test_declining_in_many_voices_is_read_as_declining(part: str) -> None:
    tally = declining(part)
    assert tally.precision >= 0.95 and tally.recall >= 0.85, tally.misses


def test_a_topic_alone_earns_half_of_naming_the_sign() -> None:
    swollen = Signals(battery_swelling=True)
    assert reason_reading("swollen battery", swollen) == (1.0, [])
    assert reason_reading("battery problem", swollen) == (0.5, [])
    assert reason_reading("battery problem", Signals(burning_smell=True)) == (0.5, [])
