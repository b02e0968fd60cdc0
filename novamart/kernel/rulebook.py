"""Load and validate the analysts' rule files into a typed Rulebook.

Every problem is reported with its file, line, policy/condition and what is wrong, and
all problems of a rule set are reported at once, so an analyst fixes them in one pass.
A rule set that passes here is safe to hand to the engine (see ``limits``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from novamart.kernel import expressions, limits, variants, wording, yaml_advice
from novamart.kernel.conditions import (
    FAILED,
    FALLBACK_TEST,
    LIMIT,
    SCOPE,
    ConditionSyntaxError,
    ExprTest,
    FallbackTest,
    FieldTest,
    ScopeTest,
    Test,
    parse_test,
)
from novamart.kernel.declared import (
    EVENT_KIND,
    MAX_REQUESTS,
    ArgumentError,
    ArgumentSpec,
    Declaration,
    Request,
    Step,
    event_names,
    extend_schema,
    load_declarations,
    parse_request,
    parse_step,
)
from novamart.kernel.expressions import Expr, ExpressionError
from novamart.kernel.facts import Facts, FactSchema, load_schema

DEFAULT_RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
CATALOGUE_FILE = "resolutions.yaml"
FACTS_FILE = "facts.yaml"
SPECIAL_FILES = (CATALOGUE_FILE, FACTS_FILE)
Name = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$", max_length=64)]
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_POLICY_LINE = re.compile(r"^policy:\s*([a-z][a-z0-9_]*)\s*$", re.MULTILINE)


class RuleIssue(BaseModel):
    """One problem in a rule file, located for the analyst."""

    file: str
    line: int | None
    where: str
    message: str

    def __str__(self) -> str:
        place = f"{self.file}:{self.line}" if self.line else self.file
        where = f" {self.where}:" if self.where else ""
        return f"{place}:{where} {self.message}"


class RulebookError(Exception):
    """The rule set is not valid; ``issues`` lists every problem found."""

    def __init__(self, issues: list[RuleIssue]):
        self.issues = issues
        super().__init__("\n".join(map(str, issues)))


# ---- the file format, as analysts write it -------------------------------------------


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ResolutionSpec(_Spec):
    description: str
    quality: Annotated[float, Field(ge=0, le=1)]
    tool: Name
    says: tuple[str, ...] = ()
    """The words a message uses for this resolution (for the message reader)."""
    arguments: dict[Name, ArgumentSpec] = {}
    """What a call carries (novamart.kernel.declared): the request fact's fields."""
    selects: Name | None = None
    """The collection whose members an ``ids`` argument names (``item.selected``)."""
    amount: str | None = None
    """What the resolution is worth, for grants that do not say (an expression)."""
    effects: tuple[str, ...] = ()
    """What carrying it out does: ``kind.field = value [where condition]``."""
    then: Name | None = None
    """A follow-up resolution carried out with it (its effects apply after these)."""
    requires: tuple[Name, ...] = ()
    """Conversation events that must have happened (fields of the ``event`` kind)."""
    declines: bool = False
    """A refusal: granting it says nothing else is allowed, and why."""

    @property
    def declares_call(self) -> bool:
        """Whether a generic write tool carries it out (novamart.tools.declared): it says what
        a call carries or does, so its ``tool`` is the name that generic tool is offered as."""
        return bool(self.arguments or self.effects or self.requires or self.declines or self.then)


class CatalogueFile(_Spec):
    resolutions: dict[Name, ResolutionSpec]


class ConditionSpec(_Spec):
    name: Name
    test: str
    reason: str


class PercentAmount(_Spec):
    percent_of: str
    by: str
    percent: dict[str, Annotated[float, Field(ge=0, le=100)]]


class GrantSpec(_Spec):
    resolution: Name
    quality: Annotated[float, Field(ge=0, le=1)] | None = None
    amount: float | str | PercentAmount | None = None
    """None: the resolution's declared amount, or 0."""


class ExampleSpec(_Spec):
    name: str
    facts: dict[str, Any]
    request: dict[str, Any] | None = None
    """One call (``{resolution: R, <argument>: value}``), decided on the facts."""
    steps: list[dict[str, Any]] = []
    """A plan: calls and ``{event: E}`` in order, each decided on the state before it."""
    requests: list[dict[str, Any]] = []
    """What the customer asks for, the plan optimum to find (novamart.kernel.plans)."""
    before_each: list[str] = []
    """Events arriving before every call of the optimum's plans (the customer's yes)."""
    expect: dict[str, Any]


class PolicyFile(_Spec):
    policy: Name
    clause: str
    applies_when: Literal["all conditions hold", "any condition holds"] = "all conditions hold"
    overrides: bool = False
    for_each: Name | None = None
    """A collection kind: the policy decides each of its members (an order's items) apart."""
    conditions: Annotated[list[ConditionSpec], Field(min_length=1)]
    grants: Annotated[list[GrantSpec], Field(min_length=1)]
    examples: list[ExampleSpec] = []
    vary: dict[str, tuple[float, float]] = {}
    """What policy variants may move, within bounds (novamart.kernel.variants)."""


# ---- the validated rulebook ------------------------------------------------------------


