"""Declared resolutions: what a call carries (arguments), what it names (``selects``), what it
is worth (``amount``), what it does (``effects``, ``then``) and what must have happened first
(``requires``), all written in ``resolutions.yaml`` (issue 19, stage C).

    return_items:
      quality: 1.0
      tool: return_delivered_order_items
      arguments:
        order_id: {type: id, of: order}
        item_ids: {type: ids, of: item}
        reason: {type: choice, values: [no longer needed, other], default: other}
      selects: item
      requires: [identity_verified, confirmed]
      amount: sum(item.price where item.selected)
      effects:
        - order.status = 'return requested'
        - item.status = 'return requested' where item.selected
      then: notify_warehouse

A call's arguments become the ``request`` fact (a kind the loader declares, one field per
argument that is not a list of ids), and ``selects: item`` marks the members an ``ids``
argument names with the derived field ``item.selected``; so policies test a call with the
language they already have. Everything is checked here, at load, with the catalogue's lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from novamart.kernel import expressions
from novamart.kernel.effects import REQUEST_KIND, SELECTED, Effect, order_problems, parse_effect
from novamart.kernel.expressions import ExpressionError
from novamart.kernel.facts import ChoiceValue, FactSchema, FieldSpec, KindSpec

if TYPE_CHECKING:
    from novamart.kernel.rulebook import ResolutionSpec, _Collector, _Located

EVENT_KIND = "event"
"""The fact kind whose true/false fields are the conversation's events (``requires:``)."""
EVENT_STEP = "event"
"""A plan's step ``{event: confirmed}``: an event arriving between calls."""
GRANTED = "granted"
"""The request's field holding the amount of the grant carried out (what effects may add)."""
RESERVED = ("request_id", "resolution", GRANTED)
"""Fields of the request fact that are not arguments."""
Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]


class ArgumentSpec(BaseModel):
    """One argument of a call, typed like a fact field: ``id``/``ids`` of a kind (``ids``: at
    least one member of a collection), a ``choice`` of values, ``money`` or ``text``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["id", "ids", "choice", "money", "text"]
    of: Name | None = None
    values: tuple[ChoiceValue, ...] | None = None
    default: str | float | None = None
    describe: str = ""

    @model_validator(mode="after")
    def _consistent(self) -> ArgumentSpec:
        if (self.type in ("id", "ids")) != (self.of is not None):
            raise ValueError("an id or ids argument says the kind it names (of: order); no other")
        if (self.type == "choice") != (self.values is not None):
            raise ValueError("a choice argument lists its values (values: [a, b]); no other")
        if self.default is not None and self.type in ("id", "ids"):
            raise ValueError("an id argument has no default: the call names it")
        if self.type == "choice" and self.default is not None and self.default not in self.values:
            raise ValueError(f"default {self.default!r} is not one of the values")
        return self

    def field(self) -> FieldSpec | None:
        """The request fact's field for it (none for a list of ids: ``selected`` says it)."""
        if self.type == "ids":
            return None
        kind = {"id": "text", "money": "money", "choice": "choice", "text": "text"}[self.type]
        extra: dict[str, Any] = {"values": self.values} if self.type == "choice" else {}
        if self.type == "money":
            extra["range"] = (0, 1_000_000)
        return FieldSpec(type=kind, describe=self.describe or "an argument of the call", **extra)


class ArgumentError(ValueError):
    """A call whose arguments do not fit its resolution's declaration or the case."""


class Call(BaseModel):
    """One request: a resolution and its arguments, as a tool call carries them."""

    model_config = ConfigDict(frozen=True)
    resolution: str
    arguments: dict[str, Any] = {}


@dataclass(frozen=True)
class Declaration:
    """One resolution's declaration, checked: its effects read, its follow-up known."""

    arguments: dict[str, ArgumentSpec]
    selects: str | None
    effects: tuple[Effect, ...]
    then: str | None
    requires: tuple[str, ...]
    declines: bool


Step = Call | str
"""A call, or the name of a conversation event arriving between calls."""

MAX_REQUESTS = 6
"""Requests one plan search orders (6! = 720 orders): more is not one conversation's worth."""
CHOICES = "choices"
"""A request's key for the arguments it leaves open: ``choices: {payment_method_id: [a, b]}``."""


