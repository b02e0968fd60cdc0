"""Scenarios from a task name, an optional seed and the rulebook they are played under.

Without a seed a task gives its canonical scenario (the seed document's case); with a seed, a
case of the same character (characters.yaml) drawn from the fact declaration
(rules/facts.yaml): every declared field, each as its ``draw`` says, weighed by the chances the
character gives the policies' conditions, with boundary days from the conditions' own
thresholds (novamart.scenarios.plan). So the rules drive the draw: an edited window moves the
boundary cases, and a field an analyst adds is drawn, reported by its tool and decided on
without code.

Each field, the story and the faults are drawn from their own ``random.Random`` seeded with a
string (stable across machines and Python versions), so adding a field leaves the other
draws of a seed as they were.
"""

from __future__ import annotations

import functools
import random
from typing import Any

from novamart.kernel import Rulebook, default_kernel
from novamart.kernel.recent import RecentlyUsed
from novamart.scenarios import catalogue
from novamart.scenarios.character import Character, characters
from novamart.scenarios.personas import PERSONAS, TONES, TRAITS, Tone, Trait
from novamart.scenarios.plan import Base, FieldPlan, ScenarioError, base_of, plan_fields
from novamart.scenarios.scenario import (
    CATEGORY,
    CUSTOMER_ID,
    DAYS,
    DEFECT,
    OPENED,
    ORDER_ID,
    PRICE,
    TIER,
    CustomerRecord,
    OrderRecord,
    OtherCustomer,
    Scenario,
)
from novamart.scenarios.tasks import get_task
from novamart.scenarios.telling import Story, Telling, complaint, compose, draw_telling

FAULT_CHANCE = 0.1
MAX_FAULTS = 2
FAULTY_LEVELS = ("medium", "hard")
DEFAULT_DIGITS = 6


def build_scenario(
    task: str, seed: int | None = None, rulebook: Rulebook | None = None
) -> Scenario:
    """The canonical scenario of ``task``, or its variant number ``seed`` (an int >= 0),
    under ``rulebook`` (the repository's rules by default). A ScenarioError says when the
    rules cannot give the task its character."""
    spec = get_task(task)
    character = characters().get(task)
    if character is None:
        raise ValueError(f"{task} is a {spec.family} task; its cases come from novamart.tickets")
    rules = rulebook or default_kernel().rulebook
    plans = _plans(rules, task)
    if seed is None:
        key = (rules.version, task)
        if key not in _CANONICAL:  # immutable: drawn once per rules version
            _CANONICAL[key] = _canonical(task, character, rules, plans)
        return _CANONICAL[key]
    faulty = spec.difficulty in FAULTY_LEVELS
    return _SEEDED.get(
        (rules.version, task, seed),
        lambda: _seeded(task, seed, character, rules, plans, faulty),
    )


KEPT_SEEDED = 1_024
_SEEDED: RecentlyUsed[tuple[str, str, int], Scenario] = RecentlyUsed(KEPT_SEEDED)
"""Seeded scenarios are immutable: an evaluation plays each case once per agent."""
_PLANS: dict[tuple[str, str], dict[str, FieldPlan]] = {}
_CANONICAL: dict[tuple[str, str], Scenario] = {}


def _plans(rulebook: Rulebook, task: str) -> dict[str, FieldPlan]:
    """The field plans of ``task`` under ``rulebook`` (computed once per version)."""
    key = (rulebook.version, task)
    plans = _PLANS.get(key)
    if plans is None:
        plans = plan_fields(rulebook, characters()[task].chances(rulebook, task))
        if len(_PLANS) > 256:
            _PLANS.clear()
            _CANONICAL.clear()
        _PLANS[key] = plans
    return plans


# ---- the facts -----------------------------------------------------------------------


