"""The server's settings, read from environment variables (``novamart serve`` sets them from
its options), so ``novamart serve``, the ``server`` script, Docker and every uvicorn worker of
one server read the same values."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from novamart.server.tally import FLUSH_SECONDS

WEB_UI_ON = ("true", "1", "yes")
"""The ENABLE_WEB_INTERFACE values that turn the web UI on (OpenEnv's reading)."""


class ServerSettings(BaseModel):
    """Server configuration, read from the environment variables named by the aliases.

    ``max_concurrent_envs``, the idle reaper (``session_timeout_s``) and the web UI are per
    worker process: a server of ``workers`` processes admits up to workers x
    MAX_CONCURRENT_ENVS sessions, and each worker's web UI plays its own episode."""

    model_config = ConfigDict(validate_by_alias=True, validate_by_name=True, frozen=True)

    host: str = Field(default="127.0.0.1", alias="HOST")
    port: int = Field(default=8000, ge=1, le=65535, alias="PORT")
    workers: int = Field(default=1, ge=1, le=64, alias="WORKERS")
    max_concurrent_envs: int = Field(default=64, ge=1, alias="MAX_CONCURRENT_ENVS")
    session_timeout_s: float = Field(default=300.0, gt=0, alias="SESSION_TIMEOUT_S")
    drain_seconds: float = Field(default=30.0, ge=0, le=3600, alias="DRAIN_SECONDS")
    metrics_flush_s: float = Field(
        default=FLUSH_SECONDS, gt=0, le=3600, alias="METRICS_FLUSH_SECONDS"
    )
    """How often each worker writes the step path's counts to /metrics (and at shutdown)."""
    max_message_bytes: int = Field(default=65536, ge=1024, alias="MAX_MESSAGE_BYTES")
    rules_dir: Path | None = Field(default=None, alias="RULES_DIR")
    admin_token: str | None = Field(default=None, min_length=16, alias="ADMIN_TOKEN")
    web_ui: str = Field(default="false", alias="ENABLE_WEB_INTERFACE")
    shared_dir: Path | None = Field(default=None, alias="NOVAMART_SHARED_DIR")
    """Where the workers of one server share state (the rules version, the metrics);
    ``novamart serve`` names a scratch folder when WORKERS > 1."""

    @classmethod
    def from_environ(cls, environ: Mapping[str, str] = os.environ) -> ServerSettings:
        """Settings from environment variables; a malformed one fails naming the variable."""
        return cls.model_validate({name: value for name, value in environ.items() if value})

    @property
    def serves_web_ui(self) -> bool:
        return self.web_ui.lower() in WEB_UI_ON
