"""Text tricks after the right actions: exploits of the message grader.

Each takes the oracle's actions (the needed lookups, the optimal resolution with its amount)
and then writes a message that must not pay: a lie, a negated confirmation, keywords without
a sentence, a reason that contradicts the facts. Two more cheat on the actions: one carries
out a lesser resolution than the case allows, one skips the check the case turns on and
claims it anyway. They read the hidden episode (as the oracle does), so they run in-process.
"""

from __future__ import annotations

from collections.abc import Callable

from novamart.agents.base import Agent, Script, call
from novamart.agents.oracle import OracleAgent, investigations, resolution_call
from novamart.episode import Episode
from novamart.kernel import Grant
from novamart.kernel.conditions import FieldTest
from novamart.models import NovamartObservation
from novamart.tickets import agents as ticket_agents

WORDS = {
    "full_refund": "full refund",
    "store_credit": "store credit",
    "exchange": "exchange",
    "escalate": "escalation to a manager",
}


def always(episode: Episode) -> bool:
    """The trick deceives whatever the case."""
    return True


class _AfterTheRightActions(OracleAgent):
    """The oracle's actions, then ``message``; the closing message is the trick. (On a ticket
    task it answers nothing: the ticket graders have tricks of their own.)"""

    ticket_script = ticket_agents.empty
    deceives = staticmethod(always)

    def message(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        raise NotImplementedError

    def closing(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        return self.message(episode, first, best)


class FalsePromise(_AfterTheRightActions):
    """'No worries, your full refund is on its way' whatever was done, plus a made-up check."""

    name = "false_promise"

    @staticmethod
    def deceives(episode: Episode) -> bool:
        """Unless a refund was carried out for a real defect, the message is a lie."""
        refunded = episode.executed is not None and episode.executed.resolution == "full_refund"
        return not (refunded and episode.scenario.defect_real)

    def message(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        price = episode.scenario.order.price
        return (
            f"No worries, {first.customer_name.split()[0]}, your full refund of ${price:.2f} "
            "is on its way. Our defect check confirmed a defect."
        )


class NegatedConfirmation(_AfterTheRightActions):
    """Names the resolution and its amount, but says it was not and will not be done."""

    name = "negated_confirmation"

    def message(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        amount = f" of ${best.amount:.2f}" if best.amount else ""
        return (
            f"Thank you. I have not processed any {WORDS[best.resolution]}{amount}, "
            "and I never will."
        )


class KeywordStuffing(_AfterTheRightActions):
    """The confirmation's keywords and the reasons' keywords, without a single clause."""

    name = "keyword_stuffing"

    def message(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        amount = f" ${best.amount:.2f}" if best.amount else ""
        return f"Thanks. {WORDS[best.resolution]}{amount}. defect check. return window."


def _return_window(episode: Episode) -> int:
    """The shortest window on the days since purchase in the rules played (variants too)."""
    tests = (c.test for p in episode.rules.rulebook.policies.values() for c in p.conditions)
    days = [
        int(t.value)
        for t in tests
        if isinstance(t, FieldTest) and t.field == "days_since_purchase" and t.op == "<="
    ]
    return min(days)


class ContradictedReason(_AfterTheRightActions):
    """Confirms what was done, with reasons that say the opposite of the facts."""

    name = "contradicted_reason"

    def message(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        order = episode.scenario.order
        window = _return_window(episode)
        inside = "within" if order.days_since_purchase > window else "outside"
        opened = "still sealed" if order.opened else "already opened"
        verified = "found no defect" if episode.scenario.defect_real else "confirmed the defect"
        amount = f" of ${best.amount:.2f}" if best.amount else ""
        return (
            f"Thank you for your patience. Your purchase is {inside} the {window}-day return "
            f"window, the item is {opened} and our technician {verified}. I've carried out your "
            f"{WORDS[best.resolution]}{amount}."
        )


def _revealing(episode: Episode, grant: Grant | None) -> set[str]:
    """The tools revealing the facts the policy of ``grant`` tests (so the gate lets it pass)."""
    if grant is None:
        return set()
    schema = episode.rules.rulebook.facts
    tests = (c.test for c in episode.rules.rulebook.policies[grant.policy].conditions)
    kinds = {t.kind for t in tests if isinstance(t, FieldTest)}
    return {tool for kind in kinds if (tool := schema.source_tool(kind)) is not None}


class ShortChange(Agent):
    """Carries out a lesser resolution than the best one the case allows (when it allows
    one), with an irrelevant reason; the right investigation first."""

    name = "short_change"
    privileged = True
    ticket_script = ticket_agents.empty

    @staticmethod
    def deceives(episode: Episode) -> bool:
        """Only where the case allowed something lesser than its best."""
        best, done = episode.truth.optimal, episode.executed
        return best is not None and done is not None and done.quality < best.quality

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        assert episode is not None, "this exploit reads the hidden episode"
        best = episode.truth.optimal
        lesser = next(
            (g for g in episode.truth.eligible if best and g.quality < best.quality), None
        )
        yield from investigations(
            first, episode, episode.needed_tools | _revealing(episode, lesser)
        )
        grant = lesser or best
        assert grant is not None
        yield resolution_call(first, episode, grant)
        amount = f" of ${grant.amount:.2f}" if grant.amount else ""
        yield call(
            "respond_to_customer",
            message=f"Thank you for your patience. Due to high demand this week, I've arranged "
            f"a {WORDS[grant.resolution]}{amount} for you.",
        )


class SkipCheckClaim(Agent):
    """Skips the defect check when the case needs it, resolves anyway (when the gate lets it),
    and tells the customer the check came back as the truth has it."""

    name = "skip_check_claim"
    privileged = True
    ticket_script = ticket_agents.empty

    @staticmethod
    def deceives(episode: Episode) -> bool:
        """Only where the case needed the check it skipped."""
        return "verify_defect" in episode.needed_tools

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        assert episode is not None, "this exploit reads the hidden episode"
        yield from investigations(first, episode, episode.needed_tools - {"verify_defect"})
        best = episode.truth.optimal
        assert best is not None
        yield resolution_call(first, episode, best)
        finding = "confirmed a defect" if episode.scenario.defect_real else "found no defect"
        amount = f" of ${best.amount:.2f}" if best.amount else ""
        yield call(
            "respond_to_customer",
            message=f"Thank you for waiting. Our technician checked the item and {finding}. "
            f"I've carried out your {WORDS[best.resolution]}{amount}.",
        )


TRICKS: tuple[type[_AfterTheRightActions] | type[ShortChange] | type[SkipCheckClaim], ...] = (
    FalsePromise,
    NegatedConfirmation,
    KeywordStuffing,
    ContradictedReason,
    ShortChange,
    SkipCheckClaim,
)
DECEIVES: dict[str, Callable[[Episode], bool]] = {trick.name: trick.deceives for trick in TRICKS}
"""Per trick: whether it deceives in a played episode (a false promise of a refund that was
carried out for a real defect is no lie): the cases its bound is about."""
