"""PolicyKernel: facts in, an explained Decision out.

The engine derives which conditions pass or fail and which policies grant; this module
only reads those derived facts back and dresses them as a Decision: reasons rendered
from the observed values, the tool that would settle each unknown, amounts, and the
grants ranked by quality. Decisions are memoised per rulebook version and fact set.
A reload compiles the new rule files under a new, content-hashed ruleset name and
swaps it in atomically; a bad rule set leaves the running one in place.

The answer types are built with ``model_construct``: every value in them comes from the
validated rulebook and checked facts, and validating each again was a fifth of a cold decision.
"""

from __future__ import annotations

import functools
import re
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from novamart.kernel import expressions, variants
from novamart.kernel.compile import (
    compile_rulebook,
    derived_fact_ids,
    engine_conditions,
    engine_fields,
    engine_tests,
    kernel_conditions,
    outcome_fact,
    ruleset_name,
    ruleset_shape,
)
from novamart.kernel.conditions import (
    FAILED,
    LIMIT,
    ExprTest,
    FallbackTest,
    FieldTest,
    ScopeTest,
)
from novamart.kernel.decision import (
    ConditionResult,
    ConditionStatus,
    Decision,
    Grant,
    PolicyVerdict,
)
from novamart.kernel.engine import EngineError, RulesetRunner
from novamart.kernel.examples import failures_as_issues, run_examples
from novamart.kernel.facts import FactRecord, Facts, FactSchema
from novamart.kernel.money import cents, percent_of
from novamart.kernel.outcomes import Decided, KernelOutcomes
from novamart.kernel.recent import RecentlyUsed
from novamart.kernel.rulebook import (
    DEFAULT_RULES_DIR,
    Amount,
    Condition,
    Policy,
    Rulebook,
    RulebookError,
    RuleIssue,
    load_rulebook,
)
from novamart.kernel.wording import plain

KEPT_VERSIONS = 8
KEPT_VARIANTS = 32  # policy variants compiled and kept, most recently used first
RUNS_KEPT = 16  # fact sets whose engine run and kernel outcomes are kept (``_engine_run``)
MEMO_SIZE = 1_024  # ~2.6 KB a decision (bench/bench_kernel.py): ~3 MB when full
_PLACEHOLDER = re.compile(r"\{([a-z_]+)(?:\.([a-z0-9_]+))?\}")


class ExamplesFailed(RulebookError):
    """The rule set is valid but some of its own examples fail; ``issues`` locates each."""

    def __init__(self, issues: list[RuleIssue], total: int):
        self.total = total
        super().__init__(issues)


Derived = tuple[dict[tuple[str, str], str], frozenset[str], frozenset[str]]
"""What an engine run comes to: each condition's status, the policies granting, those open."""


REASONS: RecentlyUsed[tuple, str] = RecentlyUsed(4_096)
"""Failure reasons by template, test and the values they read (typed: 1 is not 1.0)."""
ENGINE_RUNS: RecentlyUsed[tuple, Derived] = RecentlyUsed(MEMO_SIZE)
"""Engine runs memoised by what the rules can tell apart: the ruleset's shape
(novamart.kernel.compile.ruleset_shape), the fact kinds present and whether each condition's
field test passes, fails or cannot be told (its field unknown). Shared by every compiled
rulebook, so a policy variant reuses its rules' runs. Holds no engine: a forgotten version's
ruleset is still freed."""