class _Draw:
    """Draws a case's fields in dependency order, each with its own generator."""

    def __init__(
        self, plans: dict[str, FieldPlan], stream: str, fixed: dict[str, Any], canonical: bool
    ):
        self.plans, self.stream, self.fixed = plans, stream, fixed
        self.canonical = canonical  # a canonical case takes a field's default when it has one
        self.values: dict[str, Any] = {}
        self.product = ""

    def rng(self, name: str) -> random.Random:
        return random.Random(f"{self.stream}:{name}")

    def all(self, given: dict[str, Any] | None = None) -> dict[str, Any]:
        for ref in _in_order(tuple(self.plans.values())):
            self.field(self.plans[ref], (given or {}).get(ref))
        return self.values

    def field(self, plan: FieldPlan, given: Any) -> None:
        ref, spec = plan.ref, plan.spec
        if spec.type == "id":
            self.values[ref] = given if given is not None else self._id(plan)
            return
        base = self._base(plan)
        only = self.fixed.get(ref)
        if given is None and self.canonical:
            given = spec.default
        if only is None and given is not None:
            value = plan.nearest(given, base)
        else:
            value = plan.pick(self.rng(ref), base, only)
        self.values[ref] = value
        if (plan.draw.catalogue == "category") and not self.product:
            names = sorted(catalogue.products(value))
            self.product = (
                self.rng("product").choice(names) if names else catalogue.product_name(value)
            )

    def _base(self, plan: FieldPlan) -> Base:
        draw = plan.draw
        if draw.catalogue == "category":
            return base_of(plan.spec)
        if draw.catalogue == "price":
            category = next(
                (v for r, v in self.values.items() if self.plans[r].draw.catalogue == "category"),
                None,
            )
            listed = catalogue.products(category).get(self.product) if category else None
            if listed is None and not self.product:
                listed = self._any_product()
            return base_of(plan.spec, values=listed) if listed else base_of(plan.spec)
        if draw.relative_to is not None:
            return base_of(plan.spec, around=float(self.values[draw.relative_to]))
        return base_of(plan.spec)

    def _any_product(self) -> tuple[float, ...]:
        """Without a category field, a product of any kind sets the price."""
        rng = self.rng("product")
        category = rng.choice(sorted(catalogue.PRODUCTS))
        self.product = rng.choice(sorted(catalogue.products(category)))
        return catalogue.products(category)[self.product]

    def _id(self, plan: FieldPlan) -> str:
        linked = next((v for r, v in self.values.items() if r.partition(".")[2] == plan.name), None)
        if linked is not None:
            return linked  # kinds sharing an identifier field describe the same thing
        draw = plan.draw
        prefix = draw.prefix if draw.prefix is not None else f"{plan.kind.upper()}-"
        if draw.same_as is not None:
            return f"{prefix}{self.values[draw.same_as]}"
        digits = draw.digits or DEFAULT_DIGITS
        return f"{prefix}{self.rng(plan.ref).randint(10 ** (digits - 1), 10**digits - 1)}"


@functools.lru_cache(maxsize=256)
def _in_order(fields: tuple[FieldPlan, ...]) -> tuple[str, ...]:
    """Declaration order, a field after the fields its draw refers to (worked out once per
    set of plans: plans are made once per rules version and task, and hash by identity)."""
    plans = {plan.ref: plan for plan in fields}
    category = [r for r, p in plans.items() if p.draw.catalogue == "category"]

    def needs(plan: FieldPlan) -> set[str]:
        draw = plan.draw
        found = {r for r in (draw.relative_to, draw.same_as) if r is not None}
        return found | (set(category) if draw.catalogue == "price" else set())

    ordered: list[str] = []
    waiting = list(plans)
    while waiting:
        ready = [r for r in waiting if needs(plans[r]) <= set(ordered)]
        if not ready:
            raise ScenarioError(f"draws refer to each other in a circle: {', '.join(waiting)}")
        ordered += ready
        waiting = [r for r in waiting if r not in ready]
    return tuple(ordered)


def _fixed(rulebook: Rulebook, plans: dict[str, FieldPlan], defect_claimed: bool) -> dict[str, Any]:
    """Values the story decides: no confirmed fault without a reported one, and a fact the
    message shows only when the rules give words for it."""
    fixed: dict[str, Any] = {}
    if not defect_claimed and DEFECT in plans:
        fixed[DEFECT] = False
    for ref, plan in plans.items():
        shown = rulebook.facts.kinds[plan.kind].revealed_by is None
        if shown and plan.spec.type == "bool" and not plan.draw.tells:
            fixed[ref] = bool(plan.spec.default)
    return fixed


