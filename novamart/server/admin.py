"""Operator routes: reload the policy rule files of a running server, and say which serve.

``POST /admin/rules/reload`` re-reads the kernel's configured rules directory. A valid rule
set becomes the version that new episodes start on; an episode already running keeps the
version it pinned at its reset (``PolicyKernel.snapshot()``). An invalid rule set is refused
with every located issue (file name, line, where, message) and the last good version keeps
serving. ``GET /admin/rules/version`` names the serving version and its policies.

The kernel must be the one the environments reset on (the process-wide ``default_kernel()``
for ``NovamartEnvironment()``). With a token, both routes need ``Authorization: Bearer
<token>``. Files are named without their directory, so no server path reaches a client.
"""

from __future__ import annotations

import hmac
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, Depends, FastAPI, Header
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from novamart.kernel import EngineError, PolicyKernel, RulebookError, RuleIssue

PREFIX = "/admin/rules"


class RulesVersion(BaseModel):
    version: str
    policies: list[str]


class Reloaded(BaseModel):
    ok: Literal[True] = True
    version: str
    previous_version: str
    changed: bool


class Issue(BaseModel):
    """One located problem in a rule file."""

    file: str
    line: int | None
    where: str
    message: str


class ReloadRefused(BaseModel):
    """The rule set was refused; ``version`` is the one still serving."""

    ok: Literal[False] = False
    code: Literal["RULEBOOK_INVALID", "RULEBOOK_REJECTED_BY_ENGINE"]
    message: str
    version: str
    issues: list[Issue]


class AdminError(BaseModel):
    code: Literal["UNAUTHORIZED"]
    message: str


class _Unauthorized(Exception):
    pass


def _issue(issue: RuleIssue) -> Issue:
    return Issue(
        file=Path(issue.file).name, line=issue.line, where=issue.where, message=issue.message
    )


def admin_router(kernel: PolicyKernel, token: str | None = None) -> APIRouter:
    """The admin routes over ``kernel``; with ``token``, each request must present it."""

    def authorise(authorization: str | None = Header(default=None)) -> None:
        if token is None:
            return
        given = (authorization or "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise _Unauthorized

    router = APIRouter(prefix=PREFIX, tags=["admin"], dependencies=[Depends(authorise)])

    @router.get("/version", response_model=RulesVersion)
    def version() -> RulesVersion:
        """The rule-set version new episodes start on."""
        return RulesVersion(version=kernel.version, policies=list(kernel.rulebook.policies))

    @router.post(
        "/reload",
        response_model=Reloaded,
        responses={422: {"model": ReloadRefused}, 401: {"model": AdminError}},
    )
    def reload() -> Reloaded | JSONResponse:
        """Reload the rule files; a refused set leaves the serving version in place."""
        previous = kernel.version
        try:
            current = kernel.reload()
        except RulebookError as error:
            refused = ReloadRefused(
                code="RULEBOOK_INVALID",
                message=f"{len(error.issues)} problem(s) in the rule files; still serving "
                f"version {kernel.version}",
                version=kernel.version,
                issues=[_issue(issue) for issue in error.issues],
            )
            return JSONResponse(status_code=422, content=refused.model_dump())
        except EngineError as error:
            refused = ReloadRefused(
                code="RULEBOOK_REJECTED_BY_ENGINE",
                message=f"the rule engine refused the rule set ({error}); still serving "
                f"version {kernel.version}",
                version=kernel.version,
                issues=[],
            )
            return JSONResponse(status_code=422, content=refused.model_dump())
        return Reloaded(version=current, previous_version=previous, changed=current != previous)

    return router


async def _unauthorised(*_: object) -> JSONResponse:
    body = AdminError(code="UNAUTHORIZED", message="admin routes need a valid bearer token")
    return JSONResponse(status_code=401, content=body.model_dump())


def install_admin_routes(app: FastAPI, kernel: PolicyKernel, token: str | None = None) -> None:
    """Add the admin routes to ``app``; ``kernel`` must be the one its environments use."""
    app.include_router(admin_router(kernel, token))
    app.add_exception_handler(_Unauthorized, _unauthorised)
