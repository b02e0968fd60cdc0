"""Without the web UI, serving NovaMart imports no gradio (OpenEnv's core imports it eagerly:
about 5 s of a start that must answer /health within 3 s, bench/bench_startup.py); rules a
server would fail on refuse its start, named, whatever the number of workers."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from novamart.server.launch import REPO_ROOT, free_port, serve_in_subprocess
from tests.rulefiles import copy_rules, edit, give_store_credit_a_note

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


def _tree(tmp_path: Path) -> Path:
    """A copy of the repository's code and rules, run as it is (its rules/retail is the one
    its retail tasks play): the retail rules have no setting, an analyst edits them in place."""
    root = tmp_path / "tree"
    for part in ("novamart", "rules"):
        shutil.copytree(REPO_ROOT / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO_ROOT / "README.md", root / "README.md")
    return root


def _refused(root: Path, *options: str) -> str:
    """`novamart serve` run from ``root`` until it exits (a server that starts instead runs
    on, and the timeout fails the test): what it printed, once it exited with code 1."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    serve = [sys.executable, "-m", "novamart.cli", "serve", "--port", str(free_port()), *options]
    run = subprocess.run(serve, env=env, cwd=root, capture_output=True, text=True, timeout=180)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Traceback" not in run.stderr, run.stderr
    return run.stderr


@pytest.mark.parametrize("workers", ["1", "2"])
def test_rules_with_a_problem_refuse_the_start_naming_it(tmp_path: Path, workers: str) -> None:
    """With several workers a worker that failed on its rules was started again and again,
    the port held and nothing served (the run never ended); now the start is refused."""
    rules = copy_rules(tmp_path / "rules")
    edit(rules, "standard_return.yaml", "policy:", "policy: [")
    printed = _refused(REPO_ROOT, "--rules-dir", str(rules), "--workers", workers)
    assert "NovaMart cannot start" in printed
    assert "standard_return.yaml:" in printed


@pytest.mark.parametrize("workers", ["1", "2"])
def test_retail_rules_whose_cases_cannot_be_drawn_refuse_the_start(
    tmp_path: Path, workers: str
) -> None:
    """store_credit, which the kernel grants in place of a late return, made to need an
    argument a return does not carry: every late-return reset would be refused, so the
    start is, naming the write and the argument."""
    root = _tree(tmp_path)
    give_store_credit_a_note(root / "rules" / "retail", "{type: text}")
    printed = _refused(root, "--workers", workers)
    assert "NovaMart cannot start: the retail rules" in printed
    assert "store_credit" in printed and "note" in printed


def test_retail_rules_edited_soundly_start(tmp_path: Path) -> None:
    """The same argument with a default: the write is still made, and the server serves."""
    root = _tree(tmp_path)
    give_store_credit_a_note(root / "rules" / "retail", '{type: text, default: ""}')
    env = {"PYTHONPATH": str(root)}
    with serve_in_subprocess(tmp_path / "serve.log", env=env, app_dir=root) as server:
        assert httpx.get(f"{server.url}/ready", timeout=10).status_code == 200
