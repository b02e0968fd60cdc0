"""The workbench's plans: rulebooks of declared resolutions (rules/retail) studied read-only
beside the serving rules, their examples' plans explained per request and per item.

    GET  /policy/rulebooks   each rulebook folder inside the serving rules directory (a folder
                             with its own resolutions.yaml): version, policies, resolutions,
                             examples, the closed-book handbook; or why it does not load
    POST /policy/plan        {rulebook, example} or {rulebook, facts, requests, before_each}:
                             the ``novamart explain --example/--requests --json`` contract
                             (one search at a time, of at most MAX_PLANS plans)

Nothing here touches what the server serves: a studied rulebook is loaded once, on first use,
into its own kernel (its tools may not exist yet: it decides, nothing carries it out).
"""

from __future__ import annotations

import math
import threading
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, ValidationError

from novamart.analyst.explain import (
    PlanExplanation,
    explain_example,
    explain_requests,
    find_example,
)
from novamart.kb.handbook import handbook
from novamart.kernel import PolicyKernel, RulebookError
from novamart.kernel.declared import CHOICES, MAX_REQUESTS, Call, parse_request
from novamart.kernel.rulebook import CATALOGUE_FILE, Example
from novamart.server.admin import Issue, issue_out
from novamart.server.workbench_errors import Request, WorkbenchError, error

MAX_BEFORE_EACH = 8
MAX_PLANS = 5_000
"""Plans one search may weigh (orders times each request's calls): a conversation's worth
(three requests of three choices each, in any order, is 162); more is a denial of service."""


class PlanRequest(Request):
    """An example of a studied rulebook, or facts and the customer's requests."""

    rulebook: str = Field(max_length=64)
    example: str | None = Field(default=None, max_length=300)
    facts: dict[str, Any] | None = None
    requests: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_REQUESTS)
    before_each: list[str] = Field(default_factory=list, max_length=MAX_BEFORE_EACH)


class ExampleView(BaseModel):
    name: str
    policy: str
    file: str
    line: int | None
    how: str
    """'best plan' (requests searched), 'in order' (steps with calls), or 'facts' (no call:
    not a plan)."""
    case: dict[str, Any]
    """Its facts and calls as a POST /policy/plan body ({facts, requests, before_each}), for
    the analyst to edit: its steps' calls as requests, the events among them before each."""


class StudiedRulebook(BaseModel):
    name: str
    version: str | None
    policies: dict[str, str]
    """Policy -> clause."""
    resolutions: dict[str, dict[str, Any]]
    examples: list[ExampleView]
    handbook: str
    issues: list[Issue] = []
    """Why it does not load (then nothing else is filled in)."""


class StudiedRulebooks:
    """The rulebook folders of a rules directory, each loaded once, on first use."""

    def __init__(self, rules_dir: Path):
        self.rules_dir = rules_dir
        self._kernels: dict[str, PolicyKernel | RulebookError] = {}
        self._loading = threading.Lock()

    def names(self) -> list[str]:
        return sorted(
            p.name
            for p in self.rules_dir.iterdir()
            if p.is_dir() and (p / CATALOGUE_FILE).is_file()
        )

    def kernel(self, name: str) -> PolicyKernel | RulebookError:
        """Its kernel, or why it does not load; a KeyError for a name that is not one."""
        if name not in self.names():
            raise KeyError(name)
        with self._loading:
            if name not in self._kernels:
                try:
                    self._kernels[name] = PolicyKernel(self.rules_dir / name)
                except RulebookError as e:
                    self._kernels[name] = e
            return self._kernels[name]

    def view(self, name: str) -> StudiedRulebook:
        kernel = self.kernel(name)
        if isinstance(kernel, RulebookError):
            issues = [issue_out(i) for i in kernel.issues]
            empty: dict[str, Any] = {}
            return StudiedRulebook(
                name=name,
                version=None,
                policies={},
                resolutions=empty,
                examples=[],
                handbook="",
                issues=issues,
            )
        rulebook = kernel.rulebook
        examples = [
            ExampleView(
                name=e.name,
                policy=e.policy,
                file=Path(e.file).name,
                line=e.line,
                how="best plan"
                if e.requests
                else "in order"
                if any(isinstance(s, Call) for s in e.steps)
                else "facts",
                case=_as_requests(e),
            )
            for e in rulebook.examples
        ]
        return StudiedRulebook(
            name=name,
            version=rulebook.version,
            policies={n: p.clause for n, p in rulebook.policies.items()},
            resolutions={n: r.model_dump() for n, r in rulebook.resolutions.items()},
            examples=examples,
            handbook=handbook(rulebook),
        )


