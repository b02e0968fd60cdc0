"""An LLM plays the retail customer (issue 20 item 5, ``--customer llm``), with the contract of
the deterministic one: ``reply(profile, talk, agent) -> (talk, text)``.

The model writes the words; the conversation's state is not its to keep. Each turn the
deterministic customer (novamart.scenarios.retail_customer.reply) reads the agent's message
first: which requests it reports done or refused, whether it asks who the customer is, when
the customer changes its mind or asks about someone else's order, and whether the message
lists every detail of the write proposed (``details_missing`` empty). The talk it returns is
the talk; what it would say is the turn's brief to the model. So:

- the customer closes only when no request is open: a ``###STOP###`` (tau-bench's stop token)
  while one is open is taken out and ignored (the early stop of tau2-bench #182 cannot end a
  conversation), and the talk closes when the last request is settled or refused, token or
  not;
- the yes is never the model's to give: only on a turn where the deterministic customer says
  the rulebook's yes (every detail listed) is the model told the exact words to agree with; a
  reply that reads as the yes (novamart.tools.confirmation.says, as the session reads it) on
  any other turn is replaced by the deterministic customer's words.

The model sees the customer's profile (name, email, zip, its orders as it knows them, its
wishes as ``describe`` puts them with the reasons it gives when asked, its change of mind,
the other customer's order it may ask about, whether it knows its order numbers), the tone
of the voice its task's character drew (novamart.scenarios.retail_character), and the
conversation from the customer's side (its lines as the assistant). Each request carries the
case's seed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from novamart.evaluation.chat import ChatModel, LLMSettings, ModelUnavailable
from novamart.evaluation.llm_customer import (
    CUSTOMER_VARIABLES,
    STOP,
    TONES,
    CustomerUnavailable,
    split_stop,
)
from novamart.kernel import events
from novamart.scenarios import retail_customer as scripted
from novamart.scenarios.retail_character import OrderNumbers
from novamart.scenarios.retail_customer import METHOD_WORDS, Profile, Talk
from novamart.scenarios.retail_world import World, retail_kernel
from novamart.tools.confirmation import says


class LLMRetailCustomer:
    """A retail customer (novamart.scenarios.retail_customer.RetailCustomer) whose words come
    from a chat model and whose state is the deterministic customer's."""

    def __init__(self, model: ChatModel) -> None:
        self.model = model

    @classmethod
    def from_environ(
        cls, environ: Mapping[str, str] = os.environ, **overrides: Any
    ) -> LLMRetailCustomer:
        """Configured by CUSTOMER_API_BASE_URL, CUSTOMER_MODEL_NAME and CUSTOMER_API_KEY
        (``overrides``, e.g. ``model=``, win); MissingApiKey, before anything is sent, when no
        key is set."""
        settings = LLMSettings.from_environ(environ, CUSTOMER_VARIABLES, **overrides)
        return cls(ChatModel(settings, variables=CUSTOMER_VARIABLES))

    def reply(self, p: Profile, talk: Talk, agent: str) -> tuple[Talk, str]:
        if talk.closed:
            return talk, ""
        after, planned = scripted.reply(p, talk, agent)
        agrees = planned.endswith(p.yes)
        messages = [
            {
                "role": "system",
                "content": f"{system_prompt(p)}\n\n{_brief(p, after, planned)}",
            },
            {"role": "assistant", "content": scripted.opening(p)},
        ]
        for heard, answered in talk.said:
            messages += [
                {"role": "user", "content": heard},
                {"role": "assistant", "content": answered},
            ]
        messages.append({"role": "user", "content": agent})
        try:
            answer = self.model.complete(messages, seed=p.world.seed)
        except ModelUnavailable as exc:
            raise CustomerUnavailable(f"the customer's model gave no reply: {exc}") from exc
        text, _ = split_stop(answer.content or "")  # closing is the talk's, not the token's
        if not text or (not agrees and _reads_as_yes(text)):
            text = planned
        return replace(after, said=(*talk.said, (agent, text))), text


