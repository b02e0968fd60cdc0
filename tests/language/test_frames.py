"""Stacked negations: a clause framed by a denial ("it's not as if", "there's no way") or by a
denial of knowledge ("I can't say", "I wouldn't say") is read by the parity of the frame's
negations and its own; a knowledge frame only hedges, so its claim is marked hedged (it never
earns credit, and still costs when false).

The cross product of frames and inner clauses: every frame, every inner claim, both
polarities. The reader must get what a careful human reads; the grader side (true and false
against a scenario) is tests/episode/test_frames.py.
"""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.language import Reading, lexicon_for, read

TRUTH_DENIALS = (
    "It's not as if",
    "It isn't the case that",
    "It's not that",
    "It wasn't that",
    "There's no way",
    "It isn't true that",
    "It's not like",
)
"""Frames that deny the clause they govern: its polarity flips."""
KNOWLEDGE_DENIALS = ("I can't say", "I wouldn't say", "I couldn't say", "I can't confirm that")
"""Frames that deny knowing or asserting the clause: its polarity flips, and it is hedged."""
AFFIRMING = ("It's true that", "I can confirm that")
"""Frames that keep the clause as it is."""

INNER: tuple[tuple[str, tuple[str, object]], ...] = (
    ("the check found a defect", ("defect_check.verified", True)),
    ("the check found no defect", ("defect_check.verified", False)),
    ("the check didn't find a fault", ("defect_check.verified", False)),
    ("the unit is faulty", ("defect_check.verified", True)),
    ("the unit isn't faulty", ("defect_check.verified", False)),
    ("the item was opened", ("order.opened", True)),
    ("the item was never opened", ("order.opened", False)),
    ("your refund was approved", ("full_refund", "asserted")),
    ("your refund wasn't approved", ("full_refund", "denied")),
    ("a gift card was added", ("store_credit", "asserted")),
    ("no gift card was added", ("store_credit", "denied")),
)
"""Inner clauses and what each says alone: a fact's truth value, or a resolution's stance."""
FLIP = {True: False, False: True, "asserted": "denied", "denied": "asserted"}


def reading(text: str) -> Reading:
    return read(text, lexicon_for(default_kernel().rulebook))


def claims(text: str) -> set[tuple[str, object, bool]]:
    """(what, value or stance, hedged) for every claim; a fact on a boolean as its value."""
    r = reading(text)
    out: set[tuple[str, object, bool]] = {(c.resolution, c.stance, c.hedged) for c in r.resolutions}
    for f in r.facts:
        if isinstance(f.value, bool) and f.op in ("==", "!="):
            out.add((f.ref, f.value == (f.op == "=="), f.hedged))
    return out


@pytest.mark.parametrize("inner", [i for i, _ in INNER])
def test_the_inner_clauses_read_alone(inner: str) -> None:
    said = dict(INNER)[inner]
    assert claims(f"{inner[0].upper()}{inner[1:]}.") == {(*said, False)}


@pytest.mark.parametrize("frame", TRUTH_DENIALS + KNOWLEDGE_DENIALS + AFFIRMING)
@pytest.mark.parametrize("inner", [i for i, _ in INNER])
def test_a_frame_counts_its_own_negations(frame: str, inner: str) -> None:
    what, value = dict(INNER)[inner]
    flips = frame not in AFFIRMING
    want = (what, FLIP[value] if flips else value, frame in KNOWLEDGE_DENIALS)
    assert claims(f"{frame} {inner}.") == {want}


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the measured lies and true double negatives (bench/fail_closed_third.py class 7)
        ("It's not as if no gift card was added.", {("store_credit", "asserted", False)}),
        ("I wouldn't say the unit isn't faulty.", {("defect_check.verified", True, True)}),
        ("I can't say the check found anything wrong.", {("defect_check.verified", False, True)}),
        ("It wasn't that nobody approved the refund.", {("full_refund", "asserted", False)}),
        ("Nobody can say we didn't escalate this.", {("escalate", "asserted", False)}),
        # a frame governs a negation of another predicate too (timing: "won't reach you")
        ("There's no way your refund won't reach you this week.",
         {("full_refund", "asserted", False)}),
        # a frame ahead of a lead-in, and one run into the sentence
        ("Please be advised: it's not as if no gift card was added.",
         {("store_credit", "asserted", False)}),
        ("And so it's not as if no gift card was added and that is everything.",
         {("store_credit", "asserted", False)}),
        # what is not a frame keeps its reading
        ("No worries, your refund was approved.", {("full_refund", "asserted", False)}),
        ("It's not that simple: your refund wasn't approved.", {("full_refund", "denied", False)}),
    ],
)  # fmt: skip
def test_the_measured_double_negatives(text: str, want: set) -> None:
    assert claims(text) == want


def test_a_frame_without_a_claim_claims_nothing() -> None:
    assert claims("I can't say how sorry I am.") == set()
    assert claims("There's no way to speed this up, I'm afraid.") == set()


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # money the store keeps is the inverse of money back: its negation gives it back
        ("Not a single cent of the $79.99 stays with us.", {("full_refund", "asserted", False)}),
        ("None of the $79.99 stays with us.", {("full_refund", "asserted", False)}),
        ("We are keeping the $79.99, I'm afraid.", {("full_refund", "denied", False)}),
        # nobody is no one else deciding the case
        ("Nobody approved your refund.", {("full_refund", "denied", False)}),
        # a writer's aside label is no record reporting a finding
        ("Note: the check found anything wrong.", {("defect_check.verified", True, False)}),
        ("Kindly note, I can't say check found anything wrong.",
         {("defect_check.verified", False, True)}),
    ],
)  # fmt: skip
def test_what_the_framed_lies_leaned_on(text: str, want: set) -> None:
    assert claims(text) == want
    assert reading(text).unverifiable == ()
