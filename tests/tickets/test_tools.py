"""The ticket tools return errors as data, make decisions final, and never raise, whatever
the agent sends."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from novamart.tickets import FAMILIES, TicketSession
from novamart.tickets.tools import MAX_SEARCHES, TOOLS


def _session(family: str, seed: int = 1) -> TicketSession:
    return TicketSession(FAMILIES[family].generate(seed))


def test_bad_classification_is_an_error_and_changes_nothing() -> None:
    session = _session("ticket_triage")
    out = session.step("classify_ticket", {"category": "refunds", "priority": "high"})
    assert not out.result.ok and out.result.error.code == "invalid_arguments"
    assert "'billing', 'technical', 'returns', 'shipping' or 'account'" in out.result.error.message
    assert not out.done and session.state.category is None


def test_decisions_are_final() -> None:
    session = _session("escalation_safety")
    assert session.step("escalate_to_manager", {"reason": "battery swelling"}).result.ok
    again = session.step("escalate_to_manager", {"reason": "battery swelling"})
    assert again.result.error.code == "already_done" and again.reward <= 0
    assert session.step("respond_to_customer", {"message": "Hello, we are on it."}).done
    closed = session.step("respond_to_customer", {"message": "Hello again"})
    assert closed.result.error.code == "episode_over" and closed.reward == 0


def test_argument_names_are_checked() -> None:
    session = _session("data_extraction")
    out = session.step("extract_info", {"field": {}})
    assert out.result.error.code == "invalid_arguments"
    assert "fields: Field required" in out.result.error.message
    assert "field: Extra inputs are not permitted" in out.result.error.message


def test_unrequested_and_non_text_fields_are_refused() -> None:
    session = _session("data_extraction")
    out = session.step("extract_info", {"fields": {"order_id": "NM-1", "ssn": "x"}})
    assert "unrequested field(s) ssn" in out.result.error.message
    out = session.step("extract_info", {"fields": {"order_id": 12}})
    assert "fields.order_id: Input should be a valid string" in out.result.error.message
    assert session.state.extraction is None


def test_tools_of_other_tasks_are_unavailable() -> None:
    session = _session("ticket_triage")
    out = session.step("search_kb", {"query": "refund"})
    assert out.result.error.code == "unknown_tool"
    assert "classify_ticket" in out.result.error.message


def test_search_returns_article_text_and_is_limited() -> None:
    session = _session("kb_grounded_response")
    for _ in range(MAX_SEARCHES):
        out = session.step("search_kb", {"query": "how long does a refund take"})
        assert out.result.ok and out.result.data["results"][0]["text"]
    out = session.step("search_kb", {"query": "refund"})
    assert out.result.error.code == "limit_reached"
    assert session.step("search_kb", {"query": "   "}).result.error.code in (
        "invalid_arguments",
        "limit_reached",
    )


def test_failed_calls_cost_a_little_and_the_step_limit_closes_the_ticket() -> None:
    session = _session("kb_grounded_response")
    outs = [session.step("respond_to_customer", {"message": ""}) for _ in range(6)]
    assert all(o.result.error.code == "invalid_arguments" for o in outs)
    assert outs[-1].done and session.grade.score == 0.0
    assert sum(o.reward for o in outs) == 0.0


_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.text(max_size=40),
    st.lists(st.text(max_size=5), max_size=3),
    st.dictionaries(
        st.sampled_from(["order_id", "email", "x"]),
        st.one_of(st.none(), st.text(max_size=20)),
        max_size=3,
    ),
)
_CALLS = st.lists(
    st.tuples(
        st.sampled_from([*TOOLS, "nope"]),
        st.dictionaries(
            st.sampled_from(
                ["category", "priority", "fields", "query", "reason", "message", "extra"]
            ),
            _VALUES,
            max_size=3,
        ),
    ),
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(family=st.sampled_from(list(FAMILIES)), seed=st.integers(0, 50), calls=_CALLS)
def test_any_sequence_of_calls_is_safe(family: str, seed: int, calls: list) -> None:
    session = _session(family, seed)
    total = 0.0
    for tool, arguments in calls:
        out = session.step(tool, arguments)
        assert out.result.ok or (out.result.error and out.result.error.message)
        assert 0.0 <= out.score <= 1.0
        total += out.reward
    assert total == session.grade.score or abs(total - session.grade.score) < 1e-9


def test_view_shows_the_ticket_but_not_the_truth() -> None:
    session = _session("account_recovery")
    view = session.view()
    assert view.ticket == session.scenario.ticket and view.ticket.account_on_file
    assert view.available_tools == ["search_kb", "escalate_to_manager", "respond_to_customer"]
    assert "truth" not in view.model_dump() and "secrets" not in str(view.model_dump())
    session.step("search_kb", {"query": "locked account"})
    session.step("respond_to_customer", {"message": "Hello, please use Forgot password."})
    done = session.view()
    assert done.done and done.available_tools == [] and "KB-040" in done.retrieved_articles
