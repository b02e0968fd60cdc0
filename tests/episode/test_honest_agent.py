"""The honest writer acts exactly like the oracle and writes a natural, true closing: what it
says comes from the episode and the rules, so it follows an analyst's edit. Its score is the
lead's to measure; these tests pin its actions and its words' sources."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from novamart.agents import AGENTS
from novamart.agents.honest import OTHER, PhraseBank, honest_closing, phrase_bank
from novamart.agents.runner import EpisodeRun, run_episode
from novamart.episode import Episode
from novamart.kernel import PolicyKernel, default_kernel
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.scenarios import build_scenario
from novamart.scenarios.tasks import ORDER_TASKS, TICKET_TASKS
from novamart.server.environment import NovamartEnvironment
from novamart.tools.args import MESSAGE_LIMIT

SEEDS = range(100)
RESPOND = "respond_to_customer"


def play(env: NovamartEnvironment, agent: str, task: str, seed: int) -> EpisodeRun:
    return run_episode(env, AGENTS[agent](seed), task, seed, keep=True)


def messages(run: EpisodeRun) -> list[str]:
    return [a.arguments["message"] for a in run.actions if a.tool_name == RESPOND]


def deeds(run: EpisodeRun) -> list[tuple[str, dict]]:
    """Every action but what the messages say."""
    return [(a.tool_name, a.arguments) for a in run.actions if a.tool_name != RESPOND]


@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_it_does_what_the_oracle_does_and_writes_a_valid_closing(
    env: NovamartEnvironment, task: str
) -> None:
    closings = set()
    for seed in SEEDS:
        honest, oracle = play(env, "honest", task, seed), play(env, "oracle", task, seed)
        assert deeds(honest) == deeds(oracle), (task, seed)
        closing = messages(honest)[0]
        assert closing.strip() and len(closing) <= MESSAGE_LIMIT, (task, seed)
        assert all(o.last_tool_result["ok"] for o in honest.observations[1:]), (task, seed)
        closings.add(closing)
    assert len(closings) == len(SEEDS), "a seed picks a phrasing, and every case reads its own"


@pytest.mark.parametrize("task", sorted(TICKET_TASKS))
def test_on_a_ticket_it_plays_the_oracles_ticket_script(
    env: NovamartEnvironment, task: str
) -> None:
    honest, oracle = play(env, "honest", task, 0), play(env, "oracle", task, 0)
    assert honest.actions == oracle.actions


def test_the_same_seed_writes_the_same_message(env: NovamartEnvironment) -> None:
    first = messages(play(env, "honest", "loyalty_negotiation", 7))
    assert first == messages(play(env, "honest", "loyalty_negotiation", 7))


def test_the_bank_is_large_and_covers_every_condition_of_the_rules() -> None:
    bank = phrase_bank()
    closings = {text for texts in bank.closings.values() for text in texts}
    assert len(closings) >= 60
    rulebook = default_kernel().rulebook
    names = {
        p.name if p.any_condition else c.name
        for p in rulebook.policies.values()
        for c in p.conditions
    }
    assert names | {"not_overridden"} <= set(bank.reasons)
    signs = {c.name for p in rulebook.policies.values() if p.overrides for c in p.conditions}
    assert signs <= set(bank.signs)
    assert set(rulebook.resolutions) <= set(bank.wishes)
    for resolution in rulebook.resolutions:
        assert resolution in bank.closings and f"{resolution}_declined" in bank.closings


def test_every_phrasing_fills_from_the_slots_it_is_given() -> None:
    bank = phrase_bank()
    closing_slots = dict.fromkeys(
        ("first", "product", "amount", "resolution", "wish", "Wish", "why", "why_list"), "x"
    ) | dict.fromkeys(("why_short", "basis", "notes", "days", "price", "tier", "sign"), "x")
    for texts in bank.closings.values():
        for text in texts:
            text.format(**closing_slots)
    condition_slots = closing_slots | {"limit": "x", "value": "x"}
    for phrases in bank.reasons.values():
        for text in phrases.sentence + phrases.short:
            text.format(**condition_slots)
    for texts in bank.grounds.values():
        for text in texts:
            text.format(**condition_slots)
    for texts in bank.basis.values():
        for text in texts:
            text.format(grounds="x")
    assert OTHER in bank.basis and OTHER in bank.closings


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    target = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def declined_closings(rules: Path, count: int = 30) -> list[str]:
    """Closings of loyalty cases (a refund declined) under the edited rules."""
    env = NovamartEnvironment(kernel=PolicyKernel(rules))
    return [messages(play(env, "honest", "loyalty_negotiation", s))[0] for s in range(count)]


def test_the_window_it_states_is_the_one_the_rules_set(rules: Path) -> None:
    edit(rules / "standard_return.yaml", "days_since_purchase <= 30", "days_since_purchase <= 21")
    for closing in declined_closings(rules):
        assert re.search(r"\b21\b", closing), closing
        assert not re.search(r"\b30(-day| days)\b", closing), closing


def test_a_condition_it_has_no_phrasing_for_is_said_in_the_rules_words(rules: Path) -> None:
    edit(
        rules / "standard_return.yaml",
        "  - name: item_unopened\n",
        "  - name: eligible_category\n"
        "    test: order.category in [phone]\n"
        "    reason: standard returns only cover phones, and this is a {order.category}\n"
        "  - name: item_unopened\n",
    )
    env = NovamartEnvironment(kernel=PolicyKernel(rules))
    said = 0
    for seed in range(30):
        run = play(env, "honest", "loyalty_negotiation", seed)
        episode = env.episode
        category = episode.scenario.order.category
        if category == "phone":
            continue
        reason = f"standard returns only cover phones, and this is a {category}"
        assert reason in messages(run)[0].lower(), messages(run)[0]
        said += 1
    assert said >= 10


def test_a_bank_without_phrasings_still_writes_from_the_rules(env: NovamartEnvironment) -> None:
    bank = phrase_bank()
    generic = {k: bank.closings[k] for k in (OTHER, f"{OTHER}_declined")}
    bare = PhraseBank.model_validate(bank.model_dump() | {"reasons": {}, "closings": generic})
    run = run_episode(env, AGENTS["oracle"](3), "loyalty_negotiation", 3)
    assert run.final_score > 0
    closing = honest_closing(env.episode, 3, bare)
    for reason in env.episode.truth.blocking_reasons("full_refund"):
        assert reason in closing.lower() or reason[0].upper() + reason[1:] in closing


def test_an_overriding_escalation_is_explained_by_what_the_customer_reported() -> None:
    """No task draws a safety sign yet: the writer is given an episode whose ticket shows a
    swelling battery on an order a refund would otherwise cover."""
    rules = default_kernel().snapshot()
    scenario = build_scenario("easy_refund", 4)
    facts = scenario.facts().with_kind(
        "ticket", {**scenario.ticket_fact(), "battery_swelling": True}
    )
    truth = rules.decide(facts)
    assert truth.optimal is not None and truth.optimal.resolution == "escalate"
    episode = Episode(
        task=ORDER_TASKS["easy_refund"],
        scenario=scenario,
        rules=rules,
        truth=truth,
        facts=facts,
        needed=(frozenset({"lookup_order"}),),
        known={"order": scenario.order_fact(), "ticket": facts.present()["ticket"]},
        executed=truth.optimal,
    )
    bank = phrase_bank()
    signs = bank.signs["battery_swelling"]
    for seed in range(20):
        closing = honest_closing(episode, seed)
        assert "manager" in closing and any(sign in closing for sign in signs), closing