class Request(BaseModel):
    """What the customer asks for, before anyone decides how: one resolution of a family
    (``[return_items, exchange_items]``), some arguments fixed, others open among choices
    (which payment method, which variant). The plan optimum picks one call per request."""

    model_config = ConfigDict(frozen=True)
    resolutions: tuple[str, ...]
    arguments: dict[str, Any] = {}
    choices: dict[str, tuple[Any, ...]] = {}

    def calls(self, declared: Mapping[str, Declaration]) -> list[Call]:
        """Every call it may become: each resolution in the order written, each combination
        of choices in the order listed, with the arguments that resolution takes."""
        combinations: list[dict[str, Any]] = [{}]
        for name, values in self.choices.items():
            combinations = [{**c, name: v} for c in combinations for v in values]
        calls = []
        for resolution in self.resolutions:
            takes = declared[resolution].arguments
            for chosen in combinations:
                given = {**self.arguments, **chosen}
                arguments = {k: v for k, v in given.items() if k in takes}
                calls.append(Call(resolution=resolution, arguments=arguments))
        return calls


def parse_request(declared: Mapping[str, Declaration], raw: Mapping[str, Any]) -> Request:
    """``{resolution: R or [R, ...], <argument>: value, choices: {<argument>: [v, ...]}}``;
    an ArgumentError names what does not fit (before any facts are known)."""
    arguments = dict(raw)
    family = arguments.pop("resolution", None)
    resolutions = tuple(family) if isinstance(family, list) else (family,)
    unknown = [r for r in resolutions if str(r) not in declared]
    if not resolutions or unknown:
        raise ArgumentError(
            f"a request names its resolution or a list of them; unknown resolution "
            f"{unknown[0] if unknown else None!r} (catalogue: {', '.join(declared)})"
        )
    choices = arguments.pop(CHOICES, {})
    if not isinstance(choices, dict) or not all(
        isinstance(v, list) and v for v in choices.values()
    ):
        raise ArgumentError(f"{CHOICES}: maps an argument to a list of values, at least one")
    taken = {a for r in resolutions for a in declared[str(r)].arguments}
    extra = sorted((set(arguments) | set(choices)) - taken)
    if extra:
        raise ArgumentError(
            f"{' or '.join(map(str, resolutions))} takes no argument {', '.join(extra)} "
            f"(arguments: {', '.join(sorted(taken)) or 'none'})"
        )
    twice = sorted(set(arguments) & set(choices))
    if twice:
        raise ArgumentError(f"{', '.join(twice)}: given and among the choices; say one")
    return Request(
        resolutions=tuple(map(str, resolutions)),
        arguments=arguments,
        choices={k: tuple(v) for k, v in choices.items()},
    )


def parse_step(
    schema: FactSchema, declared: Mapping[str, Declaration], raw: Mapping[str, Any]
) -> Step:
    """``{event: confirmed}`` or ``{resolution: R, <argument>: value, ...}``; an
    ArgumentError names what does not fit (before any facts are known)."""
    if set(raw) == {EVENT_STEP}:
        known = event_names(schema)
        if raw[EVENT_STEP] not in known:
            raise ArgumentError(
                f"unknown event {raw[EVENT_STEP]!r} (events: {', '.join(known) or 'none'})"
            )
        return str(raw[EVENT_STEP])
    arguments = dict(raw)
    resolution = arguments.pop("resolution", None)
    declared = declared.get(str(resolution))
    if declared is None:
        raise ArgumentError(
            f"a step is {{event: <event>}} or {{resolution: <name>, arguments...}}; unknown "
            f"resolution {resolution!r} (catalogue: {', '.join(declared)})"
        )
    unknown = sorted(set(arguments) - set(declared.arguments))
    if unknown:
        raise ArgumentError(
            f"{resolution} takes no argument {', '.join(unknown)} "
            f"(its arguments: {', '.join(declared.arguments) or 'none'})"
        )
    return Call(resolution=str(resolution), arguments=arguments)


def event_names(schema: FactSchema) -> tuple[str, ...]:
    """The conversation's events this rulebook knows (none without an ``event`` kind)."""
    kind = schema.kinds.get(EVENT_KIND)
    return () if kind is None else tuple(f for f, s in kind.fields.items() if s.type == "bool")


