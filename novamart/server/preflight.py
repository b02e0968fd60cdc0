"""What stops a start: rules the server would fail on, named before anything is served.

A worker that cannot load its rules exits; with several workers uvicorn's supervisor starts it
again, and again, holding the port with no worker behind it. So the supervisor asks first
(``serving.main``), and each worker asks again (``app.build_app``: a worker started alone);
either refuses with the problems and no traceback.
"""

from __future__ import annotations

from collections.abc import Collection

from novamart.kernel import PolicyKernel, RulebookError
from novamart.scenarios.retail_customer import case
from novamart.scenarios.retail_world import AS_WRITTEN
from novamart.scenarios.tasks import RETAIL_TASKS
from novamart.server.settings import ServerSettings


class StartRefused(SystemExit):
    """The server does not start: the message says why (exit code 1)."""

    def __init__(self, why: str) -> None:
        super().__init__(f"NovaMart cannot start: {why}")


def refusal(settings: ServerSettings, kernel: PolicyKernel, tools: Collection[str]) -> str | None:
    """Why this server must not start, or None: the rules it serves (``RULES_DIR``, loaded
    into ``kernel``) have a problem or a failing example, or a retail task's first case
    cannot be drawn from the retail rules (rules/retail: they do not load, their world does
    not, or a write the kernel may grant cannot be made). Drawing each task's seed 0 costs a
    start well under a second (~0.06 s here): the retail rules are loaded at import already,
    for the tool catalogue."""
    if settings.rules_dir is not None:
        try:
            kernel.reload(settings.rules_dir, tools=tools, examples_must_pass=True)
        except RulebookError as e:
            return f"the rules in {settings.rules_dir}: {e}"
    try:
        for task in RETAIL_TASKS:
            case(task, 0)
    except Exception as e:  # whatever a reset would meet, met here: refused and named
        return f"the retail rules in {AS_WRITTEN.folder}: {type(e).__name__}: {e}"
    return None