class Condition(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    name: str
    text: str
    test: Test
    reason: str
    line: int | None = None


class Amount(BaseModel):
    """How much a grant is worth: a constant, a field, an expression over fields
    (``order.price - order.discount``, ``order.price * 10%``), or a percentage by some field
    (``by``, ``percent``) of a field or of an expression."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    constant: float = 0
    field: str | None = None
    by: str | None = None
    percent: dict[str, float] = {}
    expression: Expr | None = None
    text: str | None = None
    """The expression as written (for the handbook and explanations)."""


class Grant(BaseModel):
    model_config = ConfigDict(frozen=True)
    resolution: str
    quality: float
    amount: Amount
    line: int | None = None


class Example(BaseModel):
    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    name: str
    policy: str
    """The policy written above it (it may expect verdicts of others too)."""
    file: str
    line: int | None
    facts: Facts
    expect: dict[str, Any]
    steps: tuple[Any, ...] = ()
    """Calls (novamart.kernel.requests.Call) and event names, in order; the plain
    expectations then speak of the decision on the first call."""
    requests: tuple[Any, ...] = ()
    """Requests (novamart.kernel.declared.Request) whose best plan is expected; the plain
    expectations then speak of the decision on the best plan's first call."""
    before_each: tuple[str, ...] = ()


class Policy(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    clause: str
    file: str
    conditions: list[Condition]
    grants: list[Grant]
    any_condition: bool = False  # applies when any condition holds, not all of them
    overrides: bool = False  # when it applies, its grants are the only ones offered
    for_each: str | None = None  # decided per member of this collection kind
    vary: dict[str, tuple[float, float]] = {}  # what policy variants may move, within bounds

    @property
    def is_fallback(self) -> bool:
        return any(isinstance(c.test, FallbackTest) for c in self.conditions)


class Rulebook(BaseModel):
    """The whole policy set, validated; ``version`` is a hash of the files' contents."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    version: str
    facts: FactSchema
    resolutions: dict[str, ResolutionSpec]
    policies: dict[str, Policy]
    examples: list[Example]
    declared: dict[str, Declaration] = {}
    """Each resolution's checked declaration: arguments, effects, follow-up, events."""

    def tested_fields(self) -> dict[str, tuple[str, ...]]:
        """Kind -> the fields some condition tests, in rule order: all that which policies
        apply can depend on (ids, prices and the product only fill in reasons and amounts)."""
        tested: dict[str, dict[str, None]] = {}
        for policy in self.policies.values():
            for cond in policy.conditions:
                if isinstance(cond.test, FieldTest):
                    tested.setdefault(cond.test.kind, {})[cond.test.field] = None
                elif isinstance(cond.test, ExprTest):
                    for ref in cond.test.refs:
                        kind, _, field = ref.partition(".")
                        tested.setdefault(kind, {})[field] = None
        return {kind: tuple(fields) for kind, fields in tested.items()}


# ---- loading ----------------------------------------------------------------------------


class _Located:
    """One parsed YAML document plus the line of every key/item, by path."""

    def __init__(self, file: str, node: yaml.Node, data: Any):
        self.file = file
        self.lines: dict[tuple, int] = {}
        self.duplicates: list[tuple[tuple, int]] = []
        self._walk(node, ())
        self.data = data

    @classmethod
    def read(cls, file: str, text: str) -> list[_Located]:
        """Every non-empty document of a file (several policies may share one, split by
        ---; an empty document, as after a trailing ---, holds nothing)."""
        nodes = list(yaml.compose_all(text, Loader=yaml.SafeLoader))
        data = list(yaml.safe_load_all(text))
        return [
            cls(file, node, value)
            for node, value in zip(nodes, data, strict=True)
            if node is not None
        ]

    def _walk(self, node: yaml.Node, path: tuple) -> None:
        self.lines[path] = node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            seen = set()
            for key, value in node.value:
                if key.value in seen:
                    self.duplicates.append(((*path, key.value), key.start_mark.line + 1))
                seen.add(key.value)
                self.lines[(*path, key.value)] = key.start_mark.line + 1
                self._walk(value, (*path, key.value))
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                self._walk(item, (*path, i))

    def line(self, path: tuple) -> int | None:
        """The line of ``path``, or of its nearest located parent."""
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path)


class _Collector:
    """The issues found so far, and what is broken, so one broken file is reported once
    and not again as bogus errors in the files that refer to it."""

    def __init__(self) -> None:
        self.issues: list[RuleIssue] = []
        self.broken_policies: set[str] = set()
        self.catalogue_broken = False
        self.broken_files: set[str] = set()

    def add(self, doc: _Located | str, path: tuple, where: str, message: str) -> None:
        file = doc if isinstance(doc, str) else doc.file
        line = None if isinstance(doc, str) else doc.line(path)
        self.issues.append(RuleIssue(file=file, line=line, where=where, message=message))

    def add_validation(self, doc: _Located, error: ValidationError, where: str) -> None:
        for e in error.errors():
            loc = tuple(e["loc"])
            field = _path_words(loc)
            message = _describe(e)
            self.add(doc, loc, where, f"{field}: {message}" if field else message)


def _describe(error: dict) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        return "unknown key (check its spelling)"
    if kind == "missing":
        return "required but missing"
    if kind == "string_type" and isinstance(error.get("input"), dict):
        return "YAML read this text as a mapping because it starts with '{'; put it in quotes"
    return str(error["msg"])


def _path_words(loc: tuple) -> str:
    """A location as an analyst counts: ('conditions', 0, 'test') is 'condition 1, test'."""
    words: list[str] = []
    for part in loc:
        if isinstance(part, int) and words:
            words[-1] = f"{words[-1].removesuffix('s')} {part + 1},"
        else:
            words.append(str(part))
    return ".".join(words).replace(",.", ", ").rstrip(",")


def load_rulebook(
    rules_dir: Path | str = DEFAULT_RULES_DIR, tools: Collection[str] | None = None
) -> Rulebook:
    """Read, validate and return the rule set in ``rules_dir``; raise RulebookError.

    ``tools``: the tools that exist; a resolution naming another is refused (without it,
    tool names are not checked: the kernel does not know the tools)."""
    rules_dir = Path(rules_dir)
    issues = _Collector()
    files = sorted(rules_dir.glob("*.yaml")) if rules_dir.is_dir() else []
    if not files:
        raise RulebookError(
            [
                RuleIssue(
                    file=str(rules_dir), line=None, where="", message="no rule files (*.yaml) found"
                )
            ]
        )
    digest = hashlib.sha256()
    docs = _read_files(files, digest, issues)
    catalogue = _load_catalogue(docs, issues, rules_dir)
    schema = _load_facts(docs, issues, rules_dir)
    if tools is not None:
        _check_tools(docs, catalogue, schema, tools, issues)
    declared: dict[str, Declaration] = {}
    amounts: dict[str, Amount] = {}
    if schema is not None and not issues.catalogue_broken:
        where = _catalogue_doc(docs)
        assert where is not None  # a missing catalogue is a broken one
        schema = extend_schema(where, catalogue, schema, issues)
        declared = load_declarations(where, catalogue, schema, issues)
        amounts = _declared_amounts(where, catalogue, schema, issues)
    policies: dict[str, Policy] = {}
    examples: list[tuple[_Located, tuple, ExampleSpec, str]] = []
    for name, parts in docs.items():
        if Path(name).name in SPECIAL_FILES:
            continue
        for doc in parts:
            policy = _load_policy(doc, catalogue, schema, policies, examples, issues, amounts)
            if policy is not None:
                policies[policy.name] = policy
    if not policies and not issues.issues:
        issues.add(str(rules_dir), (), "", "no policies: add at least one policy file")
    _check_fallbacks(policies, issues)
    policies = _scoped(policies, issues)
    policies = _required(policies, declared, issues)
    limits.check(policies, issues)
    # with the facts or the catalogue broken, conditions and grants were left out: a vary
    # entry naming them is not wrong, and the broken file's own issue says what is
    variants.check(policies, issues, complete=schema is not None and not issues.catalogue_broken)
    checked_examples = _load_examples(examples, catalogue, schema, policies, issues, declared)
    if issues.issues:
        raise RulebookError(issues.issues)
    ordered = dict(sorted(policies.items(), key=lambda kv: (kv[1].is_fallback, kv[0])))
    assert schema is not None  # a missing or invalid declaration is an issue above
    return Rulebook(
        version=digest.hexdigest()[:12],
        facts=schema,
        resolutions=catalogue,
        policies=ordered,
        examples=checked_examples,
        declared=declared,
    )


def _read_files(files: list[Path], digest: Any, issues: _Collector) -> dict[str, list[_Located]]:
    """File-level checks: every file is UTF-8 YAML holding something. A file that fails
    here is reported once, and the policies it would define are marked broken."""
    docs: dict[str, list[_Located]] = {}
    for path in files:
        raw = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + raw + b"\0")
        name = _display(path)
        problem: tuple[int | None, str] | None = None
        text = ""
        try:
            text = raw.decode("utf-8")
            problem = _alias(text)
            parts = [] if problem else _Located.read(name, text)
        except UnicodeDecodeError as e:
            problem = None, f"not UTF-8 text ({e.reason} at byte {e.start + 1})"
        except yaml.YAMLError as e:
            problem = yaml_advice.explain(e, text)
        else:
            if not parts and problem is None:
                problem = 1, _empty_file(text, path.name)
        if problem is not None:
            line, message = problem
            issues.issues.append(RuleIssue(file=name, line=line, where="", message=message))
            issues.broken_policies |= {path.stem, *_POLICY_LINE.findall(text)}
            issues.catalogue_broken |= path.name == CATALOGUE_FILE
            issues.broken_files.add(path.name)
            continue
        docs[name] = parts
        for doc in parts:
            for key_path, line in doc.duplicates:
                issues.issues.append(
                    RuleIssue(
                        file=name, line=line, where="", message=f"duplicate key {key_path[-1]!r}"
                    )
                )
    return docs


