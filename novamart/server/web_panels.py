"""What the web UI shows of an episode, as Markdown and rows (no Gradio here): the case card,
the conversation, one row per step, the last tool's answer and the end-of-episode panel.

Rewards and scores are rounded to DIGITS decimals wherever they are shown; the opening
message is shown once (in the case card), and the hidden truth only once the episode is over.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from novamart.analyst.amounts import grant_pays
from novamart.kernel import Rulebook
from novamart.models import GroundTruth, NovamartObservation, TruthGrant
from novamart.server.web_form import Field, explain_error

DIGITS = 3
STEP_HEADERS = ["step", "tool", "arguments", "outcome", "reward", "total"]
ENDINGS = {
    "resolved": "the customer closed the conversation after the resolution",
    "ticket_closed": "the ticket's closing tool succeeded",
    "step_limit": "the step limit ran out (truncated)",
}
INLINE_INSTRUCTIONS = 300
"""Longer instructions (a closed-book case's handbook) go under the card, folded."""
HANDBOOK_BELOW = "decide under the handbook in *Instructions*, below this card."
SPEAKERS = {"customer": "assistant", "agent": "user"}
"""Chat roles: the customer on the left, the agent the researcher plays on the right."""


def rounded(value: Any) -> Any:
    """Rewards and scores to DIGITS decimals, inside lists and mappings too (no -0.0)."""
    if isinstance(value, float):
        return round(value, DIGITS) + 0.0
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def _escaped(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def case_card(observation: NovamartObservation, total: float) -> str:
    """Who, which order, what they want; facts appear here as the tools reveal them."""
    o = observation
    lines = [f"### {o.task} · {o.difficulty} · step {o.step_number} of {o.max_steps}"]
    if o.customer_name or o.customer_id:
        who = " ".join(
            filter(None, [o.customer_name, f"({o.customer_id})" if o.customer_id else ""])
        )
        tier = ""
        if o.order_id:  # an order case: the tier is a fact check_loyalty reveals
            tier = (
                f" · tier **{o.customer_tier}**" if o.customer_tier else " · tier not checked yet"
            )
        lines.append(f"**Customer:** {who}{tier}")
    if o.order_id:
        days = (
            f"bought **{o.days_since_purchase}** days ago"
            if o.days_since_purchase is not None
            else "purchase date not looked up yet"
        )
        lines.append(f"**Order:** {o.order_id} · {days}")
    if o.ticket_id:
        lines.append(f"**Ticket:** {o.ticket_id} · {o.ticket_subject}")
    lines.append(f"**Issue:** {o.issue_description}")
    if o.instructions:
        inline = len(o.instructions) <= INLINE_INSTRUCTIONS
        lines.append(f"**Task:** {o.instructions if inline else HANDBOOK_BELOW}")
    if o.requested_fields:
        lines.append(f"**Fields to extract:** {', '.join(o.requested_fields)}")
    if o.account_on_file:
        on_file = ", ".join(f"{k}: {v}" for k, v in o.account_on_file.items())
        lines.append(f"**Account on file:** {on_file}")
    if o.kb_results:
        found = "; ".join(f"{a.article_id} {a.title}" for a in o.kb_results)
        lines.append(f"**Articles found:** {found}")
    lines.append(f"**Score so far:** {rounded(total)}")
    return "\n\n".join(lines)


def long_instructions(observation: NovamartObservation) -> str:
    """The instructions too long for the card (a closed-book handbook), else nothing."""
    text = observation.instructions
    return text if len(text) > INLINE_INSTRUCTIONS else ""


def chat_messages(history: Sequence[str], opening: str) -> list[dict[str, str]]:
    """The conversation after the opening message (the card shows that one) as chat turns."""
    turns = []
    for entry in history:
        speaker, _, text = entry.partition(": ")
        if speaker == "customer" and text == opening and not turns:
            continue
        turns.append({"role": SPEAKERS.get(speaker, "assistant"), "content": text})
    return turns


def plain(value: Any) -> str:
    """A tool result's value in words: lists joined, mappings as ``key: value``, no JSON."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {plain(v)}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        joiner = " | " if any(isinstance(v, dict | list) for v in value) else ", "
        return joiner.join(plain(v) for v in value) or "none"
    return str(rounded(value))


def arguments_text(arguments: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v, default=str)}" for k, v in arguments.items())


def step_row(
    observation: NovamartObservation, arguments: Mapping[str, Any], total: float
) -> list[Any]:
    """One row of the steps table: what was called, how it went, its reward, the total."""
    result = observation.last_tool_result or {}
    outcome = "ok" if result.get("ok") else (result.get("error") or {}).get("code", "error")
    reward = rounded(float(observation.reward or 0.0))
    name = observation.tool_name
    return [
        observation.step_number,
        name,
        arguments_text(arguments),
        outcome,
        reward,
        rounded(total),
    ]


def result_text(observation: NovamartObservation, fields: Sequence[Field]) -> str:
    """The last tool's answer: its fields as a list, or the refusal with the allowed values."""
    result = observation.last_tool_result or {}
    reward = rounded(float(observation.reward or 0.0))
    head = f"**{observation.tool_name}** · reward {reward}"
    if not result.get("ok"):
        return f"{head}\n\n**Refused** · {explain_error(result.get('error') or {}, fields)}"
    shown = [f"- **{k}:** {_escaped(plain(v))}" for k, v in result.items() if k != "ok"]
    return "\n".join([f"{head} · ok", "", *shown])


def _grant(grant: TruthGrant, rulebook: Rulebook | None) -> str:
    """A resolution, with its amount only where its grant carries one."""
    text = f"**{grant.resolution}**"
    pays = rulebook is None or grant_pays(rulebook, grant.policy, grant.resolution)
    if grant.amount is not None and pays:
        text += f" (${grant.amount:,.2f})"
    return f"{text} under {grant.policy}"


def _optimum(truth: GroundTruth, rulebook: Rulebook | None) -> list[str]:
    if truth.optimal is None:
        return []
    lines = ["#### The optimum and why", f"Best allowed: {_grant(truth.optimal, rulebook)}."]
    policies = rulebook.policies if rulebook else {}
    for name in truth.granted_by:
        if name in policies:
            lines.append(f"> {name}: {policies[name].clause}")
    others = [g for g in truth.eligible if g != truth.optimal]
    if others:
        lines.append("Also allowed: " + "; ".join(_grant(g, rulebook) for g in others) + ".")
    if truth.wish and truth.reasons:
        lines.append(f"The customer asked for {truth.wish}; not allowed because:")
        lines.extend(f"- {reason}" for reason in truth.reasons)
    if truth.needed_tools:
        sets = " or ".join("{" + ", ".join(s) + "}" for s in truth.needed_tools)
        lines.append(f"Cheapest investigation that settles it: {sets}.")
    return lines


def ending_panel(
    observation: NovamartObservation, terms: Mapping[str, float], rulebook: Rulebook | None
) -> str:
    """The end of the episode: the score, why it ended, each grade term's note, the truth."""
    o = observation
    score = rounded(float(o.final_score or 0.0))
    ending = ENDINGS.get(o.termination or "", o.termination or "unknown")
    blocks = [f"## Final score: {score}", f"**Ended:** {ending}."]
    if o.grader_notes:
        rows = [
            f"| {term} | {rounded(float(terms.get(term, 0.0)))} | {_escaped(note)} |"
            for term, note in o.grader_notes.items()
        ]
        blocks.append("\n".join(["| term | points | grader's note |", "|---|---|---|", *rows]))
    truth = o.ground_truth
    if truth is not None:
        blocks += _optimum(truth, rulebook)
        if truth.expected:
            expected = "; ".join(f"{k}: {v}" for k, v in truth.expected.items())
            blocks.append(f"#### Expected\n{expected}")
    return "\n\n".join(blocks)
