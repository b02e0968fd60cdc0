"""The workbench API's typed errors and strict request bodies, shared by its routes
(novamart.server.workbench, novamart.server.workbench_plans)."""

from __future__ import annotations

from typing import Literal

from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

from novamart.server.admin import Issue

ErrorCode = Literal["INVALID_REQUEST", "INVALID_FACTS", "UNKNOWN_CASE", "RULEBOOK_INVALID", "BUSY"]


class Request(BaseModel):
    """A request body: an unknown key is an error, not ignored."""

    model_config = ConfigDict(extra="forbid")


class WorkbenchError(BaseModel):
    code: ErrorCode
    message: str
    issues: list[Issue] = []


def error(
    status: int, code: ErrorCode, message: str, issues: list[Issue] | None = None
) -> JSONResponse:
    body = WorkbenchError(code=code, message=message, issues=issues or [])
    return JSONResponse(status_code=status, content=body.model_dump())
