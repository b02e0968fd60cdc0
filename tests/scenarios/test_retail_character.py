"""Retail task characters (rules/retail/world/characters.yaml): every retail task has one, a
bad entry is a CharacterError naming the entry and the field, and each knob moves the
customer it describes (the real file, the real world draw, the real kernel)."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from novamart.kernel import events
from novamart.scenarios.personas import GREETINGS, TONES
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.retail_character import (
    CharacterError,
    RetailCharacter,
    parse,
    retail_character,
    retail_characters,
)
from novamart.scenarios.retail_customer import Profile, case, opening, profile, reply, start
from novamart.scenarios.retail_requests import RetailTask
from novamart.scenarios.retail_voice import VOICES
from novamart.scenarios.retail_world import retail_kernel, world_spec
from novamart.scenarios.tasks import RETAIL_TASKS
from novamart.tools.confirmation import says

FAMILIES = world_spec()["requests"]["families"]
SEEDS = range(200)
GOOD: dict[str, Any] = {
    "requests": "compound",
    "voices": {"polite": 1},
    "change_of_mind": 0.3,
    "acts_for_other": 0.2,
    "identify_by": {"email": 1},
    "order_numbers": {"when asked": 1},
}


@pytest.fixture(scope="module")
def compound() -> list[RetailTask]:
    return [case("retail_compound", seed)[0] for seed in SEEDS]


def played(tasks: list[RetailTask], **knobs: Any) -> list[Profile]:
    """The customers of ``tasks`` as the compound character with ``knobs`` plays them."""
    character = retail_character("retail_compound").model_copy(update=knobs)
    return [profile(t, t.seed, character) for t in tasks]


def test_every_retail_task_has_a_character_and_every_character_a_task() -> None:
    characters = retail_characters()
    assert set(characters) == set(RETAIL_TASKS)
    for name, character in characters.items():
        assert character.name == name and character.requests in FAMILIES
    assert {c.requests for c in characters.values()} == set(FAMILIES)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"change_of_mind": 1.5}, "change_of_mind"),
        ({"acts_for_other": -0.1}, "acts_for_other"),
        ({"voices": {"angry": 1}}, "voices.angry"),
        ({"voices": {}}, "voices"),
        ({"identify_by": {"email": 0}}, "identify_by.email"),
        ({"identify_by": {"phone": 1}}, "identify_by.phone"),
        ({"order_numbers": {"always": 1}}, "order_numbers.always"),
        ({"requests": "haggling"}, "requests"),
        ({"patience": 3}, "patience"),
    ],
)
def test_a_bad_entry_is_a_typed_error_naming_the_entry_and_the_field(
    change: dict[str, Any], field: str
) -> None:
    with pytest.raises(CharacterError) as raised:
        parse({"retail_bad": {**GOOD, **change}}, FAMILIES)
    assert isinstance(raised.value, ScenarioError)
    assert (raised.value.entry, raised.value.field) == ("retail_bad", field)
    assert str(raised.value).startswith(f"retail character retail_bad: {field}: ")


def test_a_missing_field_and_a_file_not_of_entries_are_named_too(tmp_path: Path) -> None:
    spec = {k: v for k, v in GOOD.items() if k != "identify_by"}
    with pytest.raises(CharacterError, match="retail_bad: identify_by: Field required"):
        parse({"ok": GOOD, "retail_bad": spec}, FAMILIES)
    with pytest.raises(CharacterError, match="retail_bad: \\(entry\\)"):
        parse({"retail_bad": ["requests", "compound"]}, FAMILIES)
    bad = tmp_path / "characters.yaml"
    bad.write_text("- just a list\n", encoding="utf-8")
    with pytest.raises(CharacterError, match="top level"):
        retail_characters(bad)
    assert isinstance(parse({"retail_ok": GOOD}, FAMILIES)["retail_ok"], RetailCharacter)


def test_a_task_without_a_character_is_named() -> None:
    with pytest.raises(CharacterError, match="retail_nobody: \\(entry\\): no character"):
        retail_character("retail_nobody")


def test_change_of_mind_zero_never_one_always_where_an_item_can_go(
    compound: list[RetailTask],
) -> None:
    never = played(compound, change_of_mind=0.0)
    assert not any(w.changed_to for p in never for w in p.wishes)
    always = played(compound, change_of_mind=1.0)
    droppable = 0
    for task, p in zip(compound, always, strict=True):
        changed = [w for w in p.wishes if w.changed_to is not None]
        can = any(len(r.item_ids) >= 2 for r in task.requests)
        assert len(changed) == can, task.seed  # once, wherever a request has an item to drop
        for wish in changed:
            assert wish.changed_to is not None
            assert set(wish.changed_to.item_ids) < set(wish.request.item_ids)
            assert len(wish.changed_to.item_ids) == len(wish.request.item_ids) - 1
        droppable += can
    assert droppable >= 60


def test_acting_for_another_zero_never_one_always(compound: list[RetailTask]) -> None:
    assert not any(p.other for p in played(compound, acts_for_other=0.0))
    always = played(compound, acts_for_other=1.0)
    assert all(p.other is not None for p in always)
    for p in always:
        assert p.other is not None and p.other.order_id not in {
            o.order_id for o in p.customer.orders
        }


def test_identify_by_is_the_habit_asked_to_verify(compound: list[RetailTask]) -> None:
    for habit, shows in (("email", "email"), ("name and zip", "zip")):
        for p in played(compound[:40], identify_by={habit: 1.0}):
            assert p.identify_by == habit
            said = reply(p, start(p), "First I need to verify who you are.")[1]
            value = p.customer.email if shows == "email" else p.customer.zip
            assert value in said
    mixed = played(compound, identify_by={"email": 3.0, "name and zip": 1.0})
    share = sum(p.identify_by == "email" for p in mixed) / len(mixed)
    assert 0.62 <= share <= 0.88


def test_the_order_number_habit(compound: list[RetailTask]) -> None:
    ask = "What is the order number?"
    verify = "Could you give me the email on your account?"
    for p in played(compound[:40], order_numbers={"unknown": 1.0}):
        ids = {o.order_id for o in p.customer.orders}
        said = reply(p, start(p), ask)[1]
        assert not any(i in said for i in ids) and said == p.voice.no_order_numbers
    for p in played(compound[:40], order_numbers={"volunteers": 1.0}):
        talk, said = reply(p, start(p), verify)
        assert all(w.request.order_id in said for w in p.wishes) and p.customer.email in said
        assert not any(w.request.order_id in reply(p, talk, "One moment.")[1] for w in p.wishes)
    for p in played(compound[:40], order_numbers={"when asked": 1.0}):
        assert not any(w.request.order_id in reply(p, start(p), verify)[1] for w in p.wishes)
        assert all(w.request.order_id in reply(p, start(p), ask)[1] for w in p.wishes)


def test_the_voice_words_the_turns_and_the_facts_stay(compound: list[RetailTask]) -> None:
    p = played(compound[:1], acts_for_other=0.0, order_numbers={"when asked": 1.0})[0]
    facts = {}
    for tone in TONES:
        voiced = replace(p, tone=tone, greeting=GREETINGS[tone][0])
        voice = VOICES[tone]
        text = opening(voiced)
        assert text.startswith(GREETINGS[tone][0])
        assert voice.opening.split("{wants}")[0].split("}")[-1].strip() in text
        said = reply(voiced, start(voiced), "Is there anything else?")[1]
        assert said.startswith(voice.restate.split("{")[0]), said
        facts[tone] = (
            reply(voiced, start(voiced), "Your email, please?")[1],
            reply(voiced, start(voiced), "The order number?")[1],
        )
    assert len({opening(replace(p, tone=t, greeting=GREETINGS[t][0])) for t in TONES}) == 3
    assert len(set(facts.values())) == 1  # what is said is the same facts in every voice


def test_no_voice_line_reads_as_the_yes() -> None:
    yes = events.from_reply(retail_kernel().rulebook.facts)["confirmed"]
    words = retail_kernel().rulebook.facts.kinds["event"].fields["confirmed"].says_true
    lines = [getattr(v, f.name) for v in VOICES.values() for f in fields(v)]
    lines += [g for tone in TONES for g in GREETINGS[tone]]
    for line in lines:
        assert not says(line, yes), line
        assert not any(w in line.lower() for w in words), line


def test_voices_are_drawn_by_their_weights(compound: list[RetailTask]) -> None:
    weights = retail_character("retail_compound").voices
    drawn = [p.tone for p in played(compound)]
    for tone, weight in weights.items():
        share = drawn.count(tone) / len(drawn)
        assert abs(share - weight / sum(weights.values())) < 0.1, (tone, share)
    assert set(drawn) == set(weights)
