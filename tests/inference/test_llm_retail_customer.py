"""``--customer llm`` for retail: a model (the stand-in, on loopback) words the customer's
replies; the talk (requests settled or refused, closed) stays the deterministic customer's.

The model is told the customer's profile, its character's voice, the stop contract and, on the
turn the agent lists every detail of a write, the exact words of the yes. It cannot end the
conversation with a request open (tau2-bench #182), nor give a yes by itself."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from novamart.evaluation.chat import MissingApiKey
from novamart.evaluation.llm_customer import STOP, TONES, CustomerUnavailable
from novamart.evaluation.llm_retail_customer import LLMRetailCustomer, system_prompt
from novamart.kernel import events
from novamart.retail import tools
from novamart.retail.session import RetailSession
from novamart.scenarios.retail_customer import Profile, case, describe, opening, start
from novamart.scenarios.retail_requests import RetailTask
from novamart.scenarios.retail_world import retail_kernel
from novamart.tools.confirmation import says
from tests.inference.standin import Answer, StandIn, serve, status, text

YES = events.from_reply(retail_kernel().rulebook.facts)["confirmed"]


def first_case(
    family: str, wanted: Callable[[RetailTask, Profile], bool]
) -> tuple[RetailTask, Profile]:
    return next(found for s in range(200) if wanted(*(found := case(family, s))))


def plain_exchange(task: RetailTask, p: Profile) -> bool:
    """An exchange the kernel carries out, of a customer who will not change its mind."""
    return task.settled[0].status == "carried out" and p.wishes[0].changed_to is None


@contextmanager
def model(*answers: Answer) -> Iterator[tuple[StandIn, LLMRetailCustomer]]:
    """A stand-in customer model giving ``answers`` in turn, then the last one for ever."""
    with serve(lambda _body, i: answers[min(i, len(answers) - 1)]) as stand_in:
        env = {
            "CUSTOMER_API_BASE_URL": stand_in.url,
            "CUSTOMER_MODEL_NAME": "customer-model",
            "CUSTOMER_API_KEY": "customer-key",
        }
        yield stand_in, LLMRetailCustomer.from_environ(env, retries=0)


def brief(request: dict[str, Any]) -> str:
    system = request["messages"][0]
    assert system["role"] == "system"
    return str(system["content"])


def proposal(p: Profile, leave_out: str = "") -> str:
    """An agent's message listing every detail of the first wish, bar ``leave_out``."""
    wish = p.wishes[0]
    request = wish.request
    parts = {
        "order": f"order {request.order_id}",
        "items": "items " + ", ".join(request.item_ids),
        "variants": "new variants " + ", ".join(v for _, v in request.targets),
        "amount": f"an amount of ${abs(wish.amount or 0):,.2f}",
        "payment": "payment method " + str(request.call.arguments.get("payment_method_id", "")),
    }
    listed = ", ".join(v for k, v in parts.items() if k != leave_out)
    return f"Here is what I will do: {request.call.resolution} on {listed}. Shall I proceed?"


def test_a_stop_token_with_a_request_open_ends_nothing() -> None:
    p = replace(first_case("retail_compound", lambda t, _p: len(t.settled) >= 2)[1], other=None)
    with model(text(f"Thanks, bye! {STOP}")) as (stand_in, customer):
        talk = start(p)
        for agent in ("Is there anything else?", "Goodbye, have a nice day!"):
            talk, said = customer.reply(p, talk, agent)
            assert not talk.closed and talk.open() == list(range(len(p.wishes)))
            assert said == "Thanks, bye!"
        first = talk.current[0].order_id
        talk, said = customer.reply(p, talk, f"Your request on order {first} has been done.")
        assert talk.open() and not talk.closed and STOP not in said
        for _ in p.wishes:
            if talk.closed:
                break
            order = talk.current[talk.open()[0]].order_id
            talk, said = customer.reply(p, talk, f"I cannot do anything more for order {order}.")
        assert talk.closed and not talk.open() and STOP not in said
        assert customer.reply(p, talk, "Anything else?") == (talk, "")
    # the conversation from the customer's side, its opening first, the agent's message last
    second = stand_in.requests[1]["messages"]
    assert second[1] == {"role": "assistant", "content": opening(p)}
    assert second[2:] == [
        {"role": "user", "content": "Is there anything else?"},
        {"role": "assistant", "content": "Thanks, bye!"},
        {"role": "user", "content": "Goodbye, have a nice day!"},
    ]
    assert STOP in brief(stand_in.requests[-1]) and "end your message" in brief(
        stand_in.requests[-1]
    )


