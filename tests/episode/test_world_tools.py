"""Generic write tools over declared resolutions, episode state and events, played end to end
in the fixture world (tests/kernel/fixtures/retail_world) through the real tools."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from novamart.analyst.checks import check_rules
from novamart.kernel import RulebookError
from novamart.tools.declared import declared_tools
from tests.episode.world import DELIVERED, PENDING, WORLD, play, world_episode, world_rules

RETURN = "return_delivered_order_items"
MODIFY = "modify_pending_order_items"
LISTED = "I will return items I1 and I2 of order #W1, refunded to gift_card_1. Go ahead?"
YES = "Yes please go ahead."


def _returning(replies: list[str]) -> object:
    """A delivered-order episode looked up, paid-for checked and authenticated."""
    episode = world_episode(DELIVERED, replies)
    for tool, args in (
        ("lookup_order", {"order_id": "#W1"}),
        ("check_payment", {"order_id": "#W1"}),
        ("find_user", {"email": " ADA@example.com"}),
    ):
        assert play(episode, tool, **args)["ok"]
    return episode


def _return(episode: object, *items: str) -> dict:
    ids = list(items or ("I1", "I2"))
    return play(episode, RETURN, order_id="#W1", item_ids=ids, payment_method_id="gift_card_1")


def test_rules_check_accepts_the_world_its_write_tools_generated_from_it() -> None:
    rulebook = check_rules(WORLD)
    tools = declared_tools(rulebook)
    assert set(tools) == {spec.tool for spec in rulebook.resolutions.values() if spec.declares_call}
    assert "escalate_to_manager" not in tools  # a built-in tool carries escalate
    schema = tools[RETURN].schema
    assert schema["required"] == ["order_id", "item_ids", "payment_method_id"]
    assert schema["properties"]["reason"]["enum"] == [
        "no longer needed",
        "ordered by mistake",
        "other",
    ]


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"order_id": "#W1", "item_ids": ["I1"]}, "payment_method_id: Field required"),
        ({"order_id": "#W1", "item_ids": [], "payment_method_id": "gift_card_1"}, "item_ids"),
        (
            {"order_id": "#W1", "item_ids": ["I9"], "payment_method_id": "gift_card_1"},
            "'I9' is not a item",
        ),
        (
            {"order_id": "I1", "item_ids": ["I1"], "payment_method_id": "gift_card_1"},
            "'I1' is not a order",
        ),
        (
            {
                "order_id": "#W1",
                "item_ids": ["I1"],
                "payment_method_id": "gift_card_1",
                "reason": "meh",
            },
            "reason: Input should be",
        ),
        (
            {
                "order_id": "#W1",
                "item_ids": ["I1"],
                "payment_method_id": "gift_card_1",
                "note": "x",
            },
            "note: Extra inputs",
        ),
    ],
)
def test_bad_arguments_are_a_typed_error_and_the_session_goes_on(arguments: dict, says: str):
    episode = _returning([])
    result = play(episode, RETURN, **arguments)
    assert result["error"]["code"] == "invalid_arguments" and says in result["error"]["message"]
    assert episode.carried == [] and episode.world().record("order")["status"] == "delivered"
    assert play(episode, "lookup_order", order_id="#W1")["ok"]


def test_ids_the_agent_has_not_seen_are_refused_before_the_look_up() -> None:
    episode = world_episode(DELIVERED)
    result = _return(episode)
    assert "no order known yet" in result["error"]["message"]  # and no hidden id is shown
    assert "#W1" not in result["error"]["message"].replace("'#W1'", "")


def test_a_return_played_end_to_end_needs_identity_and_a_yes_then_changes_the_world() -> None:
    episode = world_episode(DELIVERED, ["yes, but wait", YES])
    assert play(episode, "lookup_order", order_id="#W1")["ok"]
    assert play(episode, "check_payment", order_id="#W1")["balance"] == 100
    refused = _return(episode)
    assert refused["error"]["code"] == "not_allowed"
    assert "requires identity_verified first" in refused["error"]["message"]
    assert play(episode, "find_user", email="eve@example.com")["error"]["code"] == "wrong_customer"
    assert "requires identity_verified first" in _return(episode)["error"]["message"]
    assert (
        play(episode, "find_user", name="ada lovelace", zip="02139")["verified_by"]
        == "name and zip"
    )
    refused = _return(episode)
    assert refused["error"]["reasons"] == [
        "return_items requires confirmed first, and it has not happened yet"
    ]
    play(episode, "respond_to_customer", message=LISTED)  # "yes, but wait" is not a yes
    assert "requires confirmed first" in _return(episode)["error"]["message"]
    play(episode, "respond_to_customer", message=LISTED)
    assert [(e.event, e.source) for e in episode.events] == [
        ("identity_verified", "find_user"),
        ("confirmed", "customer"),
    ]
    done = _return(episode)
    assert done["ok"] and done["amount"] == 80 and done["policy"] == "return_delivered"
    world = episode.world()
    assert world.record("order")["status"] == "return requested"
    assert [m["status"] for m in world.collection("item")] == ["return requested"] * 2 + [
        "delivered"
    ]
    assert world.record("payment")["balance"] == 180
    assert episode.known["payment"]["balance"] == 180  # what the agent knows changed with it
    assert episode.known["event"]["confirmed"] is False  # every write needs its own yes
    assert play(episode, "lookup_order", order_id="#W1")["status"] == "return requested"
    [record] = episode.carried
    assert (record.resolution, record.step, record.truth) == ("return_items", 11, "carried out")
    assert record.arguments["item_ids"] == ["I1", "I2"] and record.arguments["reason"] == "other"


def test_a_yes_counts_only_after_the_details_were_listed() -> None:
    episode = _returning([YES, YES, YES])
    play(episode, "respond_to_customer", message="Shall I go ahead with the return?")  # no ids
    assert [e.event for e in episode.events] == ["identity_verified"]
    play(episode, "respond_to_customer", message=LISTED.replace("I1", "I11").replace("#W1", "#W12"))
    assert [e.event for e in episode.events] == ["identity_verified"]  # not this order's ids
    play(episode, "respond_to_customer", message=LISTED)
    assert [e.event for e in episode.events] == ["identity_verified", "confirmed"]


@pytest.mark.parametrize(
    "reply", ["yes please go ahead?", "No, don't go ahead", "I'm not sure", "ok"]
)
def test_an_unclear_reply_is_not_a_yes(reply: str) -> None:
    episode = _returning([reply])
    play(episode, "respond_to_customer", message=LISTED)
    assert [e.event for e in episode.events] == ["identity_verified"]
    assert "requires confirmed first" in _return(episode)["error"]["message"]


def test_items_are_modified_once_the_second_is_refused_on_the_state_it_left() -> None:
    episode = world_episode(PENDING, [YES, YES])
    for tool, args in (
        ("lookup_order", {"order_id": "#W2"}),
        ("check_payment", {"order_id": "#W2"}),
        ("find_user", {"email": "ada@example.com"}),
    ):
        assert play(episode, tool, **args)["ok"]

    def modify(item: str) -> dict:
        message = f"I will modify item {item} of order #W2, paid by gift_card_2. Go ahead?"
        play(episode, "respond_to_customer", message=message)
        return play(
            episode, MODIFY, order_id="#W2", item_ids=[item], payment_method_id="gift_card_2"
        )

    first = modify("P1")
    assert first["ok"] and first["amount"] == 5
    second = modify("P2")
    assert second["error"]["code"] == "not_allowed" and second["error"]["instead"] == "decline"
    assert "the order is pending (item modified)" in second["error"]["message"]
    world = episode.world()
    assert world.record("order")["status"] == "pending (item modified)"
    assert [m["price"] for m in world.collection("item")] == [45, 10]
    assert world.record("payment")["balance"] == 15
    assert [r.resolution for r in episode.carried] == ["modify_items"]
    declined = play(episode, "decline", explanation="items are modified only once")
    assert declined["ok"] and declined["declines"] == "modify_items"
    assert declined["policy"] == "decline_out_of_policy"
    record = episode.carried[-1]
    assert (record.resolution, record.truth) == ("decline", "declined")
    assert record.arguments["declines"]["item_ids"] == ["P2"]
    assert "no request to decline" in play(episode, "decline")["error"]["message"]  # once


def test_decline_declines_only_a_request_the_policies_decline() -> None:
    episode = _returning([])
    assert "no request to decline" in play(episode, "decline")["error"]["message"]
    assert "requires confirmed first" in _return(episode)["error"]["message"]
    refused = play(episode, "decline", explanation="no")
    assert refused["error"]["code"] == "not_allowed"
    assert "do not decline return_items" in refused["error"]["message"]
    assert episode.carried == []


def test_closed_book_carries_out_as_asked_and_keeps_what_the_truth_says() -> None:
    episode = world_episode(DELIVERED, mode="closed_book")
    play(episode, "lookup_order", order_id="#W1")
    done = _return(episode, "I3")  # a final-sale item, no identity, no yes
    assert done["ok"] and "policy" not in done and done["amount"] == 20  # its declared amount
    assert episode.world().collection("item")[2]["status"] == "return requested"
    [record] = episode.carried
    assert record.truth == "declined" and record.policy == ""


def _copy(tmp_path: Path) -> Path:
    return Path(shutil.copytree(WORLD, tmp_path / "world"))


def test_a_declared_resolution_naming_a_built_in_tool_is_refused(tmp_path: Path) -> None:
    world = _copy(tmp_path)
    catalogue = world / "resolutions.yaml"
    text = catalogue.read_text()
    catalogue.write_text(text.replace("tool: cancel_pending_order", "tool: process_refund", 1))
    with pytest.raises(RulebookError, match="'process_refund' is a built-in tool"):
        check_rules(world)
    catalogue.write_text(text.replace("tool: cancel_pending_order", "tool: decline", 1))
    with pytest.raises(RulebookError, match="'decline' already carries out cancel_order"):
        check_rules(world)


def test_the_shipped_tools_carry_out_the_resolution_the_catalogue_names_them_for() -> None:
    rules = world_rules()
    episode = world_episode(DELIVERED)
    assert rules.rulebook.resolutions["escalate"].tool == "escalate_to_manager"
    play(episode, "lookup_order", order_id="#W1")
    play(episode, "escalate_to_manager", order_id="#W1", reason="a manager should look")
    assert episode.attempted == ["escalate"]


WORLD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 10_000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["#W1", "I1", "I3", "gift_card_1", "other", "ada@example.com", ""]),
    st.text(max_size=20),
    st.lists(st.sampled_from(["I1", "I2", "I3", "I1", "#W1", 7]), max_size=4),
)
WORLD_ARGS = st.sampled_from(
    ["order_id", "item_ids", "payment_method_id", "reason", "explanation", "email", "message"]
)


@settings(max_examples=80, deadline=None)
@given(
    calls=st.lists(
        st.tuples(
            st.sampled_from([*world_episode(DELIVERED).offered, "bogus"]),
            st.dictionaries(WORLD_ARGS, WORLD_VALUES, max_size=4),
        ),
        max_size=10,
    ),
    mode=st.sampled_from(["guided", "closed_book"]),
)
def test_arbitrary_world_calls_are_answered_with_data(calls: list, mode: str) -> None:
    """However wrong, a call to a generated tool is answered, never raised; the world only
    changes by what was carried out, and stays a valid fact set."""
    episode = world_episode(DELIVERED, ["Yes please go ahead."] * 10, mode=mode)
    for tool, arguments in calls:
        result = play(episode, tool, **arguments)
        assert isinstance(result["ok"], bool)
        if not result["ok"]:
            assert result["error"]["code"] and result["error"]["message"]
    world = episode.world()
    assert world is world_rules().rulebook.facts.check(world)
    if not episode.carried:
        assert world.record("order")["status"] == "delivered"