def extend_schema(
    doc: _Located | str,
    catalogue: dict[str, ResolutionSpec],
    schema: FactSchema,
    issues: _Collector,
) -> FactSchema:
    """The fact vocabulary with what calls add: the ``request`` kind (when some resolution
    takes arguments) and ``selected`` on each kind a resolution selects members of."""
    kinds = dict(schema.kinds)
    calls = {name: spec for name, spec in catalogue.items() if spec.arguments}
    if calls and REQUEST_KIND in schema.kinds:
        name = next(iter(calls))
        issues.add(
            doc,
            ("resolutions", name, "arguments"),
            f"resolution {name}",
            f"facts.yaml declares a kind {REQUEST_KIND!r}, but a call's arguments are the "
            f"{REQUEST_KIND} fact: rename that kind",
        )
        return schema
    if calls:
        kinds[REQUEST_KIND] = _request_kind(doc, calls, schema, issues)
    for name, spec in catalogue.items():
        if spec.selects is not None:
            kinds = _selecting(doc, name, spec, kinds, issues)
    return FactSchema(kinds=kinds)


def _request_kind(
    doc: _Located | str,
    calls: dict[str, ResolutionSpec],
    schema: FactSchema,
    issues: _Collector,
) -> KindSpec:
    fields: dict[str, FieldSpec] = {
        "request_id": FieldSpec(type="id", describe="the call"),
        "resolution": FieldSpec(type="choice", values=tuple(calls), describe="what is asked"),
        GRANTED: FieldSpec(
            type="money",
            describe="what the call is worth once granted (set as it is carried out, for its "
            "effects: customer.credit = customer.credit + request.granted)",
        ),
    }
    for name, spec in calls.items():
        for arg, argument in spec.arguments.items():
            path = ("resolutions", name, "arguments", arg)
            where = f"resolution {name}"
            if arg in RESERVED:
                issues.add(doc, path, where, f"argument {arg!r} is reserved ({RESERVED})")
                continue
            if argument.of is not None and argument.of not in schema.kinds:
                issues.add(
                    doc,
                    (*path, "of"),
                    where,
                    f"argument {arg}: unknown fact kind {argument.of!r} "
                    f"(known: {', '.join(schema.kinds)})",
                )
            kind = schema.kinds.get(argument.of or "")
            if argument.type == "ids" and kind is not None and not kind.many:
                issues.add(
                    doc,
                    (*path, "of"),
                    where,
                    f"argument {arg}: ids name members of a collection, and "
                    f"{argument.of} is one fact (use type: id)",
                )
            field = argument.field()
            if field is None:
                continue
            known = fields.get(arg)
            if known is not None and (known.type, known.values) != (field.type, field.values):
                issues.add(
                    doc,
                    path,
                    where,
                    f"argument {arg} is {field.type} here but {known.type} in another "
                    "resolution: an argument's name has one type",
                )
                continue
            fields[arg] = field
    return KindSpec(revealed_by=None, fields=fields)


def _selecting(
    doc: _Located | str,
    name: str,
    spec: ResolutionSpec,
    kinds: dict[str, KindSpec],
    issues: _Collector,
) -> dict[str, KindSpec]:
    kind = spec.selects
    where = f"resolution {name}"
    path = ("resolutions", name, "selects")
    lists = [a for a, arg in spec.arguments.items() if arg.type == "ids" and arg.of == kind]
    if kind not in kinds or not kinds[kind].many:
        issues.add(doc, path, where, f"selects: {kind!r} is not a collection kind")
        return kinds
    if len(lists) != 1:
        issues.add(
            doc,
            path,
            where,
            f"selects: {kind} needs exactly one argument of type ids of {kind} "
            f"(found {len(lists)})",
        )
    fields = kinds[kind].fields
    if SELECTED in fields and fields[SELECTED].describe != _SELECTED.describe:
        issues.add(
            doc,
            path,
            where,
            f"{kind}.{SELECTED} is declared in facts.yaml, but selects: derives it from the "
            "request: rename that field",
        )
        return kinds
    return {
        **kinds,
        kind: kinds[kind].model_copy(update={"fields": {**fields, SELECTED: _SELECTED}}),
    }


_SELECTED = FieldSpec(type="bool", default=False, describe="named by the request's arguments")


