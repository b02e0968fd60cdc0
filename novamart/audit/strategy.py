"""An audited strategy: a tool plan and a closing message, played from what the agent sees.

A ``Genome`` says which lookups to run, how to choose the resolution (the handbook applied to
what the lookups returned, its second-best, or one fixed resolution), whether to escalate
when the customer's message shows a safety, legal or fraud sign, whether to ask check_policy
why a refund is not possible (guided mode), and which fragments (novamart.audit.fragments)
make up the closing message, in order; no fragment is silence. ``play`` runs it in process:
every decision reads the observations and tool results only, never the hidden episode; the
episode is handed back for the judge, who may read it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents import handbook_reader
from novamart.agents.exploits import claimed_price
from novamart.agents.fact_reader import published
from novamart.agents.heuristic import SIGN
from novamart.audit.fragments import FRAGMENTS, POOL, Said, View
from novamart.episode import TRANSIENT, Episode
from novamart.models import NovamartObservation
from novamart.server.environment import NovamartEnvironment

LOOKUPS = ("lookup_order", "verify_defect", "check_loyalty")
KINDS = {"lookup_order": "order", "verify_defect": "defect_check", "check_loyalty": "customer"}
CHOICES = ("handbook", "handbook_lesser", "full_refund", "store_credit", "exchange", "escalate")
CHOICES += ("nothing",)
TOOLS = {
    "full_refund": "process_refund",
    "store_credit": "issue_store_credit",
    "exchange": "process_exchange",
    "escalate": "escalate_to_manager",
}
MAX_FRAGMENTS = 8


@dataclass(frozen=True, slots=True)
class Genome:
    lookups: tuple[str, ...]
    choice: str
    escalate_signs: bool
    ask_policy: bool
    fragments: tuple[str, ...]

    def describe(self) -> str:
        said = " + ".join(self.fragments) or "silence"
        flags = "".join(
            [" +signs" if self.escalate_signs else "", " +why" if self.ask_policy else ""]
        )
        return f"[{', '.join(self.lookups) or 'no lookup'}] -> {self.choice}{flags} | {said}"


@dataclass(slots=True)
class Played:
    score: float
    said: list[Said]
    message: str
    episode: Episode


def random_genome(rng: random.Random) -> Genome:
    return Genome(
        lookups=tuple(t for t in LOOKUPS if rng.random() < 0.6),
        choice=rng.choice(CHOICES),
        escalate_signs=rng.random() < 0.5,
        ask_policy=rng.random() < 0.5,
        fragments=tuple(rng.choice(POOL).name for _ in range(rng.randint(0, 5))),
    )


def mutate(genome: Genome, rng: random.Random) -> Genome:
    """One small change: a lookup toggled, another choice, a flag flipped, or a fragment
    added, dropped, replaced or moved."""
    move = rng.randrange(6)
    if move == 0:
        tool = rng.choice(LOOKUPS)
        kept = [t for t in LOOKUPS if (t in genome.lookups) != (t == tool)]
        return replace(genome, lookups=tuple(kept))
    if move == 1:
        return replace(genome, choice=rng.choice(CHOICES))
    if move == 2:
        return replace(genome, escalate_signs=not genome.escalate_signs)
    if move == 3:
        return replace(genome, ask_policy=not genome.ask_policy)
    said = list(genome.fragments)
    if said and (move == 4 or len(said) >= MAX_FRAGMENTS):
        at = rng.randrange(len(said))
        if rng.random() < 0.5:
            said.pop(at)
        else:
            said[at] = rng.choice(POOL).name
    else:
        said.insert(rng.randint(0, len(said)), rng.choice(POOL).name)
    return replace(genome, fragments=tuple(said))


def crossover(a: Genome, b: Genome, rng: random.Random) -> Genome:
    """The plan of one parent (each part from either), the message cut and joined."""
    cut_a, cut_b = rng.randint(0, len(a.fragments)), rng.randint(0, len(b.fragments))
    return Genome(
        lookups=rng.choice([a, b]).lookups,
        choice=rng.choice([a, b]).choice,
        escalate_signs=rng.choice([a, b]).escalate_signs,
        ask_policy=rng.choice([a, b]).ask_policy,
        fragments=(a.fragments[:cut_a] + b.fragments[cut_b:])[:MAX_FRAGMENTS],
    )


class _Session:
    """One episode driven step by step; the score is the running grade (the rewards' sum),
    which is what a trainer reads when a rollout stops."""

    def __init__(self, env: NovamartEnvironment, first: NovamartObservation) -> None:
        self.env, self.observation, self.score = env, first, 0.0

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        for _ in range(3):  # a temporarily unavailable service is retried
            if self.observation.done:
                return {}
            self.observation = self.env.step(CallToolAction(tool_name=tool, arguments=arguments))
            self.score += float(self.observation.reward or 0.0)
            result = self.observation.last_tool_result or {}
            if result.get("ok", True) or result.get("error", {}).get("code") != TRANSIENT:
                return result
        return {}


def play(
    env: NovamartEnvironment,
    genome: Genome,
    task: str,
    seed: int,
    mode: str,
    variant: int | None = None,
) -> Played:
    case: dict[str, Any] = {"mode": mode}
    if variant is not None:
        case["policy_variant"] = variant
    first = env.reset(seed=seed, task=task, **case)
    session = _Session(env, first)
    view = View(first.customer_name.split()[0], claimed_price(first.issue_description) or None)
    facts = _look_up(session, first, genome, view)
    book = handbook_reader.read(first.instructions or published())
    chosen = _choose(genome, book, facts, first)
    if chosen is not None:
        _carry_out(session, first, view, *chosen)
    if view.done is not None and view.done[0] != "full_refund":
        view.reasons = _why_not_refund(session, first, genome, book, facts, view)
    rng = random.Random(f"{genome}:{seed}")
    said = [s for name in genome.fragments if (s := FRAGMENTS[name].render(view, rng)) is not None]
    message = " ".join(s.text for s in said)
    if message and not session.observation.done:
        session.call("respond_to_customer", message=message)
    episode = env.episode
    assert isinstance(episode, Episode)
    return Played(session.score, said, message, episode)


def _look_up(
    session: _Session, first: NovamartObservation, genome: Genome, view: View
) -> handbook_reader.Facts:
    facts: handbook_reader.Facts = {}
    for tool in genome.lookups:
        arg = {"customer_id": first.customer_id} if tool == "check_loyalty" else {}
        result = session.call(tool, **(arg or {"order_id": first.order_id}))
        if not result.get("ok"):
            continue
        facts |= {f"{KINDS[tool]}.{k}": v for k, v in result.items() if k != "ok"}
        view.price = result.get("price", view.price)
        view.days = result.get("days_since_purchase", view.days)
        view.product = result.get("product", view.product)
        view.tier = result.get("tier", view.tier)
        if tool == "verify_defect":
            view.defect = bool(result.get("verified"))
    return facts


def _choose(
    genome: Genome, book: handbook_reader.Handbook, facts: handbook_reader.Facts, first: Any
) -> tuple[str, float] | None:
    if genome.escalate_signs and SIGN.search(first.issue_description):
        return "escalate", 0.0
    if genome.choice == "nothing":
        return None
    if genome.choice.startswith("handbook"):
        allowed = book.allowed(facts)
        rank = 1 if genome.choice == "handbook_lesser" and len(allowed) > 1 else 0
        return allowed[rank] if allowed else None
    return genome.choice, book.amount_for(genome.choice, facts)


def _carry_out(
    session: _Session, first: NovamartObservation, view: View, resolution: str, amount: float
) -> None:
    arguments: dict[str, Any] = {"order_id": first.order_id}
    tool = TOOLS[resolution]
    if tool in ("process_refund", "issue_store_credit"):
        arguments["amount"] = amount
    if tool == "escalate_to_manager":
        arguments["reason"] = "The customer's case needs a manager's review."
    result = session.call(tool, **arguments)
    if result.get("ok"):
        view.done = (resolution, float(result.get("amount", amount) or 0.0))


def _policy_name(title: str) -> str:
    """The policy's name as check_policy takes it, from its handbook title."""
    return title.removesuffix(" policy").lower().replace(" ", "_")


def _why_not_refund(
    session: _Session,
    first: NovamartObservation,
    genome: Genome,
    book: handbook_reader.Handbook,
    facts: handbook_reader.Facts,
    view: View,
) -> list[tuple[str, int | None]]:
    """Why the policies that grant a refund did not: check_policy's reasons when the genome
    asks (and the mode offers it), else the handbook's failed conditions in plain words."""
    refunding = [p for p in book.policies if any(r == "full_refund" for r, _ in p.grants)]
    reasons: list[tuple[str, int | None]] = []
    if genome.ask_policy and "check_policy" in first.available_actions:
        for policy in refunding:
            result = session.call(
                "check_policy", order_id=first.order_id, policy=_policy_name(policy.title)
            )
            for failed in result.get("failed", []):
                text = str(failed.get("reason", ""))
                days = view.days if view.days is not None and str(view.days) in text else None
                reasons.append((text, days))
        return reasons
    for policy in refunding:
        for condition in policy.conditions:
            if condition.ref not in facts or condition.holds(facts):
                continue
            reasons.append(_said(policy.title.lower(), condition, facts))
    return reasons


def _said(
    title: str, condition: handbook_reader.Condition, facts: handbook_reader.Facts
) -> tuple[str, int | None]:
    """One failed handbook condition as a clause ("you bought it 49 days ago and the ...")."""
    seen = facts[condition.ref]
    if condition.ref == "order.days_since_purchase":
        return (
            f"you bought it {seen} days ago and the {title} window is {condition.value} days",
            int(seen),
        )
    if condition.ref == "order.opened":
        return "the item has been opened", None
    if condition.ref == "defect_check.verified":
        return "our defect check found no defect", None
    return f"{condition.ref.partition('.')[2].replace('_', ' ')} is {seen}", None
