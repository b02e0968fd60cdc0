"""Fixtures for the reliability tests: one real environment (real rules, real engine), and
the real server of tests/server (uvicorn on 127.0.0.1, started once for the session)."""

from __future__ import annotations

import pytest

from novamart.server.environment import NovamartEnvironment
from tests.server.conftest import server

__all__ = ["env", "server"]


@pytest.fixture(scope="module")
def env() -> NovamartEnvironment:
    return NovamartEnvironment()