def test_the_model_is_told_the_profile_and_given_the_seed() -> None:
    _task, p = first_case(
        "retail_compound",
        lambda _t, q: (
            q.other is not None
            and any(w.changed_to for w in q.wishes)
            and q.order_numbers != "unknown"
        ),
    )
    with model(text("Sure, my email is on file.")) as (stand_in, customer):
        customer.reply(p, start(p), "Hello! How can I help?")
    (request,) = stand_in.requests
    assert request["model"] == "customer-model" and request["seed"] == p.world.seed
    assert "tools" not in request
    told = brief(request)
    c = p.customer
    assert all(part in told for part in (c.name, c.email, c.zip, *(o.order_id for o in c.orders)))
    assert all(m.payment_id in told for m in c.payments)
    assert all(describe(p.world, w.request) in told for w in p.wishes)
    changed = next(w.changed_to for w in p.wishes if w.changed_to)
    assert changed is not None and describe(p.world, changed) in told
    assert p.other is not None and p.other.order_id in told and p.other.name in told
    assert TONES[p.tone] in told and STOP in told
    assert f"answer with exactly: {p.yes}" not in told


def test_the_model_is_told_the_characters_voice_and_order_number_habit() -> None:
    """The persona is the character's drawn voice; a customer that does not know its order
    numbers is not told them."""
    _task, p = first_case("retail_compound", lambda _t, q: q.order_numbers == "unknown")
    for tone in ("polite", "frustrated", "terse"):
        told = system_prompt(replace(p, tone=tone))
        assert [t for t in TONES if TONES[t] in told] == [tone]
    told = system_prompt(p)
    assert not any(o.order_id in told for o in p.customer.orders)
    assert "do not know your order numbers" in told
    known = system_prompt(replace(p, order_numbers="when asked"))
    assert all(o.order_id in known for o in p.customer.orders)


def test_the_yes_is_the_rulebooks_words_and_only_once_every_detail_is_listed() -> None:
    p = replace(first_case("retail_exchange", plain_exchange)[1], other=None, tone="polite")
    with model(text(p.yes)) as (stand_in, customer):
        talk, said = customer.reply(p, start(p), proposal(p, leave_out="amount"))
        assert not says(said, YES)  # the model's yes is not taken
        assert said.startswith("Before I say yes") and "the amount" in said
        talk, said = customer.reply(p, talk, proposal(p))
        assert said == p.yes and says(said, YES)
    missing, listed = (brief(r) for r in stand_in.requests)
    assert f"answer with exactly: {p.yes}" not in missing and "Do not agree" in missing
    assert f"answer with exactly: {p.yes}" in listed


def test_without_a_key_nothing_is_sent() -> None:
    with serve(lambda _body, _i: text("hello")) as stand_in:
        with pytest.raises(MissingApiKey, match="CUSTOMER_API_KEY"):
            LLMRetailCustomer.from_environ({"CUSTOMER_API_BASE_URL": stand_in.url})
        assert stand_in.requests == []


def test_a_silent_model_stops_the_conversation_with_a_clear_error() -> None:
    p = case("retail_return", 0)[1]
    with (
        model(status(500)) as (stand_in, customer),
        pytest.raises(CustomerUnavailable, match="gave no reply"),
    ):
        customer.reply(p, start(p), "Hello!")
    assert len(stand_in.requests) == 1


def test_the_session_takes_it_in_place_of_the_scripted_customer() -> None:
    task, p = case("retail_return", 1)
    with model(text(f"My email is {p.customer.email}. {STOP}")) as (_stand_in, customer):
        session = RetailSession.start(task, p, "guided", 20, customer=customer)
        answer = session.say("Could you give me your email address?")
    assert answer == f"My email is {p.customer.email}."
    assert session.talk.identified and not session.talk.closed and not session.done
    assert session.conversation[-1] == f"customer: {answer}"


def test_the_session_hears_the_models_yes_only_when_every_detail_was_listed() -> None:
    task, p = first_case("retail_exchange", plain_exchange)
    with model(text(p.yes)) as (_stand_in, customer):
        session = RetailSession.start(task, replace(p, other=None), "guided", 20, customer)
        heard = tools.call(session, "respond_to_customer", {"message": proposal(p, "amount")})
        assert heard["ok"] and not says(heard["customer_reply"], YES)
        assert session.yes_to is None
        listed = proposal(p)
        heard = tools.call(session, "respond_to_customer", {"message": listed})
        assert heard["customer_reply"] == p.yes and session.yes_to == listed
