"""The handbook of a rulebook of collections and declared calls (arguments, effects, events):
each resolution with what its call carries, the events it waits for, what it is worth, what it
does to the order and what it rules out afterwards; then each policy in plain words.

Everything is read from the rulebook (novamart.kb.phrases says how); a closed-book agent acts
on it with nothing checking its calls, so it states the same conditions the kernel decides on.
"""

from __future__ import annotations

from collections.abc import Mapping

from novamart.kb.phrases import Phrases, value_words, words
from novamart.kb.policies import OVERRIDES_WORDS, describe_amount
from novamart.kernel import Rulebook
from novamart.kernel import expressions as ex
from novamart.kernel.conditions import FieldTest, ScopeTest
from novamart.kernel.declared import EVENT_KIND, ArgumentSpec, Declaration
from novamart.kernel.effects import Effect
from novamart.kernel.rulebook import REQUIRES_PREFIX, Amount, Policy, ResolutionSpec

DECLINE_WORDS = (
    "This is the correct refusal: when a policy below rules the request out, carry it out "
    "and tell the customer why, in that policy's words."
)

FOLLOW_WORDS = "It is carried out with {}, as its follow-up: do not call it on its own."


def speaks_of_collections(rulebook: Rulebook) -> bool:
    """Whether ``rulebook`` is of the new kind: some resolution declares a call, or some fact
    kind is a collection (an order's items). The others keep their words byte for byte."""
    return any(spec.declares_call for spec in rulebook.resolutions.values()) or any(
        kind.many for kind in rulebook.facts.kinds.values()
    )


def resolution_lines(
    rulebook: Rulebook, ranked: list[tuple[str, ResolutionSpec]], undeclared: Mapping[str, str]
) -> list[str]:
    """One entry per resolution, best first, with what its call carries and does;
    ``undeclared``: what the tools of resolutions that declare no call ask for."""
    phrases = Phrases(rulebook.facts)
    follows = {d.then: name for name, d in rulebook.declared.items() if d.then}
    lines = []
    for name, spec in ranked:
        declared = rulebook.declared.get(name)
        if declared is not None and spec.declares_call:
            arguments = ", ".join(declared.arguments)
        else:
            declared, arguments = None, undeclared.get(spec.tool, "order_id")
        lines.append(
            f"- {words(name)} ({spec.tool}({arguments})), quality {spec.quality:g}: "
            f"{spec.description}"
        )
        if declared is not None:
            lines += [f"  - {line}" for line in _call_lines(rulebook, phrases, name, declared)]
        if spec.declines:
            lines.append(f"  - {DECLINE_WORDS}")
        if name in follows:
            lines.append(f"  - {FOLLOW_WORDS.format(words(follows[name]))}")
    return lines


def _call_lines(
    rulebook: Rulebook, phrases: Phrases, name: str, declared: Declaration
) -> list[str]:
    lines = [f"{arg}: {_argument(spec)}" for arg, spec in declared.arguments.items()]
    if declared.requires:
        events = "; then ".join(_event(rulebook, e) for e in declared.requires)
        lines.append(f"Carry it out only after: {events}.")
    amount = rulebook.resolutions[name].amount
    if amount is not None:
        expression = ex.parse(amount, rulebook.facts)
        lines.append(f"Amount: {phrases.say(expression)}.")
    if declared.effects:
        lines.append(f"What it does: {'; '.join(phrases.effect(e) for e in declared.effects)}.")
    if declared.then is not None:
        follow = rulebook.declared.get(declared.then)
        does = "; ".join(phrases.effect(e) for e in follow.effects) if follow else ""
        lines.append(
            f"Then {words(declared.then)} is carried out with it" + (f": {does}." if does else ".")
        )
    ruled_out = _ruled_out(rulebook, phrases, name, declared)
    lines += [f"Afterwards {line}." for line in ruled_out]
    return lines