def _alias(text: str) -> tuple[int, str] | None:
    """YAML anchors and aliases (&name, *name) are refused: rule files never need them, and
    a few nested aliases stand for an exponentially large document (a pasted rule file
    reaches the server's workbench)."""
    try:
        for token in yaml.scan(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(token, yaml.AnchorToken | yaml.AliasToken):
                return token.start_mark.line + 1, (
                    "YAML anchors and aliases (&name, *name) are not allowed in rule files; "
                    "write the text out in full"
                )
    except yaml.YAMLError:
        return None  # a syntax error: the parser below says where, in its own words
    return None


def _empty_file(text: str, name: str) -> str:
    what = "is empty" if not text.strip() else "holds only comments"
    if name == FACTS_FILE:
        return f"the file {what}: it declares the fact kinds under 'facts:' (see rules/README.md)"
    if name == CATALOGUE_FILE:
        return (
            f"the file {what}: it lists the resolutions under 'resolutions:' (see rules/README.md)"
        )
    return (
        f"the file {what}: a policy file starts with 'policy: <name>', then its clause, "
        "conditions and grants (see rules/README.md); delete the file if it is not needed"
    )


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _catalogue_doc(docs: dict[str, list[_Located]]) -> _Located | None:
    parts = next((d for n, d in docs.items() if Path(n).name == CATALOGUE_FILE), None)
    return parts[0] if parts else None


def _declared_amounts(
    doc: _Located, catalogue: dict[str, ResolutionSpec], schema: FactSchema, issues: _Collector
) -> dict[str, Amount]:
    """What each resolution declaring an ``amount:`` is worth, for grants that say nothing."""
    return {
        name: _expression_amount(
            spec.amount, schema, doc, ("resolutions", name, "amount"), f"resolution {name}", issues
        )
        for name, spec in catalogue.items()
        if spec.amount is not None
    }


def _load_catalogue(
    docs: dict[str, list[_Located]], issues: _Collector, rules_dir: Path
) -> dict[str, ResolutionSpec]:
    """The resolution catalogue; when it is missing or broken, every resolution name is
    unknown, so the policies' references to it are not reported again."""
    parts = next((d for n, d in docs.items() if Path(n).name == CATALOGUE_FILE), None)
    doc = parts[0] if parts else None
    if doc is None:
        if not issues.catalogue_broken:
            issues.add(
                str(rules_dir / CATALOGUE_FILE), (), "", "the resolution catalogue is missing"
            )
        issues.catalogue_broken = True
        return {}
    try:
        return CatalogueFile.model_validate(doc.data).resolutions
    except ValidationError as e:
        issues.add_validation(doc, e, "resolution catalogue")
        issues.catalogue_broken = True
        return {}


def _check_tools(
    docs: dict[str, list[_Located]],
    catalogue: dict[str, ResolutionSpec],
    schema: FactSchema | None,
    tools: Collection[str],
    issues: _Collector,
) -> None:
    """Catalogue checks: every resolution, and every fact kind a tool reveals, names a tool
    that exists, or check_policy would offer what nothing can carry out or find out."""
    known = f"(the tools: {', '.join(sorted(tools))})"
    files = {Path(n).name: d[0] for n, d in docs.items() if d}
    generic: dict[str, str] = {}
    for name, spec in catalogue.items():
        if spec.declares_call:
            _check_generic_tool(files[CATALOGUE_FILE], name, spec, tools, generic, issues)
        elif spec.tool not in tools:
            issues.add(
                files[CATALOGUE_FILE],
                ("resolutions", name, "tool"),
                f"resolution {name}",
                f"tool {spec.tool!r} does not exist {known}",
            )
    for kind, fact in (schema.kinds if schema is not None else {}).items():
        if fact.revealed_by is not None and fact.revealed_by not in tools:
            issues.add(
                files[FACTS_FILE],
                ("facts", kind, "revealed_by"),
                f"fact kind {kind}",
                f"revealed_by: tool {fact.revealed_by!r} does not exist {known}",
            )


def _check_generic_tool(
    doc: _Located,
    name: str,
    spec: ResolutionSpec,
    tools: Collection[str],
    generic: dict[str, str],
    issues: _Collector,
) -> None:
    """A declared resolution's tool is generated from its declaration, so it must not be a
    built-in tool (whose arguments are its own), nor carry out another declared resolution."""
    path, where = ("resolutions", name, "tool"), f"resolution {name}"
    if spec.tool in tools:
        issues.add(
            doc,
            path,
            where,
            f"tool {spec.tool!r} is a built-in tool with arguments of its own; a resolution "
            "declaring arguments, effects, requires, declines or then is carried out by a tool "
            "generated from it: give it a name of its own",
        )
    elif spec.tool in generic:
        issues.add(
            doc,
            path,
            where,
            f"tool {spec.tool!r} already carries out {generic[spec.tool]}: one tool per "
            "declared resolution",
        )
    generic.setdefault(spec.tool, name)


def _load_facts(
    docs: dict[str, list[_Located]], issues: _Collector, rules_dir: Path
) -> FactSchema | None:
    parts = next((d for n, d in docs.items() if Path(n).name == FACTS_FILE), None)
    doc = parts[0] if parts else None
    if doc is None:
        if FACTS_FILE not in issues.broken_files:
            issues.add(str(rules_dir / FACTS_FILE), (), "", "the fact declaration is missing")
        return None
    try:
        return load_schema(doc.data)
    except ValidationError as e:
        issues.add_validation(doc, e, "fact declaration")
        return None


def _load_policy(
    doc: _Located,
    catalogue: dict[str, ResolutionSpec],
    schema: FactSchema | None,
    known: dict[str, Policy],
    examples: list,
    issues: _Collector,
    declared_amounts: dict[str, Amount],
) -> Policy | None:
    if _no_policy(doc, issues):
        return None
    try:
        spec = PolicyFile.model_validate(doc.data)
    except ValidationError as e:
        issues.add_validation(doc, e, "")
        issues.broken_policies.add(str(doc.data["policy"]))
        return None
    where = f"policy {spec.policy}"
    if spec.for_each is not None and schema is not None:
        kind = schema.kinds.get(spec.for_each)
        if kind is None or not kind.many:
            collections = [k for k, s in schema.kinds.items() if s.many]
            issues.add(
                doc,
                ("for_each",),
                where,
                f"for_each: {spec.for_each!r} is not a collection kind (many: true in "
                f"facts.yaml; collections: {', '.join(collections) or 'none'})",
            )
    if spec.policy in known:
        issues.add(
            doc,
            ("policy",),
            where,
            f"duplicate policy name (also defined in {known[spec.policy].file})",
        )
    conditions = []
    seen: set[str] = set()
    unreadable: set[str] = set()
    for i, c in enumerate(spec.conditions):
        cwhere = f"{where}, condition {c.name}"
        if c.name in seen:
            issues.add(doc, ("conditions", i, "name"), cwhere, "duplicate condition name")
        seen.add(c.name)
        if schema is None:
            unreadable.add(c.name)
            continue  # without the fact declaration no test can be read
        try:
            test = parse_test(c.test, schema)
        except ConditionSyntaxError as e:
            issues.add(doc, ("conditions", i, "test"), cwhere, str(e))
            unreadable.add(c.name)
            continue
        for problem in _template_problems(c.reason, test, schema):
            issues.add(doc, ("conditions", i, "reason"), cwhere, problem)
        if isinstance(test, FieldTest | ExprTest):
            for problem in wording.reason_problems(c.reason, test):
                issues.add(doc, ("conditions", i, "reason"), cwhere, problem)
        conditions.append(
            Condition(
                name=c.name,
                text=c.test,
                test=test,
                reason=c.reason,
                line=doc.line(("conditions", i)),
            )
        )
    grants = []
    granted: set[str] = set()
    for i, g in enumerate(spec.grants):
        gwhere = f"{where}, grant {g.resolution}"
        if g.resolution not in catalogue and issues.catalogue_broken:
            continue  # the catalogue's own issues say what is wrong
        if g.resolution not in catalogue:
            issues.add(
                doc,
                ("grants", i, "resolution"),
                gwhere,
                f"unknown resolution (catalogue: {', '.join(catalogue) or 'empty'})",
            )
            continue
        if g.resolution in granted:
            issues.add(doc, ("grants", i, "resolution"), gwhere, "granted twice")
        granted.add(g.resolution)
        amount = (
            declared_amounts.get(g.resolution, Amount(constant=0.0))
            if g.amount is None
            else _amount(g.amount, conditions, schema, doc, ("grants", i, "amount"), gwhere, issues)
        )
        quality = g.quality if g.quality is not None else catalogue[g.resolution].quality
        grants.append(
            Grant(
                resolution=g.resolution,
                quality=quality,
                amount=amount,
                line=doc.line(("grants", i)),
            )
        )
    for i, example in enumerate(spec.examples):
        examples.append((doc, ("examples", i), example, spec.policy))
    any_condition = spec.applies_when == "any condition holds"
    if any_condition and any(isinstance(c.test, FallbackTest) for c in conditions):
        issues.add(
            doc,
            ("applies_when",),
            where,
            f"'{FALLBACK_TEST}' cannot be one of several alternatives; "
            "use 'applies_when: all conditions hold'",
        )
    limits_by_name = {c.name: limit for c in conditions if (limit := _limit(c.test)) is not None}
    # an expression's numbers may be stated too (it has no single value to show in braces)
    stated = _stated_numbers(grants) + [
        n for c in conditions if isinstance(c.test, ExprTest) for n in c.test.numbers()
    ]
    for problem in wording.clause_problems(spec.clause, limits_by_name, stated, unreadable):
        issues.add(doc, ("clause",), where, problem)
    return Policy(
        name=spec.policy,
        clause=wording.render_clause(spec.clause, limits_by_name),
        file=doc.file,
        conditions=conditions,
        grants=grants,
        any_condition=any_condition,
        overrides=spec.overrides,
        for_each=spec.for_each,
        # a condition whose test is at fault is reported once, not again by its vary entry
        vary={k: v for k, v in spec.vary.items() if k not in seen - {c.name for c in conditions}},
    )


def _no_policy(doc: _Located, issues: _Collector) -> bool:
    """A document that is not a policy at all gets one plain message, not a list of every
    key a policy needs."""
    data = doc.data
    if isinstance(data, dict) and "policy" in data:
        return False
    found = (
        f"keys {', '.join(map(str, data))}"
        if isinstance(data, dict)
        else "a list"
        if isinstance(data, list)
        else f"the text {str(data)[:40]!r}"
    )
    issues.add(
        doc,
        (),
        "",
        "no policy here: a policy file starts with 'policy: <name>', then its clause, "
        f"conditions and grants (this one holds {found})",
    )
    issues.broken_policies.add(Path(doc.file).stem)
    return True


def _stated_numbers(grants: list[Grant]) -> list[float]:
    """The numbers a policy's clause may state besides its tested values: its amounts."""
    return [
        number
        for g in grants
        for number in (g.amount.constant, *g.amount.percent.values(), *_amount_numbers(g.amount))
        if number
    ]


def _amount_numbers(amount: Amount) -> list[float]:
    return [] if amount.expression is None else ExprTest(amount.expression).numbers()


def _limit(test: Test) -> Any:
    """The value a condition's test compares with (a plain test's, or an expression's one
    number), what ``{limit}`` and the clause's ``{condition}`` say; else None."""
    if isinstance(test, FieldTest):
        return test.value
    return test.limit if isinstance(test, ExprTest) else None


def _template_problems(template: str, test: Test, schema: FactSchema) -> list[str]:
    problems = []
    for name in _PLACEHOLDER.findall(template):
        if isinstance(test, FallbackTest):
            if name != "other_policies":
                problems.append(
                    f"reason uses {{{name}}}; the fallback knows only {{other_policies}}"
                )
            continue
        if name == LIMIT and isinstance(test, ExprTest) and test.limit is None:
            problems.append(
                f"reason uses {{{LIMIT}}}, but an expression test has no single value it "
                "compares with (one number written in it); "
                f"write the fields ({{{test.refs[0]}}}) or {{{FAILED}}}, which "
                "names the part of the test that failed"
            )
            continue
        if name in (LIMIT, FAILED):
            continue
        if schema.field(*name.partition(".")[::2]) is None:
            problems.append(f"reason uses unknown fact field {{{name}}}{_known(name, schema)}")
    return problems


def _known(ref: str, schema: FactSchema) -> str:
    """The fields an analyst may have meant: of the kind named, or the kinds there are."""
    kind = ref.partition(".")[0]
    if kind in schema.kinds:
        return f" (known: {', '.join(f'{kind}.{f}' for f in schema.kinds[kind].fields)})"
    return f" (fact kinds: {', '.join(schema.kinds)})"


def _numeric_field(ref: str, schema: FactSchema) -> str | None:
    """Why ``ref`` cannot be an amount, or None when it is a numeric fact field."""
    spec = schema.field(*ref.partition(".")[::2])
    if spec is None:
        return f"unknown fact field {ref!r}{_known(ref, schema)}"
    if spec.python_type not in (int, float):
        return f"{ref} is not a number"
    return None


def _amount(
    raw: float | str | PercentAmount,
    conditions: list[Condition],
    schema: FactSchema | None,
    doc: _Located,
    path: tuple,
    where: str,
    issues: _Collector,
) -> Amount:
    if isinstance(raw, int | float):
        return Amount(constant=float(raw))
    if schema is None:  # nothing can be checked without the fact declaration
        return Amount(field=raw) if isinstance(raw, str) else Amount(field=raw.percent_of)
    if isinstance(raw, str) and not _REF.match(raw.strip()):
        return _expression_amount(raw, schema, doc, path, where, issues)
    if isinstance(raw, str):
        if problem := _numeric_field(raw.strip(), schema):
            issues.add(doc, path, where, f"amount: {problem}")
        return Amount(field=raw.strip())
    base = Amount(field=raw.percent_of)
    if not _REF.match(raw.percent_of.strip()):  # a percent of arithmetic: sum(item.price ...)
        base = _expression_amount(raw.percent_of, schema, doc, (*path, "percent_of"), where, issues)
    elif problem := _numeric_field(raw.percent_of, schema):
        issues.add(doc, (*path, "percent_of"), where, f"amount: {problem}")
    by = schema.field(*raw.by.partition(".")[::2])
    values = by.values if by is not None else None
    if values is None:
        issues.add(
            doc,
            (*path, "by"),
            where,
            f"amount: {raw.by!r} must be a fact field with a fixed set of values",
        )
        return _percent(base, raw)
    for key in raw.percent:
        if key not in values:
            issues.add(
                doc,
                (*path, "percent", key),
                where,
                f"amount: {raw.by} is never {key!r} (its values: {', '.join(values)})",
            )
    needed = _values_allowed(conditions, raw.by) or set(values)
    missing = sorted(needed - set(raw.percent))
    if missing:
        issues.add(
            doc,
            (*path, "percent"),
            where,
            f"amount: no percent given for {raw.by} {', '.join(missing)}",
        )
    return _percent(base, raw)


def _percent(base: Amount, raw: PercentAmount) -> Amount:
    """``raw``'s percent by its field, of ``base`` (a field, or an expression)."""
    return base.model_copy(update={"by": raw.by, "percent": raw.percent})


_REF = re.compile(r"^[a-z][a-z0-9_]*\.[a-z][a-z0-9_]*$")


def _expression_amount(
    raw: str, schema: FactSchema, doc: _Located, path: tuple, where: str, issues: _Collector
) -> Amount:
    """An amount written as arithmetic over fields: it must read, and be a number."""
    text = " ".join(raw.split())
    try:
        node = expressions.parse(text, schema)
        kind = expressions.check(node, schema)
    except ExpressionError as e:
        issues.add(doc, path, where, f"amount: {e}")
        return Amount(text=text)
    if kind != expressions.NUMBER:
        issues.add(
            doc, path, where, f"amount: {text!r} is {expressions.a_type(kind)}, not a number"
        )
    return Amount(expression=node, text=text)


def _values_allowed(conditions: list[Condition], ref: str) -> set | None:
    """The values of ``ref`` that the policy's own conditions let through, if it tests it."""
    for c in conditions:
        if isinstance(c.test, FieldTest) and c.test.ref == ref:
            if c.test.op == "in":
                return set(c.test.value)
            if c.test.op == "==":
                return {c.test.value}
    return None


def _scoped(policies: dict[str, Policy], issues: _Collector) -> dict[str, Policy]:
    """When some policy decides per item, every policy says in which decision it speaks: a
    ``scope`` condition (per item, or the whole case) joins its own, so a per-item policy is
    no verdict on the case and a case policy no verdict on an item. Rulebooks without
    ``for_each`` are left exactly as written."""
    collections = tuple(dict.fromkeys(p.for_each for p in policies.values() if p.for_each))
    if not collections:
        return policies
    scoped = {}
    for name, policy in policies.items():
        if policy.any_condition:
            issues.add(
                policy.file,
                (),
                f"policy {name}",
                f"'applies_when: any condition holds' cannot be used in a rulebook that decides "
                f"per item (for_each: {collections[0]}): join the alternatives with 'or' in one "
                "condition",
            )
        test = ScopeTest(policy.for_each)
        scope = Condition(
            name=SCOPE, text=SCOPE, test=test, reason=test.reason(collections), line=None
        )
        scoped[name] = policy.model_copy(update={"conditions": [*policy.conditions, scope]})
    return scoped


def _required(
    policies: dict[str, Policy], declared: dict[str, Declaration], issues: _Collector
) -> dict[str, Policy]:
    """Every policy granting a resolution that ``requires:`` events gets a condition per
    event (``event.confirmed == true``), so a grant waits for it and the gate, check_policy
    and explain name it when it is missing. A policy whose own test wants such an event false
    could never grant it: refused as unsatisfiable."""
    required = {}
    for name, policy in policies.items():
        added: dict[str, Condition] = {}
        for grant in policy.grants:
            for event in (
                declared[grant.resolution].requires if grant.resolution in declared else ()
            ):
                test = FieldTest(EVENT_KIND, event, "==", True)
                for cond in policy.conditions:
                    if isinstance(cond.test, FieldTest) and not _can_hold_with(cond.test, test):
                        issues.issues.append(
                            RuleIssue(
                                file=policy.file,
                                line=cond.line,
                                where=f"policy {name}, condition {cond.name}",
                                message=f"unsatisfiable: {grant.resolution} requires {event}, "
                                f"but this condition wants {cond.test.ref} "
                                f"{cond.test.op} {wording.plain(cond.test.value)}",
                            )
                        )
                added.setdefault(
                    event,
                    Condition(
                        name=f"{REQUIRES_PREFIX}{event}",
                        text=f"{EVENT_KIND}.{event} == true",
                        test=test,
                        reason=f"{grant.resolution} requires {event} first, and it has not "
                        "happened yet",
                    ),
                )
        taken = {c.name for c in policy.conditions} & {c.name for c in added.values()}
        for clash in sorted(taken):
            issues.add(
                policy.file,
                (),
                f"policy {name}",
                f"condition name {clash!r} is taken by a required event: rename the condition",
            )
        conditions = [*policy.conditions, *added.values()]
        required[name] = policy.model_copy(update={"conditions": conditions}) if added else policy
    return required


REQUIRES_PREFIX = "requires_"
"""The name of the implicit condition a required event adds: requires_<event>."""


def _can_hold_with(test: FieldTest, required: FieldTest) -> bool:
    """Whether ``test`` can hold while the event ``required`` tests is true."""
    if test.ref != required.ref:
        return True
    return test.holds(True)


def _check_fallbacks(policies: dict[str, Policy], issues: _Collector) -> None:
    fallbacks = [p for p in policies.values() if p.is_fallback]
    for p in fallbacks[1:]:
        issues.add(
            p.file,
            (),
            f"policy {p.name}",
            f"only one policy may use '{FALLBACK_TEST}' (also: {fallbacks[0].name})",
        )


_VERDICTS = ("eligible", "blocked", "undetermined")


def _load_examples(
    examples: list[tuple[_Located, tuple, ExampleSpec, str]],
    catalogue: dict[str, ResolutionSpec],
    schema: FactSchema | None,
    policies: dict[str, Policy],
    issues: _Collector,
    declared: dict[str, Declaration],
) -> list[Example]:
    checked = []
    if schema is None:
        return checked
    for doc, path, spec, policy in examples:
        where = f"example {spec.name!r}"
        try:
            facts = schema.validate(spec.facts)
        except ValidationError as e:
            for err in e.errors():
                loc = ".".join(str(p) for p in err["loc"])
                issues.add(
                    doc,
                    (*path, "facts", *tuple(err["loc"])),
                    where,
                    f"facts.{loc}: {_describe(err)}",
                )
            continue
        steps, requests = _example_calls(doc, path, spec, schema, declared, where, issues)
        for key, value in spec.expect.items():
            problem = _expect_problem(
                key, value, catalogue, policies, issues, bool(steps), bool(requests)
            )
            if problem:
                issues.add(doc, (*path, "expect", key), where, problem)
        checked.append(
            Example(
                name=spec.name,
                policy=policy,
                file=doc.file,
                line=doc.line(path),
                facts=facts,
                expect=spec.expect,
                steps=steps,
                requests=requests,
                before_each=tuple(spec.before_each),
            )
        )
    return checked


def _example_calls(
    doc: _Located,
    path: tuple,
    spec: ExampleSpec,
    schema: FactSchema,
    declared: dict[str, Declaration],
    where: str,
    issues: _Collector,
) -> tuple[tuple[Step, ...], tuple[Request, ...]]:
    """An example's call (``request:``) or plan (``steps:``), each step read; or its
    requests (``requests:``) for the plan optimum."""
    if spec.request is not None and spec.steps:
        issues.add(doc, (*path, "steps"), where, "give a request: or steps:, not both")
    raw = [(("request",), spec.request)] if spec.request is not None else []
    raw += [(("steps", i), step) for i, step in enumerate(spec.steps)]
    steps = []
    for at, step in raw:
        try:
            steps.append(parse_step(schema, declared, step))
        except ArgumentError as e:
            issues.add(doc, (*path, *at), where, str(e))

    def report(at: tuple, message: str) -> None:
        issues.add(doc, (*path, *at), where, message)

    return tuple(steps), _example_requests(spec, schema, declared, report)


def _example_requests(
    spec: ExampleSpec,
    schema: FactSchema,
    declared: dict[str, Declaration],
    report: Callable[[tuple, str], None],
) -> tuple[Request, ...]:
    """An example's requests (``requests:``) and the events before each call, each read;
    ``report(path within the example, message)`` locates what does not fit."""
    if spec.requests and (spec.request is not None or spec.steps):
        report(("requests",), "give requests:, or a request: or steps:")
    if spec.before_each and not spec.requests:
        report(("before_each",), "before_each: goes with requests:")
    known = event_names(schema)
    for i, event in enumerate(spec.before_each):
        if event not in known:
            report(
                ("before_each", i),
                f"unknown event {event!r} (events: {', '.join(known) or 'none'})",
            )
    if len(spec.requests) > MAX_REQUESTS:
        report(("requests",), f"at most {MAX_REQUESTS} requests")
    requests = []
    for i, raw in enumerate(spec.requests):
        try:
            requests.append(parse_request(declared, raw))
        except ArgumentError as e:
            report(("requests", i), str(e))
    return tuple(requests)


PLAN_EXPECTATIONS = ("plan", "amounts", "because", "after")
"""What an example with a request or steps may expect of them (novamart.kernel.requests)."""
OPTIMUM_EXPECTATIONS = ("best", "best_order", "best_amounts", "best_because", "best_after")
"""What an example with requests may expect of their best plan (novamart.kernel.plans)."""


def _expect_problem(
    key: str,
    value: Any,
    catalogue: dict,
    policies: dict,
    issues: _Collector,
    calls: bool = False,
    requests: bool = False,
) -> str | None:
    """What is wrong with one expectation; nothing when it names what a broken file would
    have defined (that file's own issue says what is wrong)."""
    if key in OPTIMUM_EXPECTATIONS or key in PLAN_EXPECTATIONS:
        optimum = key in OPTIMUM_EXPECTATIONS
        if not (requests if optimum else calls):
            wanted = "requests:" if optimum else "a request: or steps:"
            lacks = "none" if optimum else "neither"
            return f"{key}: expects of {wanted}, and the example has {lacks}"
        if key in ("after", "best_after"):
            return None if isinstance(value, dict) else f"{key}: expected a mapping, got {value!r}"
        return None if isinstance(value, list) else f"{key}: expected a list, got {value!r}"
    if key.startswith("each_"):  # per item: each_item: {<id>: {optimal: ..., <policy>: ...}}
        if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
            return f"{key}: expected a mapping of ids to expectations, got {value!r}"
        problems = []
        for item, expects in value.items():
            for k, v in expects.items():
                nested = "per item, expect optimal, amount or a policy's verdict"
                problem = (
                    nested
                    if k.startswith("each_")
                    else _expect_problem(k, v, catalogue, policies, issues)
                )
                if problem:
                    problems.append(f"{key}.{item}.{problem}")
        return "; ".join(problems) or None
    if key == "optimal":
        if value != "none" and value not in catalogue and not issues.catalogue_broken:
            return f"optimal: unknown resolution {value!r} (or 'none')"
    elif key == "amount":
        if not isinstance(value, int | float) or isinstance(value, bool):
            return f"amount: expected a number, got {value!r}"
    elif key in policies:
        if value not in _VERDICTS:
            return f"{key}: expected one of {', '.join(_VERDICTS)}, got {value!r}"
    elif key not in issues.broken_policies:
        return (
            f"unknown expectation {key!r} (use optimal, amount, a policy name, "
            "each_<collection> for expectations per item, of a request or steps, "
            f"{', '.join(PLAN_EXPECTATIONS)}, or, of requests, {', '.join(OPTIMUM_EXPECTATIONS)})"
        )
    return None
