"""The policy workbench: a page for analysts and the small read-only JSON API behind it.

    GET  /workbench        the page (plain HTML and script, no build step, works offline)
    GET  /policy/rules     the serving rule set: version, policies and clauses, resolutions,
                           the fact vocabulary, the tasks the rules decide, the rule files,
                           whether the admin reload route is on
    POST /policy/explain   a case ({task, seed}) or facts ({facts}), optionally {resolution}:
                           the ``novamart explain --json`` contract
    POST /policy/diff      {files: {name: text}} replacing or adding rule files: the
                           ``novamart rules diff --json`` report against the serving version

Nothing here changes what the server serves: a pasted rule file is checked and compared in a
scratch copy of the rules directory, then thrown away. One diff runs at a time (it is
seconds of CPU); a second one meanwhile is told to retry. Bodies are held to
MAX_MESSAGE_BYTES by the server's PayloadGuard, like OpenEnv's own routes. Every route is
registered by ``install_workbench`` so the server wires it in one line, with the plans of
the rulebooks of declared resolutions studied beside the serving rules
(novamart.server.workbench_plans).
"""

from __future__ import annotations

import re
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, Field, ValidationError

from novamart.analyst.amounts import pays
from novamart.analyst.cases import policy_tasks
from novamart.analyst.checks import check_rules
from novamart.analyst.explain import CaseExplanation, explain_case, explain_facts
from novamart.analyst.impact import DiffReport, diff_rules
from novamart.kb.policies import describe_amount
from novamart.kernel import CompiledRulebook, PolicyKernel, RulebookError
from novamart.server.admin import issue_out
from novamart.server.workbench_errors import Request as _Request
from novamart.server.workbench_errors import WorkbenchError
from novamart.server.workbench_errors import error as _error
from novamart.server.workbench_plans import plans_router

PAGE = Path(__file__).with_name("workbench.html")
FILE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}\.yaml$")
MAX_FILE_CHARS = 65_536
WEB_SEEDS = 100


class ExplainRequest(_Request):
    """A generated case (task, seed) or facts; and the resolution to ask 'why (not)' about."""

    task: str | None = Field(default=None, max_length=64)
    seed: int | None = Field(default=None, ge=0, le=2**31)
    facts: dict[str, Any] | None = None
    resolution: str | None = Field(default=None, max_length=64)


class DiffRequest(_Request):
    files: Annotated[
        dict[str, Annotated[str, Field(max_length=MAX_FILE_CHARS)]],
        Field(min_length=1, max_length=10),
    ]
    seeds: int = Field(default=WEB_SEEDS, ge=1, le=300)
    tasks: list[str] | None = None


class ConditionView(BaseModel):
    name: str
    test: str
    reason: str
    line: int | None


class GrantView(BaseModel):
    resolution: str
    quality: float
    amount: str
    pays: bool
    """Whether the grant carries an amount (an exchange or a manager's review does not)."""


class PolicyView(BaseModel):
    name: str
    clause: str
    file: str
    applies_when: str
    overrides: bool
    fallback: bool
    """It applies when no other policy does (its condition failing is no fault of the case)."""
    conditions: list[ConditionView]
    grants: list[GrantView]


class RulesView(BaseModel):
    version: str
    policies: list[PolicyView]
    resolutions: dict[str, dict[str, Any]]
    facts: dict[str, Any]
    tasks: list[str]
    files: dict[str, str]
    reload_enabled: bool
    """Whether this server's POST /admin/rules/reload is on (it was started with ADMIN_TOKEN)."""


def _rules_view(kernel: PolicyKernel, reload_enabled: bool) -> RulesView:
    rulebook = kernel.rulebook
    policies = [
        PolicyView(
            name=p.name,
            clause=p.clause,
            file=Path(p.file).name,
            applies_when="any condition holds" if p.any_condition else "all conditions hold",
            overrides=p.overrides,
            fallback=p.is_fallback,
            conditions=[
                ConditionView(name=c.name, test=c.text, reason=c.reason, line=c.line)
                for c in p.conditions
            ],
            grants=[
                GrantView(
                    resolution=g.resolution,
                    quality=g.quality,
                    amount=describe_amount(g.amount),
                    pays=pays(g.amount),
                )
                for g in p.grants
            ],
        )
        for p in rulebook.policies.values()
    ]
    files = {
        path.name: path.read_text(encoding="utf-8", errors="replace")
        for path in sorted(kernel.rules_dir.glob("*.yaml"))
    }
    return RulesView(
        version=rulebook.version,
        policies=policies,
        resolutions={n: r.model_dump() for n, r in rulebook.resolutions.items()},
        facts=rulebook.facts.model_dump(),
        tasks=policy_tasks(),
        files=files,
        reload_enabled=reload_enabled,
    )


