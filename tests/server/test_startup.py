"""Without the web UI, serving NovaMart imports no gradio (OpenEnv's core imports it eagerly:
about 5 s of a start that must answer /health within 3 s, bench/bench_startup.py)."""

import os
import subprocess
import sys

from novamart.server.launch import REPO_ROOT

PROBE = "import sys, server.app, novamart.client; print(sorted({'gradio'} & set(sys.modules)))"


def _imported(web_ui: str) -> str:
    env = {**os.environ, "ENABLE_WEB_INTERFACE": web_ui}
    run = subprocess.run(
        [sys.executable, "-c", PROBE], env=env, cwd=REPO_ROOT, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_the_server_without_the_web_ui_imports_no_gradio() -> None:
    assert _imported("false") == "[]"


def test_the_web_ui_still_gets_gradio() -> None:
    assert _imported("true") == "['gradio']"
