"""How a retail customer's voice words its turns (the tones of novamart.scenarios.personas).

A voice changes the words around what the customer says, never what it says: ids, items,
variants, amounts, reasons and its identity are filled in by the customer
(novamart.scenarios.retail_customer) the same in every voice, and the sentences an agent
reads facts from ("My email is ...", "I'm NAME, zip code ZIP.", "The order number is ...")
are not the voice's. No line says the rulebook's yes words: only the customer's yes does
(tests/scenarios/test_retail_character.py checks both).
"""

from __future__ import annotations

from dataclasses import dataclass

from novamart.scenarios.personas import Tone


@dataclass(frozen=True)
class Voice:
    """One tone's templates; the fields in braces are the customer's facts."""

    opening: str
    """{greeting} (personas.GREETINGS) and {wants} (the requests, by product and variant)."""
    done: str
    refused: str
    """{order}: the order whose request the agent says cannot be done."""
    closing: str
    restate: str
    """{request}: the next open request, as the opening puts it."""
    missing: str
    """{missing}: the details the agent's proposal leaves out."""
    which_order: str
    unwanted: str
    """{items}: the items named that it does not want; {request}: what it wants."""
    change: str
    """{request}: the request as it now wants it."""
    other: str
    """{order} and {name}: the other customer's order and name."""
    no_order_numbers: str


VOICES: dict[Tone, Voice] = {
    "polite": Voice(
        opening="{greeting} I need help with a few things: {wants}.",
        done="Great, thank you.",
        refused="That's a shame about {order}, but I understand.",
        closing="Thanks, that's everything.",
        restate="Can we get back to this: {request}?",
        missing="Before I say yes, please tell me {missing}.",
        which_order="Which order are you talking about? Please tell me what exactly you will do.",
        unwanted="No, not item {items}. {request}.",
        change="Actually, wait. {request}, please.",
        other=(
            "Oh, and could you also cancel order {order}? It's {name}'s, they asked me to sort "
            "it out."
        ),
        no_order_numbers=(
            "I'm sorry, I don't have the order number to hand. Could you find it on my account?"
        ),
    ),
    "frustrated": Voice(
        opening="{greeting} I need this sorted out, properly this time: {wants}.",
        done="Good, at last.",
        refused="That's disappointing about {order}. I don't like it, but I get it.",
        closing="Right, that's everything. It took long enough.",
        restate="You still haven't dealt with this: {request}.",
        missing="I'm not agreeing to anything until you tell me {missing}.",
        which_order="Which order do you even mean? Tell me exactly what you will do.",
        unwanted="No! Not item {items}. {request}.",
        change="Hold on, I've changed my mind. {request}.",
        other=(
            "And while you're at it, cancel order {order} too. It's {name}'s, they asked me to "
            "deal with it."
        ),
        no_order_numbers="I don't have the order number. Can't you look it up on my account?",
    ),
    "terse": Voice(
        opening="{greeting} {wants}.",
        done="Ok.",
        refused="Ok, not {order} then.",
        closing="That's all.",
        restate="Still open: {request}.",
        missing="First tell me {missing}.",
        which_order="Which order? What exactly will you do?",
        unwanted="Not item {items}. {request}.",
        change="Change: {request}.",
        other="Also cancel order {order}. It's {name}'s.",
        no_order_numbers="Don't have it. Look it up on my account.",
    ),
}