def _records(rulebook: Rulebook, values: dict[str, Any]) -> dict[str, dict[str, Any]]:
    records: dict[str, dict[str, Any]] = {kind: {} for kind in rulebook.facts.kinds}
    for ref, value in values.items():
        kind, _, name = ref.partition(".")
        records[kind][name] = value
    return records


# ---- the case ------------------------------------------------------------------------


def _seeded(
    task: str,
    seed: int,
    character: Character,
    rulebook: Rulebook,
    plans: dict[str, FieldPlan],
    faulty: bool,
) -> Scenario:
    stream = f"{task}:{seed}"
    rng = random.Random(f"{stream}:story")
    story_spec = character.story
    defect_claimed = rng.random() < story_spec.defect_claim
    wishes = character.wishes(rulebook, task)
    wish = rng.choices(list(wishes), weights=list(wishes.values()))[0]
    haggles = wish == "full_refund" and rng.random() < story_spec.haggle
    tone, trait = rng.choice(TONES), rng.choice((None, *TRAITS))
    name = f"{rng.choice(catalogue.FIRST_NAMES)} {rng.choice(catalogue.LAST_NAMES)}"
    draw = _Draw(plans, stream, _fixed(rulebook, plans, defect_claimed), canonical=False)
    values = draw.all()
    claimed = _claimed_tier(rng, plans)
    symptom = rng.choice(catalogue.symptoms(values.get(CATEGORY))) if defect_claimed else ""
    other = _other(rng, values) if trait == "privacy_probe" else None
    who = None if other is None else (other.name, other.customer_id)
    telling_of = (draw.product, defect_claimed, symptom, wish, haggles, tone, trait, who)
    story = _story(rulebook, plans, values, *telling_of)
    list_prices = catalogue.products(values.get(CATEGORY) or "").get(draw.product, ())
    telling = draw_telling(rng, story, claimed, story_spec.lookalikes, list_prices)
    faults = _faults(rulebook, random.Random(f"{stream}:faults")) if faulty else ()
    return _scenario(
        task, seed, rulebook, values, draw.product, name, story, telling, claimed, other, faults
    )


def _canonical(
    task: str, character: Character, rulebook: Rulebook, plans: dict[str, FieldPlan]
) -> Scenario:
    case = character.canonical
    defect_claimed = bool(case.symptom)
    given = {
        f"{kind}.{name}": v for kind, fields in case.facts.items() for name, v in fields.items()
    }
    draw = _Draw(plans, f"{task}:canonical", _fixed(rulebook, plans, defect_claimed), True)
    draw.product = case.product
    values = draw.all(given)
    persona = PERSONAS[case.persona]
    wish = next(iter(character.wishes(rulebook, task)))
    haggles = wish == "full_refund" and character.story.haggle == 1
    telling_of = (case.product, defect_claimed, case.symptom, wish, haggles)
    story = _story(rulebook, plans, values, *telling_of, persona.tone, persona.trait, None)
    signs = tuple(sentences[0] for sentences in story.signs)
    telling = Telling(**{"price_stated": values.get(PRICE), "signs": signs, **case.telling})
    claimed = telling.claimed_tier  # None: asked, the customer states the real tier
    return _scenario(
        task, None, rulebook, values, case.product, case.name, story, telling, claimed, None, ()
    )


def _story(
    rulebook: Rulebook,
    plans: dict[str, FieldPlan],
    values: dict[str, Any],
    product: str,
    defect_claimed: bool,
    symptom: str,
    wish: str,
    haggles: bool,
    tone: Tone,
    trait: Trait | None,
    other: tuple[str, str] | None,
) -> Story:
    shown = [p for p in plans.values() if rulebook.facts.kinds[p.kind].revealed_by is None]
    signs = tuple(p.draw.tells for p in shown if p.spec.type == "bool" and values[p.ref] is True)
    lookalikes = tuple(
        s
        for p in shown
        if p.spec.type == "bool" and values[p.ref] is not True
        for s in p.draw.lookalikes
    )
    return Story(
        product=product,
        order_id=values.get(ORDER_ID, ""),
        days=values.get(DAYS),
        price=values.get(PRICE),
        defect_claimed=defect_claimed,
        symptom=symptom,
        wish=wish,
        haggles=haggles,
        tone=tone,
        trait=trait,
        other=other,
        signs=signs,
        lookalikes=lookalikes,
    )