def _as_requests(example: Example) -> dict[str, Any]:
    """An example as facts and requests (novamart.kernel.declared.parse_request reads them)."""
    if example.requests:
        requests = [
            {
                "resolution": list(r.resolutions),
                **r.arguments,
                **({CHOICES: r.choices} if r.choices else {}),
            }
            for r in example.requests
        ]
        before = list(example.before_each)
    else:
        requests = [
            {"resolution": s.resolution, **s.arguments}
            for s in example.steps
            if isinstance(s, Call)
        ]
        before = list(dict.fromkeys(s for s in example.steps if isinstance(s, str)))
    return {"facts": example.facts.as_dict(), "requests": requests, "before_each": before}


def plans_router(rules_dir: Path) -> APIRouter:
    router = APIRouter(tags=["policy workbench"])
    studied = StudiedRulebooks(rules_dir)
    searching = threading.Lock()

    @router.get("/policy/rulebooks", response_model=list[StudiedRulebook])
    def rulebooks() -> list[StudiedRulebook]:
        """The rulebooks of declared resolutions an analyst can study here."""
        return [studied.view(name) for name in studied.names()]

    @router.post(
        "/policy/plan", response_model=PlanExplanation, responses={422: {"model": WorkbenchError}}
    )
    def plan(body: PlanRequest) -> PlanExplanation | JSONResponse:
        """An example's plan, or the best plan for facts and requests, per request and item."""
        if (body.example is None) == (body.facts is None):
            return error(422, "INVALID_REQUEST", "give either example or facts and requests")
        try:
            kernel = studied.kernel(body.rulebook)
        except KeyError:
            known = ", ".join(studied.names()) or "none"
            return error(422, "UNKNOWN_CASE", f"no rulebook {body.rulebook!r} (rulebooks: {known})")
        if isinstance(kernel, RulebookError):
            return error(422, "RULEBOOK_INVALID", f"rulebook {body.rulebook!r} does not load")
        if body.example is not None:
            try:
                return explain_example(kernel, find_example(kernel, body.example))
            except ValueError as e:
                return error(422, "UNKNOWN_CASE", str(e))
        if not body.requests:
            return error(422, "INVALID_REQUEST", "facts need the customer's requests")
        try:
            facts = kernel.rulebook.facts.validate(body.facts or {})
        except ValidationError as e:
            first = e.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "facts"
            return error(422, "INVALID_FACTS", f"{where}: {first['msg']}")
        try:
            asked = [parse_request(kernel.rulebook.declared, r) for r in body.requests]
        except ValueError as e:  # an unknown resolution or argument
            return error(422, "INVALID_REQUEST", f"invalid requests: {e}")
        plans = math.factorial(len(asked)) * math.prod(
            len(r.calls(kernel.rulebook.declared)) for r in asked
        )
        if plans > MAX_PLANS:
            message = (
                f"{plans:,} plans to search (orders x calls); at most {MAX_PLANS:,}: "
                "fewer requests or fewer choices"
            )
            return error(422, "INVALID_REQUEST", message)
        if not searching.acquire(blocking=False):
            return error(429, "BUSY", "another plan is being searched; try again")
        try:
            return explain_requests(kernel, facts, asked, body.before_each)
        except ValueError as e:  # a request that fits none of its calls, an unknown event
            return error(422, "INVALID_REQUEST", f"invalid requests: {e}")
        finally:
            searching.release()

    return router
