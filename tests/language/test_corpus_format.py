"""The labeled corpus is well formed: strict schema, unique ids and texts, only the
rulebook's resolutions and facts with values of their declared types, and enough messages in
every voice and tricky class to measure a reader by."""

from __future__ import annotations

from collections import Counter

import pytest

from novamart.evaluation.corpus import CLASSES, VOICES, LabeledMessage, corpus_files, load_file
from novamart.kernel import default_kernel
from novamart.kernel.facts import NUMERIC

MIN_PER_VOICE = 40
MIN_PER_CLASS = 20
MIN_TOTAL = 500
MIN_TRICKY_SHARE = 0.4


@pytest.fixture(scope="module")
def corpus() -> dict[str, list[LabeledMessage]]:
    return {path.stem: load_file(path) for path in corpus_files()}


def test_every_file_is_a_declared_voice_or_class(corpus: dict) -> None:
    assert set(corpus) == VOICES | CLASSES
    assert not VOICES & CLASSES


def test_ids_name_their_file_and_are_unique(corpus: dict) -> None:
    ids = Counter(m.id for messages in corpus.values() for m in messages)
    assert [i for i, n in ids.items() if n > 1] == []
    for group, messages in corpus.items():
        assert {m.group for m in messages} == {group}


def test_no_message_is_written_twice(corpus: dict) -> None:
    texts = Counter(" ".join(m.text.split()).lower() for ms in corpus.values() for m in ms)
    assert [t for t, n in texts.items() if n > 1] == []


def test_resolutions_are_the_rulebooks(corpus: dict) -> None:
    known = set(default_kernel().rulebook.resolutions)
    for messages in corpus.values():
        for m in messages:
            claims = [(c.resolution, c.stance, c.amount) for c in m.resolutions or []]
            assert {c[0] for c in claims} <= known, m.id
            assert len(claims) == len(set(claims)), m.id


def test_facts_are_declared_fields_with_values_of_their_type(corpus: dict) -> None:
    schema = default_kernel().rulebook.facts
    for messages in corpus.values():
        for m in messages:
            for claim in m.facts or []:
                kind, name = claim.ref.split(".")
                spec = schema.field(kind, name)
                assert spec is not None and spec.type != "id", (m.id, claim.ref)
                value = claim.value
                if spec.type == "bool":
                    assert isinstance(value, bool) and claim.op in ("==", "!="), m.id
                elif spec.type == "choice":
                    assert value in (spec.values or ()) and claim.op in ("==", "!="), m.id
                else:
                    assert spec.type in NUMERIC, (m.id, spec.type)
                    assert isinstance(value, int | float) and not isinstance(value, bool), m.id
                    if spec.type == "integer":
                        assert isinstance(value, int), m.id
                    if spec.range is not None:
                        assert spec.range[0] <= value <= spec.range[1], m.id
            facts = [(c.ref, c.op, c.value) for c in m.facts or []]
            assert len(facts) == len(set(facts)), m.id


def test_there_are_enough_messages_in_every_voice_and_class(corpus: dict) -> None:
    counts = {group: len(messages) for group, messages in corpus.items()}
    assert {v: counts[v] for v in VOICES if counts[v] < MIN_PER_VOICE} == {}
    assert {c: counts[c] for c in CLASSES if counts[c] < MIN_PER_CLASS} == {}
    total = sum(counts.values())
    assert total >= MIN_TOTAL
    assert sum(counts[c] for c in CLASSES) >= MIN_TRICKY_SHARE * total


def test_every_kind_of_label_occurs_both_ways(corpus: dict) -> None:
    """A detector measured on a corpus without negatives (or positives) is not measured."""
    messages = [m for ms in corpus.values() for m in ms]
    stances = Counter(c.stance for m in messages for c in m.resolutions or [])
    assert min(stances[s] for s in ("asserted", "offered", "denied")) >= 30
    for flag in ("secret_request", "courteous", "rude"):
        values = Counter(getattr(m, flag) for m in messages)
        assert min(values[True], values[False]) >= 20, flag
    assert sum(1 for m in messages if not m.resolutions) >= 50
