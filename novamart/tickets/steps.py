"""Steps of an article no reply may leave out, read from the article's ``required`` list.

A reply to a safety article that keeps its other facts and drops one safety step ("unplug it
and stop using it" for a swollen battery, without "do not charge it") conveys most of the
answer and would pass; the article names such steps in its front matter, and each one a
reply leaves out costs it the pass mark (``novamart.tickets.kb_response``). A step counts as
told where one sentence holds at least half of its own content words (not those the rest
of the answer also has: "the device" of "unplug the device" is in "our safety team will
contact you about the device" too): this asks whether it is there at all; whether it is said
truly is ``novamart.tickets.truth``'s question.
"""

from __future__ import annotations

from novamart.kb import Article
from novamart.tickets.answer import units

TOLD = 0.5
"""Share of a step's content words one sentence of the reply must hold."""


def _content(text: str) -> frozenset[str]:
    return frozenset(s for u in units(text) for s, c in zip(u.stems, u.content, strict=True) if c)


def omitted(reply: str, article: Article, reference: str) -> list[str]:
    """The article's required steps that the ``reference`` answer of the ticket holds (a
    dataset may ask for less than the whole article) and no sentence of ``reply`` tells."""
    said = [frozenset(u.stems) for u in units(reply)]
    out = []
    for step in (s for s in article.required if s.lower() in reference.lower()):
        at = article.answer.lower().index(step.lower())
        rest = article.answer[:at] + article.answer[at + len(step) :]
        wanted = (_content(step) - _content(rest)) or _content(step)
        if wanted and not any(len(wanted & s) / len(wanted) >= TOLD for s in said):
            out.append(step)
    return out
