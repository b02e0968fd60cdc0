"""Import OpenEnv's core without gradio, unless the web UI is on.

``openenv.core`` (0.10) imports its Gradio web interface eagerly, and gradio takes about
5 s to import: every NovaMart process (the server without its web UI, the client, a
trainer) would pay that before doing anything. OpenEnv guards that import with
``except ModuleNotFoundError``, so NovaMart imports ``openenv.core`` once with gradio
marked missing, then lifts the mark: ``create_app`` imports the web interface lazily when
ENABLE_WEB_INTERFACE is on, and anyone may still import gradio later.
"""

from __future__ import annotations

import os
import sys

WEB_UI_VARIABLE = "ENABLE_WEB_INTERFACE"
GRADIO = "gradio"


def web_ui_enabled(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """What OpenEnv's ``create_app`` decides from ENABLE_WEB_INTERFACE."""
    return environ.get(WEB_UI_VARIABLE, "false").lower() in ("true", "1", "yes")


def import_openenv_core() -> None:
    """Import ``openenv.core`` now; without the web UI, without importing gradio."""
    if "openenv.core" in sys.modules or web_ui_enabled() or GRADIO in sys.modules:
        import openenv.core  # already cheap, or gradio is wanted anyway

        return
    sys.modules[GRADIO] = None  # type: ignore[assignment]  # import gradio -> ModuleNotFoundError
    try:
        import openenv.core  # noqa: F401
    finally:
        del sys.modules[GRADIO]