class CompiledRulebook:
    """One rulebook version, loaded in the engine, with its own decision memo."""

    def __init__(self, rulebook: Rulebook):
        self.rulebook = rulebook
        self.runner = RulesetRunner(
            ruleset_name(rulebook), compile_rulebook(rulebook), derived_fact_ids(rulebook)
        )
        self.decide = functools.lru_cache(maxsize=MEMO_SIZE)(self._decide)
        self.decide_about = functools.lru_cache(maxsize=MEMO_SIZE)(self._decide_about)
        self._tested = engine_fields(rulebook)
        self._tests = tuple(
            c.test
            for p in rulebook.policies.values()
            for c in engine_conditions(rulebook, p)
            if isinstance(c.test, FieldTest)
        )
        self._kernel = KernelOutcomes(
            [(policy, c.name, c.test) for policy, c in kernel_conditions(rulebook)],
            rulebook.policies,
            rulebook.facts,
        )
        self._shape = ruleset_shape(rulebook)
        self._keys = {
            p.name: tuple((p.name, c.name) for c in p.conditions)
            for p in rulebook.policies.values()
        }
        self._passed = {
            p.name: _all_passed(p)
            for p in rulebook.policies.values()
            if not any(isinstance(c.test, FallbackTest) for c in p.conditions)
        }
        """A policy's verdict when every condition passed: the same for every decision."""
        self._readers = {f"t{i}": r for i, r in enumerate(engine_tests(rulebook).values())}
        """Each engine test's fact, by its name there, and the conditions that read it."""
        self._runs: RecentlyUsed[Facts, tuple[Derived, Decided]] = RecentlyUsed(RUNS_KEPT)
        self._granting: dict[frozenset[str], frozenset[str]] = {}
        """The resolutions granted, by the set of policies granting (``_grants``)."""
        self._granters = {
            r: tuple(
                p for p in rulebook.policies.values() if any(g.resolution == r for g in p.grants)
            )
            for r in rulebook.resolutions
        }
        """The policies that can grant each resolution, in the rulebook's order."""

    @property
    def version(self) -> str:
        """Its rulebook's content hash (a variant's differs from the rules as written)."""
        return self.rulebook.version

    def granters(self, resolution: str) -> tuple[Policy, ...]:
        """The policies that can grant ``resolution``, in the rulebook's order."""
        return self._granters.get(resolution, ())

    def _decide(self, facts: Facts) -> Decision:
        return self._decision(facts, self.rulebook.policies.values())

    def _decide_about(self, facts: Facts, resolution: str) -> Decision:
        """``decide(facts)`` with the verdicts of the policies that can grant ``resolution``
        only: all a call's outcome reads of them (its reasons, the tools it waits on), for a
        caller that keeps the outcome, not the decision (a task's draw decides many calls, and
        the other policies' reasons were most of a decision's cost)."""
        return self._decision(facts, self._granters.get(resolution, ()))

    def _decision(self, facts: Facts, explained: Iterable[Policy]) -> Decision:
        """The decision on ``facts``: every grant, and the verdicts of the ``explained``."""
        facts = self.rulebook.facts.check(facts)  # strict types first (hazard 7)
        statuses, granted, open_ = self._derive(facts)
        verdicts = {p.name: self._verdict(p, facts, statuses, granted, open_) for p in explained}
        overriding = self._overriding(granted)
        if overriding:
            granted = {p.name for p in overriding}
            verdicts = {
                n: _set_aside(v, overriding) if n not in granted and v.status == "eligible" else v
                for n, v in verdicts.items()
            }
        eligible = self._eligible(granted, facts)
        return Decision.model_construct(
            optimal=eligible[0] if eligible else None, eligible=eligible, policies=verdicts
        )

    def _eligible(self, granted: Collection[str], facts: Facts) -> list[Grant]:
        """The grants of the policies ``granted`` (those left once an overriding one set the
        others aside), best first: quality, then the larger amount; ties of both keep the
        policies' order, where it no longer matters which policy is named (same resolution,
        same amount)."""
        eligible = [
            Grant.model_construct(
                resolution=g.resolution,
                policy=p.name,
                quality=g.quality,
                amount=grant_amount(g.amount, facts),
            )
            for p in self.rulebook.policies.values()
            if p.name in granted
            for g in p.grants
        ]
        eligible.sort(key=lambda g: (-g.quality, -(g.amount or 0.0)))
        return eligible

    def ranked(self, facts: Facts) -> tuple[str, ...]:
        """The resolutions of ``decide(facts).eligible``, best first, without the verdicts
        and reasons: for a caller that needs only the best answer (a task's draw asking
        which of many calls has the one it wants)."""
        facts = self.rulebook.facts.check(facts)
        _, granted, _ = self._engine_run(facts)[0]
        overriding = self._overriding(granted)
        left = {p.name for p in overriding} if overriding else granted
        return tuple(g.resolution for g in self._eligible(left, facts))

    def granted(self, facts: Facts) -> frozenset[str]:
        """The resolutions some policy grants on ``facts`` (an overriding policy setting the
        others aside): what ``decide(facts).eligible`` holds, without the verdicts, reasons
        and amounts, for a caller that needs only whether a call would be granted."""
        _, granted, _ = self._engine_run(self.rulebook.facts.check(facts))[0]
        return self._grants(granted)

    def _grants(self, granted: frozenset[str]) -> frozenset[str]:
        """The resolutions the policies ``granted`` grant: the same for every decision
        granting them, so worked out once per such set."""
        found = self._granting.get(granted)
        if found is None:
            overriding = self._overriding(granted)
            policies = overriding or [
                p for p in self.rulebook.policies.values() if p.name in granted
            ]
            found = self._granting[granted] = frozenset(
                g.resolution for p in policies for g in p.grants
            )
        return found

    def _overriding(self, granted: frozenset[str]) -> list[Policy]:
        """The granting policies that set the others aside."""
        return [p for p in self.rulebook.policies.values() if p.overrides and p.name in granted]

    def _derive(self, facts: Facts) -> Derived:
        """The engine's run on ``facts``, or one it made on facts it cannot tell apart from
        them (ENGINE_RUNS): cases alike in every test's outcome share it, whatever their days,
        amounts or ids; reasons and amounts are filled in from the facts themselves."""
        (statuses, granted, open_), decided = self._engine_run(facts)
        return (
            statuses | {(policy, name): status for policy, name, status in decided},
            granted,
            open_,
        )

    def _engine_run(self, facts: Facts) -> tuple[Derived, Decided]:
        """The engine's run that ``facts`` share (its own statuses only), and the outcomes of
        the conditions the kernel evaluated; kept for the last few fact sets (a caller asking
        ``granted`` first and ``decide`` next on the same facts reads them once)."""
        return self._runs.get(facts, lambda: self._engine_run_of(facts))

    def _engine_run_of(self, facts: Facts) -> tuple[Derived, Decided]:
        outcomes = []
        for test in self._tests:
            record = facts.record(test.kind)
            value = None if record is None else record.get(test.field)
            outcomes.append(None if value is None else test.holds(value))
        present = dict(sorted(facts.present().items()))
        decided = self._kernel.decided(facts)
        told = self._kernel.canonical(decided)
        key = (self._shape, tuple(present), tuple(outcomes), told)
        return ENGINE_RUNS.get(key, lambda: self._run(self._tested_of(present), told)), decided

    def _tested_of(self, present: dict[str, FactRecord]) -> dict[str, dict[str, Any]]:
        """The fields the engine tests, of each kind present (read only for a new run)."""
        return {
            kind: {f: record[f] for f in self._tested.get(kind, ()) if f in record}
            for kind, record in present.items()
        }

    def _run(self, tested: dict[str, dict[str, Any]], decided: tuple = ()) -> Derived:
        """An engine run on the facts the engine tests, and the outcomes of the conditions
        the kernel evaluated, asserted beside them as one outcome fact per policy (the
        statuses it returns are the engine's own: the kernel's are added per decision)."""
        by_policy: dict[str, dict[str, str]] = {}
        for policy, name, status in decided:
            by_policy.setdefault(policy, {})[name] = status
        outcomes = [outcome_fact(policy, told) for policy, told in by_policy.items()]
        derived = self.runner.run(tested, outcomes)
        statuses = {
            key: f["status"]
            for f in derived
            if f["kind"] == "condition"
            for key in (self._readers[f["test"]] if "test" in f else [(f["policy"], f["name"])])
        }
        granted = frozenset(f["policy"] for f in derived if f["kind"] == "grant")
        open_ = frozenset(f["policy"] for f in derived if f["kind"] == "open")
        return statuses, granted, open_

    def _verdict(
        self, policy: Policy, facts: Facts, statuses: dict, granted: set, open_: set
    ) -> PolicyVerdict:
        passed = self._passed.get(policy.name)
        if passed is not None and all(statuses.get(k) == "pass" for k in self._keys[policy.name]):
            if policy.name not in granted:
                raise EngineError(f"engine and conditions disagree on policy {policy.name}")
            return passed
        conditions = []
        for cond in policy.conditions:
            if isinstance(cond.test, FallbackTest):
                result = self._fallback_result(
                    policy, cond.name, cond.reason, statuses, granted, open_, facts
                )
            else:
                status = statuses.get((policy.name, cond.name))
                result = _field_result(cond, status, facts, self.rulebook.facts)
            conditions.append(result)
        status = _policy_status(conditions, policy.any_condition)
        if (status == "eligible") != (policy.name in granted):
            raise EngineError(f"engine and conditions disagree on policy {policy.name}")
        return PolicyVerdict.model_construct(
            status=status,
            clause=policy.clause,
            grants=[g.resolution for g in policy.grants],
            conditions=conditions,
        )

    def _fallback_result(
        self,
        policy: Policy,
        name: str,
        reason: str,
        statuses: dict,
        granted: set,
        open_: set,
        facts: Facts,
    ) -> ConditionResult:
        if statuses.get((policy.name, name)) == "pass":
            return _condition(name, "pass", None, None)
        overriding = {p for p in granted if self.rulebook.policies[p].overrides}
        offered = overriding or granted  # an overriding policy sets the others aside
        others = [p for p in self.rulebook.policies if p in offered and p != policy.name]
        if others:
            text = reason.replace("{other_policies}", " and ".join(others))
            return _condition(name, "fail", text, None)
        waiting = [p for p in self.rulebook.policies if p in open_]
        tool = next(
            (
                self.rulebook.facts.source_tool(_first_unknown(c.test, facts)[0])
                for p in waiting
                for c in self.rulebook.policies[p].conditions
                if isinstance(c.test, FieldTest | ExprTest) and statuses.get((p, c.name)) is None
            ),
            None,
        )
        return _condition(name, "unknown", f"waiting on {' and '.join(waiting)}", tool)