def _argument(spec: ArgumentSpec) -> str:
    said = f"{spec.describe}, " if spec.describe else ""
    if spec.type == "ids":
        return f"{said}the {words(spec.of)}s it is for, one or more (their {words(spec.of)} ids)"
    if spec.type == "id":
        return f"{said}the {words(spec.of)} (its id)"
    if spec.type == "choice":
        assert spec.values is not None
        default = f" ({spec.default} when not given)" if spec.default is not None else ""
        return f"{said}one of {value_words(tuple(spec.values))}{default}"
    default = " (may be left out)" if spec.default is not None else ""
    return f"{said}{'an amount' if spec.type == 'money' else 'text'}{default}"


def _event(rulebook: Rulebook, event: str) -> str:
    spec = rulebook.facts.field(EVENT_KIND, event)
    said = spec.describe if spec is not None and spec.describe else words(event)
    return f"{said} ({event})"


def _ruled_out(rulebook: Rulebook, phrases: Phrases, name: str, declared: Declaration) -> list[str]:
    """What a value an effect sets rules out: the grants of the policies that test the field
    for another value ('the order's status is pending (item modified), so cancel order, ...
    can no longer be done')."""
    lines = []
    for effect in _set_values(rulebook, declared):
        value = effect.value.value if isinstance(effect.value, ex.Const) else None
        blocked: dict[str, None] = {}
        for policy in rulebook.policies.values():
            for cond in policy.conditions:
                test = cond.test
                if (
                    isinstance(test, FieldTest)
                    and test.ref == effect.target
                    and not test.holds(value)
                ):
                    blocked |= {g.resolution: None for g in policy.grants}
        if blocked:
            noun = phrases.noun(ex.Ref(effect.kind, effect.field))
            done = ", ".join(words(r) for r in blocked)
            lines.append(f"{noun} is {value_words(value)}, so {done} can no longer be done")
    return lines


def _set_values(rulebook: Rulebook, declared: Declaration) -> list[Effect]:
    """The effects that set a single fact's choice field to a value as written."""
    return [
        e
        for e in declared.effects
        if e.where is None
        and isinstance(e.value, ex.Const)
        and not rulebook.facts.kinds[e.kind].many
        and (spec := rulebook.facts.field(e.kind, e.field)) is not None
        and spec.values is not None
    ]


def policy_body(policy: Policy, rulebook: Rulebook) -> str:
    """A policy's article: its clause, its conditions in plain words, what it grants."""
    phrases = Phrases(rulebook.facts)
    conditions = []
    for cond in policy.conditions:
        if isinstance(cond.test, ScopeTest):
            continue
        if cond.name.startswith(REQUIRES_PREFIX):
            event = cond.name.removeprefix(REQUIRES_PREFIX)
            conditions.append(f"- first: {_event(rulebook, event)}")
        else:
            conditions.append(f"- {phrases.condition(cond.test)}")
    grants = "\n".join(
        f"- {words(g.resolution)}: {rulebook.resolutions[g.resolution].description} "
        f"Amount: {_amount(phrases, g.amount)}."
        for g in policy.grants
    )
    when = "any of these holds" if policy.any_condition else "all of these hold"
    if policy.for_each:
        when = f"{when}, decided for each {words(policy.for_each)} on its own"
    body = f"{policy.clause}\n\nThis applies when {when}:\n" + "\n".join(conditions) + "\n\n"
    body += f"What you can get:\n{grants}\n"
    if policy.overrides:
        body += OVERRIDES_WORDS + "\n"
    return body


def _amount(phrases: Phrases, amount: Amount) -> str:
    if amount.expression is not None and amount.percent:
        parts = [f"{p:g} percent for {k}" for k, p in amount.percent.items()]
        return f"{' and '.join(parts)} of {phrases.say(amount.expression)}"
    if amount.expression is not None:
        return phrases.say(amount.expression)
    if amount.field and not amount.percent:
        kind, _, field = amount.field.partition(".")
        return phrases.say(ex.Ref(kind, field))
    return describe_amount(amount)
