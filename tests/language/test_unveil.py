"""The disguise scan (novamart.language.unveil): a text where neither spaced-out letters nor a
hyphenated word can match is scanned for mixed words alone, in one pass; it must rewrite
exactly what the three-alternative scan rewrites, on any text. And whether a word is read as
the word it spells depends on the word alone: a reply holding an order id (which always sends
it to the scan) and one without read a disguise alike, or it is free in one of them."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from novamart.kernel import default_kernel
from novamart.language import lexicon_for
from novamart.language import unveil as u
from novamart.language.reader import known_words

KNOWS = known_words(lexicon_for(default_kernel().rulebook)).knows

texts = st.text(alphabet="abcr3e1f0u@n$d2 .-\t_*x9", max_size=40)


wider = st.text(alphabet="abre1f0u@n$d2 .-\t_*\n%\u2014\u00e9x", max_size=40)
"""Also a line break, a currency, a dash and a letter beyond ASCII (no ASCII shape for them)."""


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(wider)
def test_the_cheap_test_for_spaced_or_hyphenated_words_is_their_search(text: str) -> None:
    matches = bool(u._SPACED_OUT.search(text) or u._HYPHENATED.search(text))
    assert u._rare(text, text.translate(u._SHAPES)) == matches


def _marked(match: re.Match[str]) -> str:
    return f"<{match.group(0)}>"


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_mixed_runs_are_the_suspect_scan_where_nothing_else_matches(text: str) -> None:
    rare = u._SPACED_OUT.search(text) or u._HYPHENATED.search(text)
    if not rare:
        assert u._MIXED_RUN.sub(_marked, text) == u._SUSPECT.sub(_marked, text)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_a_text_is_undisguised_as_by_the_whole_scan(text: str) -> None:
    found = u._undisguised(text, KNOWS)
    one_pass = u._MIXED_RUN
    u._MIXED_RUN = u._SUSPECT  # the scan as it was: every alternative at every character
    try:
        whole = u._undisguised(text, KNOWS)
    finally:
        u._MIXED_RUN = one_pass
    assert found == whole


def test_an_order_reply_is_scanned_in_one_pass_and_a_disguise_in_it_still_read() -> None:
    reply = "Your order #w3886768 is r3funded; item 8703543367 (desk lamp)."
    assert not u._SPACED_OUT.search(reply) and not u._HYPHENATED.search(reply)
    text, changes = u._undisguised(reply, KNOWS)
    assert "refunded" in text and changes == ["r3funded -> refunded"]
    spaced = "Your order #w3886768: r e f u n d e d, item 8703543367."
    assert u._SPACED_OUT.search(spaced)
    assert "refunded" in u._undisguised(spaced, KNOWS)[0]


IDS = "\norder #w3886768, gift_card_1167088, $35.72"
"""What a retail reply holds: ids and amounts that always send it to the scan (on a line of
its own: no disguise runs across a line break)."""


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_a_disguise_is_read_whatever_else_the_reply_holds(text: str) -> None:
    alone, changes = u._undisguised(text, KNOWS)
    assert u._undisguised(text + IDS, KNOWS) == (alone + IDS, changes)


@pytest.mark.parametrize(
    ("disguised", "word"),
    [
        ("we sent the ca$h back", "cash"),  # a sign the old shape test did not read as a digit
        ("we r2e2f2u2n2d it", "refund"),  # single letters around a 2
        ("r    e    f    u    n    d issued", "refund"),  # gaps wider than three characters
        ("r\te\tf\tu\tn\td issued", "refund"),  # tabs
        ("your re-fund is done", "refund"),
    ],
)
def test_a_disguise_without_ids_around_it_is_read(disguised: str, word: str) -> None:
    text, changes = u._undisguised(disguised, KNOWS)
    assert word in text.split() and changes


@pytest.mark.parametrize(
    "honest",
    [
        "your 2nd order ships on the 3rd",
        "we sent us$50 back to your card",
        "your b2b account and the 4k tv",
        "the model x1-2 is in stock",
        "i a m sorry: a, b and c are the options",
    ],
)
def test_an_honest_reply_the_scan_now_reads_is_left_as_written(honest: str) -> None:
    """The replies the old pre-check spared the scan (a 2 or a $ beside a letter, one-letter
    words) and that now reach it: nothing in them spells a word the reader knows."""
    assert u._undisguised(honest, KNOWS) == (honest, [])