def forget_decisions() -> None:
    """Empty every memo kept from one decision to the next: the engine runs, the rendered
    reasons, the shared condition results and the decimals read (so a benchmark's cold
    decision is one nothing before it prepared)."""
    ENGINE_RUNS.clear()
    REASONS.clear()
    _condition.cache_clear()
    expressions.forget_numbers()


@functools.lru_cache(maxsize=4_096)
def _condition(
    name: str, status: ConditionStatus, reason: str | None, needs_tool: str | None
) -> ConditionResult:
    """A condition's result, shared by the decisions that reach the same one (frozen, and
    most are a bare pass or a reason rendered from a handful of values)."""
    return ConditionResult.model_construct(
        name=name, status=status, reason=reason, needs_tool=needs_tool
    )


def _field_result(
    cond: Condition, status: str | None, facts: Facts, schema: FactSchema
) -> ConditionResult:
    name, test = cond.name, cond.test
    if status == "pass":
        return _condition(name, "pass", None, None)
    if isinstance(test, ScopeTest):  # a case policy in an item's decision, or the reverse
        return _condition(name, "fail" if status == "fail" else "unknown", cond.reason, None)
    assert isinstance(test, FieldTest | ExprTest)
    if status == "fail":
        return _condition(name, "fail", _failure_reason(cond.reason, facts, test), None)
    kind, ref = _first_unknown(test, facts)
    what = f"no {kind} fact yet" if facts.record(kind) is None else f"{ref} is not known yet"
    tool = schema.source_tool(kind)
    return _condition(name, "unknown", what, tool)