def _pasted_rules(kernel: PolicyKernel, files: dict[str, str]) -> CompiledRulebook:
    """The serving rules directory with ``files`` replaced, checked and compiled in a
    scratch copy (raises RulebookError naming the pasted files without a path)."""
    with tempfile.TemporaryDirectory(prefix="novamart-workbench-") as scratch:
        copy = Path(scratch) / "rules"
        shutil.copytree(kernel.rules_dir, copy, ignore=shutil.ignore_patterns("*.md"))
        for name, text in files.items():
            (copy / name).write_text(text, encoding="utf-8")
        return CompiledRulebook(check_rules(copy))


def workbench_router(kernel: PolicyKernel, reload_enabled: bool = False) -> APIRouter:
    router = APIRouter(tags=["policy workbench"])
    diffing = threading.Lock()

    @router.get("/workbench", response_class=HTMLResponse, include_in_schema=False)
    def page() -> HTMLResponse:
        return HTMLResponse(PAGE.read_text(encoding="utf-8"))

    @router.get("/policy/rules", response_model=RulesView)
    def rules() -> RulesView:
        """The rule set new episodes start on, as the workbench shows it."""
        return _rules_view(kernel, reload_enabled)

    @router.post(
        "/policy/explain",
        response_model=CaseExplanation,
        responses={422: {"model": WorkbenchError}},
    )
    def explain(body: ExplainRequest) -> CaseExplanation | JSONResponse:
        """Why the policies decide as they do for a case or a set of facts."""
        if (body.task is None) == (body.facts is None):
            return _error(422, "INVALID_REQUEST", "give either task (and seed) or facts")
        rules = kernel.snapshot()
        try:
            if body.task is not None:
                return explain_case(rules, body.task, body.seed, body.resolution)
            facts = rules.rulebook.facts.validate(body.facts or {})
            return explain_facts(rules, facts, body.resolution)
        except ValidationError as e:
            first = e.errors(include_url=False)[0]
            where = ".".join(str(p) for p in first["loc"]) or "facts"
            return _error(422, "INVALID_FACTS", f"{where}: {first['msg']}")
        except ValueError as e:  # an unknown task or resolution
            return _error(422, "UNKNOWN_CASE", str(e))

    @router.post(
        "/policy/diff",
        response_model=DiffReport,
        responses={422: {"model": WorkbenchError}, 429: {"model": WorkbenchError}},
    )
    def diff(body: DiffRequest) -> DiffReport | JSONResponse:
        """What replacing these rule files would change, against the serving version."""
        bad = sorted(n for n in body.files if not FILE_NAME.match(n))
        if bad:
            message = f"rule file names look like standard_return.yaml, not {', '.join(bad)}"
            return _error(422, "INVALID_REQUEST", message)
        unknown = sorted(set(body.tasks or ()) - set(policy_tasks()))
        if unknown:
            message = f"unknown tasks {', '.join(unknown)}; tasks: {', '.join(policy_tasks())}"
            return _error(422, "INVALID_REQUEST", message)
        if not diffing.acquire(blocking=False):
            return _error(429, "BUSY", "another impact report is being computed; try again")
        try:
            new = _pasted_rules(kernel, body.files)
            return diff_rules(kernel.snapshot(), new, body.tasks, body.seeds, shown=5)
        except RulebookError as e:
            issues = [issue_out(i) for i in e.issues]
            message = f"{len(issues)} problem(s) in the changed rules; nothing was compared"
            return _error(422, "RULEBOOK_INVALID", message, issues)
        finally:
            diffing.release()

    return router


def install_workbench(app: FastAPI, kernel: PolicyKernel, reload_enabled: bool = False) -> None:
    """Add the workbench page and its API to ``app``, over the kernel its episodes use;
    ``reload_enabled`` says whether the admin reload route is on, for the page's "deploy
    this change" section."""
    app.include_router(workbench_router(kernel, reload_enabled))
    app.include_router(plans_router(kernel.rules_dir))
