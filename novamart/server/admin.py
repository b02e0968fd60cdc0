"""Operator routes: reload the policy rule files of a running server, and say which serve.

``POST /admin/rules/reload`` re-reads the kernel's configured rules directory. A valid rule
set whose own examples pass becomes the version that new episodes start on; an episode
already running keeps the version it pinned at its reset (``PolicyKernel.snapshot()``). An
invalid rule set, or one whose examples fail, is refused with every located issue (file
name, line, where, message) and the last good version keeps serving. ``GET
/admin/rules/version`` names the serving version, its policies and the worker process that
answered. On a server of several workers the reload reaches every one of them
(novamart.server.rules_sync): each names the new version from its next answer on, and every
observation names the version its episode plays (``rules_version``).

The kernel must be the one the environments reset on (the process-wide ``default_kernel()``
for ``NovamartEnvironment()``). Both routes need ``Authorization: Bearer <token>``; a server
started without ADMIN_TOKEN answers them with 403 ADMIN_DISABLED, saying how to turn them
on. Files are named without their directory, so no server path reaches a client.
"""

from __future__ import annotations

import hmac
import os
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, Depends, FastAPI, Header
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from novamart.kernel import EngineError, PolicyKernel, RulebookError, RuleIssue
from novamart.kernel.decide import ExamplesFailed
from novamart.server.rules_sync import RulesSync

PREFIX = "/admin/rules"


class RulesVersion(BaseModel):
    version: str
    policies: list[str]
    worker: int
    """The process id of the worker that answered (a server may run several)."""


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
    code: Literal["RULEBOOK_INVALID", "EXAMPLES_FAILED", "RULEBOOK_REJECTED_BY_ENGINE"]
    message: str
    version: str
    issues: list[Issue]


class AdminError(BaseModel):
    code: Literal["UNAUTHORIZED", "ADMIN_DISABLED"]
    message: str


class _Unauthorized(Exception):
    pass


class _Disabled(Exception):
    pass


DISABLED_MESSAGE = (
    "the admin routes are off because this server was started without ADMIN_TOKEN; start it "
    "with ADMIN_TOKEN set (16 or more characters) and send 'Authorization: Bearer <token>'"
)


def issue_out(issue: RuleIssue) -> Issue:
    """An issue as a client sees it: the file named without its directory."""
    return Issue(
        file=Path(issue.file).name, line=issue.line, where=issue.where, message=issue.message
    )


def admin_router(
    kernel: PolicyKernel,
    token: str | None,
    tools: frozenset[str] | None = None,
    sync: RulesSync | None = None,
) -> APIRouter:
    """The admin routes over ``kernel``: each request must present ``token``; without one,
    they answer that they are disabled. ``tools``: the tools a resolution may name. ``sync``:
    how the server's other workers learn of a reload."""
    sync = sync or RulesSync(kernel, shared_dir=None)

    def authorise(authorization: str | None = Header(default=None)) -> None:
        if token is None:
            raise _Disabled
        given = (authorization or "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(given.encode(), token.encode()):
            raise _Unauthorized

    router = APIRouter(prefix=PREFIX, tags=["admin"], dependencies=[Depends(authorise)])

    @router.get("/version", response_model=RulesVersion)
    def version() -> RulesVersion:
        """The rule-set version new episodes start on (on this worker: all agree)."""
        sync.catch_up()
        rulebook = kernel.rulebook
        return RulesVersion(
            version=rulebook.version, policies=list(rulebook.policies), worker=os.getpid()
        )

    @router.post(
        "/reload",
        response_model=Reloaded,
        responses={
            422: {"model": ReloadRefused},
            401: {"model": AdminError},
            403: {"model": AdminError},
        },
    )
    def reload() -> Reloaded | JSONResponse:
        """Reload the rule files, on every worker; a refused set leaves the serving version in
        place."""
        sync.catch_up()
        previous = kernel.version
        try:
            current = kernel.reload(tools=tools, examples_must_pass=True)
        except ExamplesFailed as error:
            failing = f"{len(error.issues)} of {error.total} examples fail under the new rule files"
            return _refused(kernel, "EXAMPLES_FAILED", failing, error.issues)
        except RulebookError as error:
            problems = f"{len(error.issues)} problem(s) in the rule files"
            return _refused(kernel, "RULEBOOK_INVALID", problems, error.issues)
        except EngineError as error:
            refusal = f"the rule engine refused the rule set ({error})"
            return _refused(kernel, "RULEBOOK_REJECTED_BY_ENGINE", refusal, [])
        if current != previous:
            sync.publish(current)
        return Reloaded(version=current, previous_version=previous, changed=current != previous)

    return router


def _refused(kernel: PolicyKernel, code: str, why: str, issues: list[RuleIssue]) -> JSONResponse:
    """422: the reload was refused; the reply names the version still serving."""
    refused = ReloadRefused(
        code=code,  # type: ignore[arg-type]
        message=f"{why}; still serving version {kernel.version}",
        version=kernel.version,
        issues=[issue_out(issue) for issue in issues],
    )
    return JSONResponse(status_code=422, content=refused.model_dump())


async def _unauthorised(*_: object) -> JSONResponse:
    body = AdminError(code="UNAUTHORIZED", message="admin routes need a valid bearer token")
    return JSONResponse(status_code=401, content=body.model_dump())


async def _disabled(*_: object) -> JSONResponse:
    body = AdminError(code="ADMIN_DISABLED", message=DISABLED_MESSAGE)
    return JSONResponse(status_code=403, content=body.model_dump())


def install_admin_routes(
    app: FastAPI,
    kernel: PolicyKernel,
    token: str | None,
    tools: frozenset[str] | None = None,
    sync: RulesSync | None = None,
) -> None:
    """Add the admin routes to ``app``; ``kernel`` must be the one its environments use."""
    app.include_router(admin_router(kernel, token, tools, sync))
    app.add_exception_handler(_Unauthorized, _unauthorised)
    app.add_exception_handler(_Disabled, _disabled)
