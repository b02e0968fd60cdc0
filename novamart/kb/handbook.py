"""The policy handbook a closed-book agent works from, rendered from the rulebook it plays.

It is the help-centre policy articles (novamart.kb.policies, the same renderer), under a
short preface that says how resolutions rank and which tool carries each out. Rendered from
the episode's own rulebook, so a policy variant's handbook states the variant's numbers. A
rulebook of collections or of resolutions that declare calls (arguments, effects, events) is
rendered with what each call carries and does, in its facts' own words
(novamart.kb.declared_handbook); the others exactly as before.
"""

from __future__ import annotations

from novamart.kb import declared_handbook
from novamart.kb.policies import render_policy
from novamart.kernel import Rulebook

TOOL_ARGUMENTS = {
    "process_refund": "order_id, amount",
    "issue_store_credit": "order_id, amount",
    "escalate_to_manager": "order_id, reason",
}
"""What each write tool asks for (the others take the order id alone)."""
_RENDERED: dict[str, str] = {}
KEPT = 64


def handbook(rulebook: Rulebook) -> str:
    """The handbook of ``rulebook`` (rendered once per rulebook version)."""
    text = _RENDERED.get(rulebook.version)
    if text is None:
        if len(_RENDERED) >= KEPT:
            _RENDERED.clear()
        text = _RENDERED[rulebook.version] = _render(rulebook)
    return text


def _render(rulebook: Rulebook) -> str:
    version = rulebook.version
    ranked = sorted(rulebook.resolutions.items(), key=lambda item: -item[1].quality)
    lines = [
        f"# NovaMart policy handbook (rules version {version})",
        "",
        "Decide the case under the policies below, on facts you have looked up: the tools "
        "carry out whatever you ask, and nothing checks it for you. When several resolutions "
        "are allowed, carry out the best one for the customer, in this order (amounts in cents, "
        "a percentage rounded half up):",
        "",
    ]
    declared = declared_handbook.speaks_of_collections(rulebook)
    if declared:
        lines += declared_handbook.resolution_lines(rulebook, ranked, TOOL_ARGUMENTS)
    for name, spec in ranked if not declared else ():
        arguments = TOOL_ARGUMENTS.get(spec.tool, "order_id")
        lines.append(f"- {name.replace('_', ' ')} ({spec.tool}({arguments})): {spec.description}")
    lines.append("")
    for policy in rulebook.policies.values():
        article = render_policy(policy, rulebook, [])
        body = declared_handbook.policy_body(policy, rulebook) if declared else article.body
        lines += [f"## {article.title}", "", body.rstrip(), ""]
    return "\n".join(lines)