def _first_unknown(test: FieldTest | ExprTest, facts: Facts) -> tuple[str, str]:
    """The kind and field of the first value a test still waits for."""
    if isinstance(test, FieldTest):
        return test.kind, test.ref
    return test.waiting_on(facts)


def _policy_status(conditions: list[ConditionResult], any_condition: bool) -> str:
    statuses = {c.status for c in conditions}
    if any_condition:
        if "pass" in statuses:
            return "eligible"
        return "undetermined" if "unknown" in statuses else "blocked"
    if "fail" in statuses:
        return "blocked"
    return "undetermined" if "unknown" in statuses else "eligible"


def _all_passed(policy: Policy) -> PolicyVerdict:
    return PolicyVerdict.model_construct(
        status="eligible",
        clause=policy.clause,
        grants=[g.resolution for g in policy.grants],
        conditions=[_condition(c.name, "pass", None, None) for c in policy.conditions],
    )


def _set_aside(verdict: PolicyVerdict, overriding: list[Policy]) -> PolicyVerdict:
    """An eligible policy that an overriding one displaces: blocked, saying by which."""
    names = " and ".join(p.name for p in overriding)
    reason = f"{names} applies, so only its resolution is offered: {overriding[0].clause}"
    extra = _condition("not_overridden", "fail", reason, None)
    return verdict.model_copy(
        update={"status": "blocked", "conditions": [*verdict.conditions, extra]}
    )