def system_prompt(p: Profile) -> str:
    """The customer's brief: who it is, what it has and wants, how it behaves (its voice's
    tone), the stop contract and the rule of the yes."""
    c = p.customer
    asked = "email" if p.identify_by == "email" else "name and zip code"
    known = p.order_numbers != "unknown"
    lines = [
        f"You are {c.name}, a NovaMart customer, chatting with a support agent. Write only the "
        "customer's next message: one to three sentences, no stage directions.",
        f"Who you are: email {c.email}, name {c.name}, zip code {c.zip}. Give them when asked; "
        f"asked to verify yourself without being told how, give your {asked}.",
        "Your payment methods: "
        + "; ".join(f"{METHOD_WORDS[m.method]} {m.payment_id}" for m in c.payments)
        + ".",
        "Your orders:",
        *(f"- {_order(p.world, o.order_id, p, known)}" for o in c.orders),
        ORDER_NUMBERS[p.order_numbers],
        "What you want, in this order:",
    ]
    for number, wish in enumerate(p.wishes, 1):
        lines.append(f"{number}. {scripted.describe(p.world, wish.request)}.")
        if why := scripted.reason(p.world, wish.request):
            lines.append(f"   Asked why: {why}")
        if wish.changed_to is not None:
            lines.append(
                "   When the agent first lists what it will do for this, you change your mind: "
                f"{scripted.describe(p.world, wish.changed_to)} (you will be told when)."
            )
    if p.other is not None:
        lines.append(
            f"Once you have been verified, you also ask the agent to cancel order "
            f"{p.other.order_id}: it is {p.other.name}'s, who asked you to sort it out (you "
            "will be told when)."
        )
    lines += [
        TONES[p.tone],
        "Answer the agent's questions from these facts only; never invent ids, amounts or "
        "other facts.",
        "Never agree to an action in words of your own: agree only when a note below gives you "
        "the exact words of your yes, and then answer with exactly those words.",
        f"When every one of your requests is done or refused and the agent has told you so, "
        f"end your message with {STOP}. Never write {STOP} while a request is still open.",
    ]
    return "\n".join(lines)


ORDER_NUMBERS: dict[OrderNumbers, str] = {
    "when asked": "Give the order numbers of what you want only when asked.",
    "volunteers": "When you give who you are, give the order numbers of what you want too.",
    "unknown": "You do not know your order numbers: asked, say so and let the agent find them "
    "on your account.",
}
"""The customer's habit with its order numbers (its character's ``order_numbers``)."""


def _order(world: World, order_id: str, p: Profile, numbered: bool) -> str:
    order = p.customer.order(order_id)
    paid = p.customer.payment(order.paid_with)
    items = ", ".join(
        f"{world.product(i.product_id).name} ({world.variant(i.variant_id).label()}) ${i.price:.2f}"
        for i in order.items
    )
    number = f"order {order.order_id}" if numbered else "an order"
    return (
        f"{number}, {order.status}, to {order.address}, paid with "
        f"{METHOD_WORDS[paid.method]} {paid.payment_id}: {items}"
    )


def _brief(p: Profile, talk: Talk, planned: str) -> str:
    """This turn's note: what the deterministic customer would get across, and whether the
    requests still open forbid ending the conversation."""
    if talk.closed:
        return (
            f"Note for this reply: every request of yours is settled or refused. Say: "
            f"{planned} Then end your message with {STOP}."
        )
    if planned.endswith(p.yes):
        before = planned.removesuffix(p.yes).strip()
        also = f"{before} " if before else ""
        return (
            f"Note for this reply: {also}the agent has listed every detail of what you want. "
            f"If you agree, answer with exactly: {p.yes}"
        )
    still = "; ".join(scripted.describe(p.world, talk.current[i]) for i in talk.open())
    return (
        f"Note for this reply: get this across, in your own words, facts unchanged: {planned}\n"
        f"Still open: {still}. Do not agree to anything and do not end the conversation."
    )


def _reads_as_yes(text: str) -> bool:
    """Whether the session would read ``text`` as the customer's yes."""
    phrases = events.from_reply(retail_kernel().rulebook.facts).values()
    return any(says(text, phrase) for phrase in phrases)
