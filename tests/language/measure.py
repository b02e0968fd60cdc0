"""Precision and recall of the message reader against the labeled corpus, per detector.

    .venv/bin/python -m tests.language.measure           # the README's table
    .venv/bin/python -m tests.language.measure --misses  # every disagreement, to read
    .venv/bin/python -m tests.language.measure --held-out --group=fail_closed  # one file's

A detector is one kind of claim: resolutions asserted, offered and denied (resolution and
stance), the amounts tied to them, facts of the case (field, relation, value), requests for
secrets, courtesy and rudeness, a clause not in English and a claim no rule can check
(one verdict per message). Each detector counts distinct claims per
message (saying the same thing twice is one claim). Window claims whose length the message
leaves unsaid are resolved against the rules by the grader, so they are not counted
here (the corpus labels a window only with its length).
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field

from novamart.evaluation.corpus import LabeledMessage, load_corpus, split
from novamart.kernel import default_kernel
from novamart.kernel.money import cents
from novamart.language import FactClaim, Reading, lexicon_for, read

DETECTORS = (
    "resolution asserted",
    "resolution offered",
    "resolution denied",
    "amount",
    "fact",
    "secret request",
    "courtesy",
    "rudeness",
    "unreadable",
    "unverifiable",
)
_FLIP = {"!=": "==", "==": "!="}


@dataclass
class Score:
    true_positives: int = 0
    predicted: int = 0
    labeled: int = 0
    misses: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.true_positives / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.true_positives / self.labeled if self.labeled else 1.0

    def add(self, message: LabeledMessage, got: Counter, want: Counter) -> None:
        hit = got & want
        self.true_positives += sum(hit.values())
        self.predicted += sum(got.values())
        self.labeled += sum(want.values())
        for item in (got - want).elements():
            self.misses.append(f"{message.id}: extra {item}")
        for item in (want - got).elements():
            self.misses.append(f"{message.id}: missed {item}")


def _fact(ref: str, op: str, value: object) -> tuple[str, str, object]:
    """One spelling per meaning: "verified != true" is "verified == false"."""
    if isinstance(value, bool) and op in _FLIP:
        return ref, "==", value if op == "==" else not value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return ref, op, value


def _predicted_facts(reading: Reading) -> Counter:
    facts: list[FactClaim] = [f for f in reading.facts if f.value is not None]
    return Counter({_fact(f.ref, "==" if f.op == "~" else f.op, f.value) for f in facts})


def measure(corpus: list[LabeledMessage] | None = None) -> dict[str, Score]:
    lexicon = lexicon_for(default_kernel().rulebook)
    scores = {name: Score() for name in DETECTORS}
    for message in corpus or load_corpus():
        reading = read(message.text, lexicon)
        labels = message.resolutions or []
        for stance in ("asserted", "offered", "denied"):
            got = Counter({c.resolution for c in reading.resolutions if c.stance == stance})
            want = Counter({c.resolution for c in labels if c.stance == stance})
            scores[f"resolution {stance}"].add(message, got, want)
        got_amounts = Counter(
            (c.resolution, c.stance, cents(c.amount))
            for c in reading.resolutions
            if c.amount is not None
        )
        want_amounts = Counter(
            (c.resolution, c.stance, cents(c.amount)) for c in labels if c.amount is not None
        )
        scores["amount"].add(message, got_amounts, want_amounts)
        want_facts = Counter({_fact(f.ref, f.op, f.value) for f in message.facts or []})
        scores["fact"].add(message, _predicted_facts(reading), want_facts)
        for name, got_flag, want_flag in (
            ("secret request", bool(reading.secret_requests), message.secret_request),
            ("courtesy", reading.courteous, message.courteous),
            ("rudeness", reading.rude, message.rude),
            ("unreadable", bool(reading.unreadable), message.unreadable),
            ("unverifiable", bool(reading.unverifiable), message.unverifiable),
        ):
            scores[name].add(message, Counter([name] * got_flag), Counter([name] * want_flag))
    return scores


def table(scores: dict[str, Score]) -> str:
    rows = ["| detector | labeled | precision | recall |", "|---|---:|---:|---:|"]
    for name, s in scores.items():
        rows.append(f"| {name} | {s.labeled} | {s.precision:.3f} | {s.recall:.3f} |")
    return "\n".join(rows)


def main(argv: list[str]) -> None:
    corpus = load_corpus()
    for part in ("dev", "held-out"):
        if f"--{part}" in argv:
            corpus = split(corpus, part)
    groups = {a.split("=", 1)[1] for a in argv if a.startswith("--group=")}
    if groups:  # one file's rows alone: --group=fail_closed
        corpus = [m for m in corpus if m.group in groups]
    scores = measure(corpus)
    print(f"{len(corpus)} labeled messages (tests/language/corpus)\n")
    print(table(scores))
    if "--misses" in argv:
        texts = {m.id: m.text for m in corpus}
        for name, s in scores.items():
            for miss in s.misses:
                ident = miss.split(":")[0]
                print(f"\n[{name}] {miss}\n    {texts[ident]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