def _failure_reason(template: str, facts: Facts, test: FieldTest | ExprTest) -> str:
    """``render``, once per test and the values it reads: a test many policies write
    (``item.requested == return``) fails with one reason, rendered once."""
    reads = _reads(template, test)
    if reads is None:
        return render(template, facts, test)
    seen = tuple((type(v), v) for v in (facts.value(k, f) for k, f in reads))
    return REASONS.get((template, test, seen), lambda: render(template, facts, test))


@functools.lru_cache(maxsize=256)
def _reads(template: str, test: FieldTest | ExprTest) -> tuple[tuple[str, str], ...] | None:
    """Every field a reason reads (its test's and its placeholders'), or None when the
    test reads whole collections (its reason is rendered each time)."""
    if isinstance(test, ExprTest):
        if any(isinstance(n, expressions.Quantified) for n in expressions.walk(test.expr)):
            return None
        fields = [(r.kind, r.field) for r in expressions.refs(test.expr)]
    else:
        fields = [(test.kind, test.field)]
    fields += [(k, f) for k, f in _PLACEHOLDER.findall(template) if f]
    return tuple(dict.fromkeys(fields))


def render(template: str, facts: Facts, test: FieldTest | ExprTest | None = None) -> str:
    """Fill ``{kind.field}`` with the observed values, ``{limit}`` with the value the
    condition tests against and ``{failed}`` with the part of its test that failed, so a
    reason follows its rule when an analyst edits it."""

    def value(match: re.Match) -> str:
        kind, field = match.group(1), match.group(2)
        if kind == FAILED and field is None and test is not None:
            return failed_part(test, facts)
        if kind == LIMIT and field is None and isinstance(test, FieldTest):
            return plain(test.value)
        if (
            kind == LIMIT
            and field is None
            and isinstance(test, ExprTest)
            and test.limit is not None
        ):
            return plain(test.limit)
        observed = facts.value(kind, field) if field else None
        return "unknown" if observed is None else plain(observed)

    return _PLACEHOLDER.sub(value, template)


def failed_part(test: FieldTest | ExprTest, facts: Facts) -> str:
    """What failed in a failed test, with the values it saw."""
    if isinstance(test, ExprTest):
        return test.failure(facts)
    observed = facts.value(test.kind, test.field)
    return f"{test.ref} {plain(observed)} is not {test.op} {plain(test.value)}"


def grant_amount(rule: Amount, facts: Facts) -> float | None:
    """What a grant is worth on ``facts`` (None while a fact it needs is unknown, or when
    it divides by zero: what cannot be computed is not granted an amount)."""
    if rule.expression is not None:
        try:
            base = expressions.value_of(rule.expression, facts)
        except ZeroDivisionError:
            return None
    elif rule.field is None:
        return cents(rule.constant)
    else:
        base = facts.value(*rule.field.split("."))
    if base is None:
        return None
    if rule.by is None:
        return cents(base)
    key = facts.value(*rule.by.split("."))
    if key not in rule.percent:
        return None
    return percent_of(base, rule.percent[key])


