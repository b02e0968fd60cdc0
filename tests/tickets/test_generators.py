"""The seeded generators: reproducible, >= 500 distinct tickets per family, an easy-to-hard
mix, hidden truths consistent with the text, and one canonical task per family."""

from __future__ import annotations

from collections import Counter

import pytest

from novamart.kb import default_kb
from novamart.tickets import CANONICAL_TASKS, FAMILIES, canonical_task
from novamart.tickets.agents import AGENTS, run
from novamart.tickets.extraction import normalise
from novamart.tickets.family import DATASET_SIZE


@pytest.fixture(scope="module")
def datasets() -> dict:
    return {name: spec.dataset() for name, spec in FAMILIES.items()}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_dataset_is_large_distinct_and_mixed(family: str, datasets: dict) -> None:
    data = datasets[family]
    assert len(data) == DATASET_SIZE >= 500
    assert len({s.ticket.text for s in data}) >= 0.95 * len(data)
    levels = Counter(s.difficulty for s in data)
    assert all(levels[level] >= 100 for level in ("easy", "medium", "hard")), levels
    assert {s.family for s in data} == {family}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_same_seed_same_scenario(family: str) -> None:
    spec = FAMILIES[family]
    assert spec.generate(42) == spec.generate(42)
    assert spec.generate(42) != spec.generate(43)
    assert spec.generate(7, "hard").difficulty == "hard"


def test_triage_categories_are_balanced(datasets: dict) -> None:
    counts = Counter(s.truth.category for s in datasets["ticket_triage"])
    assert len(counts) == 5 and max(counts.values()) <= 0.3 * DATASET_SIZE
    assert len({s.truth.priority for s in datasets["ticket_triage"]}) == 4


def test_extraction_answers_are_in_the_text(datasets: dict) -> None:
    for s in datasets["data_extraction"]:
        assert s.ticket.requested_fields[:2] == ["order_id", "email"]
        assert set(s.truth.fields) == set(s.ticket.requested_fields)
        digits = s.truth.fields["order_id"][3:]
        assert digits in s.ticket.text
        assert normalise("order_id", s.truth.fields["order_id"]) == s.truth.fields["order_id"]
    hard = [s for s in datasets["data_extraction"] if s.difficulty == "hard"]
    assert any(None in s.truth.fields.values() for s in hard)
    assert all("> On" in s.ticket.text for s in hard)


def test_escalation_truth_follows_the_signals(datasets: dict) -> None:
    data = datasets["escalation_safety"]
    for s in data:
        assert s.truth.requires_escalation == bool(s.truth.signals.fired())
        assert s.truth.kb_id in default_kb().articles
    rate = sum(bool(s.truth.requires_escalation) for s in data) / len(data)
    assert 0.2 <= rate <= 0.4
    fired = Counter(name for s in data for name in s.truth.signals.fired())
    assert set(fired) == {
        "battery_swelling",
        "burning_smell",
        "legal_threat",
        "account_takeover",
        "payment_fraud",
    }
    lookalikes = [s for s in data if s.difficulty != "easy" and not s.truth.requires_escalation]
    assert any("burning" in s.ticket.text.lower() for s in lookalikes)
    assert any("legal" in s.ticket.text.lower() for s in lookalikes)


def test_kb_tickets_cover_many_articles(datasets: dict) -> None:
    used = {s.truth.kb_id for s in datasets["kb_grounded_response"]}
    assert len(used) >= 40
    assert any(i.startswith("KB-POLICY-") for i in used)


def test_recovery_record_is_shown_but_secret(datasets: dict) -> None:
    for s in datasets["account_recovery"]:
        assert s.ticket.account_on_file == s.truth.secrets
        assert s.truth.secrets["email"] not in s.ticket.text


@pytest.mark.parametrize("task_id", list(CANONICAL_TASKS))
def test_canonical_tasks_exist_and_the_oracle_solves_them(task_id: str) -> None:
    scenario = canonical_task(task_id)
    assert scenario.task_id == task_id
    assert scenario.family == CANONICAL_TASKS[task_id]
    assert run(AGENTS["oracle"], scenario)[0] == 1.0
    assert canonical_task(task_id) == scenario


def test_unknown_canonical_task_is_a_clear_error() -> None:
    with pytest.raises(KeyError, match="unknown ticket task 'nope'; known: billing_triage"):
        canonical_task("nope")