def load_declarations(
    doc: _Located | str,
    catalogue: dict[str, ResolutionSpec],
    schema: FactSchema,
    issues: _Collector,
) -> dict[str, Declaration]:
    """Each resolution's effects, follow-up and events, checked against ``schema`` (the
    extended one); refusals carry the catalogue's lines."""
    declared = {}
    for name, spec in catalogue.items():
        where = f"resolution {name}"
        effects = []
        for i, text in enumerate(spec.effects):
            try:
                effects.append(parse_effect(text, schema))
            except ExpressionError as e:
                issues.add(doc, ("resolutions", name, "effects", i), where, f"effect: {e}")
        for i, why in order_problems(effects):
            issues.add(doc, ("resolutions", name, "effects", i), where, f"effect: {why}")
        if spec.then is not None and spec.then not in catalogue:
            issues.add(
                doc,
                ("resolutions", name, "then"),
                where,
                f"then: unknown resolution {spec.then!r} (catalogue: {', '.join(catalogue)})",
            )
        if spec.declines and (spec.effects or spec.selects or spec.then or spec.amount):
            issues.add(
                doc,
                ("resolutions", name, "declines"),
                where,
                "a declining resolution changes nothing: no effects, selects, then or amount",
            )
        _check_requires(doc, name, spec, schema, catalogue, issues)
        declared[name] = Declaration(
            arguments=dict(spec.arguments),
            selects=spec.selects,
            effects=tuple(effects),
            then=spec.then if spec.then in catalogue else None,
            requires=tuple(spec.requires),
            declines=spec.declines,
        )
    _check_cycles(doc, declared, issues)
    return declared


def _check_cycles(
    doc: _Located | str, declared: dict[str, Declaration], issues: _Collector
) -> None:
    """A ``then:`` chain that comes back to where it started would never end."""
    reported: set[str] = set()
    for start in declared:
        chain, name = [start], declared[start].then
        while name is not None and name not in chain:
            chain.append(name)
            name = declared[name].then
        if name == start and start not in reported:
            reported |= set(chain)
            issues.add(
                doc,
                ("resolutions", chain[-1], "then"),
                f"resolution {chain[-1]}",
                f"then: a cycle ({' -> '.join([*chain, start])}): follow-ups must end",
            )


def _check_requires(
    doc: _Located | str,
    name: str,
    spec: ResolutionSpec,
    schema: FactSchema,
    catalogue: dict[str, ResolutionSpec],
    issues: _Collector,
) -> None:
    """Each required event is a true/false field of the ``event`` kind that something can
    make true: the tool revealing events, words of the customer's message (says_true), or
    an effect."""
    where = f"resolution {name}"
    events = schema.kinds.get(EVENT_KIND)
    for i, event in enumerate(spec.requires):
        path = ("resolutions", name, "requires", i)
        field = events.fields.get(event) if events is not None else None
        if events is None:
            issues.add(
                doc,
                path,
                where,
                f"requires: {event!r}: events are the true/false fields of the fact kind "
                f"{EVENT_KIND!r}, and facts.yaml declares none",
            )
            continue
        if field is None or field.type != "bool":
            known = [f for f, s in events.fields.items() if s.type == "bool"]
            issues.add(
                doc,
                path,
                where,
                f"requires: unknown event {event!r} (events: {', '.join(known) or 'none'})",
            )
            continue
        if not (events.revealed_by or field.says_true or _set_by_effect(event, catalogue, schema)):
            issues.add(
                doc,
                path,
                where,
                f"requires: {event!r} is unsatisfiable: no tool reveals the {EVENT_KIND} kind, "
                f"no words of a message say it (says_true) and no effect sets it",
            )


def _set_by_effect(event: str, catalogue: dict[str, ResolutionSpec], schema: FactSchema) -> bool:
    target = f"{EVENT_KIND}.{event}"
    for spec in catalogue.values():
        for text in spec.effects:
            try:
                effect = parse_effect(text, schema)
            except ExpressionError:
                continue
            if effect.target == target and expressions.holds(effect.value, _NOTHING) is not False:
                return True
    return False


class _Nothing:
    """An environment where nothing is known (an effect's value that is true anyway)."""

    def value(self, kind: str, field: str) -> None:
        return None

    def collection(self, kind: str) -> None:
        return None


_NOTHING = _Nothing()