class PolicyKernel:
    """The policy reasoning kernel: ``decide(facts)``, ``reload()``; thread-safe."""

    def __init__(
        self, rules_dir: Path | str = DEFAULT_RULES_DIR, tools: Collection[str] | None = None
    ):
        """``tools``: the tools that exist, to refuse a resolution nothing can carry out."""
        self.rules_dir = Path(rules_dir)
        self._swap = threading.Lock()
        self._versions: OrderedDict[str, CompiledRulebook] = OrderedDict()
        self._variants: OrderedDict[tuple[str, int], CompiledRulebook] = OrderedDict()
        self._active = self._compiled(load_rulebook(self.rules_dir, tools=tools))

    @property
    def rulebook(self) -> Rulebook:
        return self._active.rulebook

    @property
    def version(self) -> str:
        return self._active.rulebook.version

    def decide(self, facts: Facts) -> Decision:
        return self._active.decide(facts)

    def granted(self, facts: Facts) -> frozenset[str]:
        return self._active.granted(facts)

    def decide_about(self, facts: Facts, resolution: str) -> Decision:
        return self._active.decide_about(facts, resolution)

    def ranked(self, facts: Facts) -> tuple[str, ...]:
        return self._active.ranked(facts)

    def granters(self, resolution: str) -> tuple[Policy, ...]:
        return self._active.granters(resolution)

    def snapshot(self) -> CompiledRulebook:
        """The current version, to pin: an episode keeps deciding on the version it
        started with while a reload serves new episodes."""
        return self._active

    def decide_raw(self, raw: dict[str, Any]) -> Decision:
        """Validate untyped facts (raises pydantic.ValidationError), then decide."""
        return self.decide(self.rulebook.facts.validate(raw))

    def reload(
        self,
        rules_dir: Path | str | None = None,
        *,
        tools: Collection[str] | None = None,
        examples_must_pass: bool = False,
    ) -> str:
        """Load the rule files again; a RulebookError leaves the current version serving.

        With ``examples_must_pass``, a rule set whose own examples fail is refused the same
        way (``ExamplesFailed``, each failure located): it is tested on its compiled version
        before that version serves anything. Decisions already handed out, and callers
        holding the old rulebook, are unaffected.
        """
        with self._swap:
            directory = Path(rules_dir) if rules_dir is not None else self.rules_dir
            rulebook = load_rulebook(directory, tools=tools)
            candidate = self._versions.get(rulebook.version) or CompiledRulebook(rulebook)
            if examples_must_pass and (failures := failures_as_issues(run_examples(candidate))):
                raise ExamplesFailed(failures, total=len(rulebook.examples))
            self._active = self._compiled(rulebook, candidate)
            self.rules_dir = directory
            return rulebook.version

    def variant(self, number: int) -> CompiledRulebook:
        """Policy variant ``number`` of the current version (novamart.kernel.variants),
        compiled once and kept (the current version itself when nothing may vary). Two
        numbers that draw the same parameters share one content-hashed ruleset."""
        base = self._active
        key = (base.rulebook.version, number)
        with self._swap:
            compiled = self._variants.pop(key, None)
            if compiled is None:
                rulebook = variants.variant(base.rulebook, number)
                if rulebook is base.rulebook:
                    return base
                same = (
                    c for c in self._variants.values() if c.rulebook.version == rulebook.version
                )
                compiled = next(same, None) or CompiledRulebook(rulebook)
            self._variants[key] = compiled
            while len(self._variants) > KEPT_VARIANTS:
                self._variants.popitem(last=False)
            return compiled

    def _compiled(
        self, rulebook: Rulebook, compiled: CompiledRulebook | None = None
    ) -> CompiledRulebook:
        """A version loaded before is reused, engine ruleset and memo with it, so switching
        back and forth costs nothing. Beyond KEPT_VERSIONS the oldest is forgotten; its
        engine ruleset is freed once no pinned episode holds it any more."""
        known = self._versions.pop(rulebook.version, None)
        compiled = known or compiled or CompiledRulebook(rulebook)
        self._versions[rulebook.version] = compiled
        while len(self._versions) > KEPT_VERSIONS:
            self._versions.popitem(last=False)
        return compiled


@functools.cache
def default_kernel() -> PolicyKernel:
    """The process-wide kernel over the repository's rules/ directory."""
    return PolicyKernel()