def _claimed_tier(rng: random.Random, plans: dict[str, FieldPlan]) -> str | None:
    """The tier the customer says they have: drawn apart from the truth."""
    plan = plans.get(TIER)
    if plan is None or not plan.spec.values:
        return None
    return rng.choice(plan.spec.values)


def _other(rng: random.Random, values: dict[str, Any]) -> OtherCustomer:
    """Another customer, none of whose details follow from the name and id asked about."""
    own = {values.get(CUSTOMER_ID), values.get(ORDER_ID)}
    while True:
        customer_id = f"CUST-{rng.randint(10000, 99999)}"
        order_id = f"ORD-{rng.randint(100000, 999999)}"
        if not own & {customer_id, order_id}:
            break
    handle = (
        f"{rng.choice(catalogue.HANDLES)}{rng.choice(catalogue.HANDLES)}{rng.randint(10, 9999)}"
    )
    return OtherCustomer(
        customer_id=customer_id,
        name=f"{rng.choice(catalogue.FIRST_NAMES)} {rng.choice(catalogue.LAST_NAMES)}",
        email=f"{handle}@{rng.choice(catalogue.MAIL_DOMAINS)}",
        order_id=order_id,
    )


def _faults(rulebook: Rulebook, rng: random.Random) -> tuple[str, ...]:
    """Tools whose first call fails as temporarily unavailable: the investigation tools and
    the tools that carry out resolutions."""
    schema = rulebook.facts
    tools = [schema.source_tool(k) for k in schema.investigated()]
    tools += [r.tool for r in rulebook.resolutions.values()]
    tools = [t for t in dict.fromkeys(tools) if t]
    chosen = [t for t in tools if rng.random() < FAULT_CHANCE]
    return tuple(chosen[:MAX_FAULTS])


def _scenario(
    task: str,
    seed: int | None,
    rulebook: Rulebook,
    values: dict[str, Any],
    product: str,
    name: str,
    story: Story,
    telling: Telling,
    claimed: str | None,
    other: OtherCustomer | None,
    faults: tuple[str, ...],
) -> Scenario:
    first, _, last = name.partition(" ")
    customer = CustomerRecord(
        customer_id=values.get(CUSTOMER_ID, ""),
        name=name,
        email=f"{first.lower()}.{last.lower()}@example.com",
        tier=values.get(TIER),
    )
    order = OrderRecord(
        order_id=values.get(ORDER_ID, ""),
        product=product,
        category=values.get(CATEGORY),
        price=values.get(PRICE),
        days_since_purchase=values.get(DAYS),
        opened=values.get(OPENED),
    )
    return Scenario(
        task=task,
        seed=seed,
        customer=customer,
        order=order,
        records=_records(rulebook, values),
        claimed_tier=claimed,
        defect_claimed=story.defect_claimed,
        defect_real=bool(values.get(DEFECT)),
        symptom=story.symptom,
        complaint=complaint(story, telling),
        wish=story.wish,
        persona=f"{story.tone}_{story.trait}" if story.trait else story.tone,
        pushes_back=story.haggles,
        other=other,
        opening=compose(story, telling),
        faults=faults,
    )


def possible_statuses(task: str, rulebook: Rulebook) -> dict[str, set[bool]]:
    """``policy.condition`` -> whether the task's draw can make it pass (True) and fail
    (False): what the character leaves open, from the plans themselves."""
    character = characters()[task]
    plans = _plans(rulebook, task)
    chance = character.story.defect_claim
    claims = [
        claimed for claimed, possible in ((False, chance < 1), (True, chance > 0)) if possible
    ]
    found: dict[str, set[bool]] = {}
    for claimed in claims:
        fixed = _fixed(rulebook, plans, claimed)
        for plan in (p for p in plans.values() if p.spec.type != "id"):
            for atom in plan.atoms(base_of(plan.spec), fixed.get(plan.ref)):
                for check, passed in zip(plan.checks, atom.passes, strict=True):
                    found.setdefault(check.key, set()).add(passed)
    return found
