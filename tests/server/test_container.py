"""The Dockerfile follows OpenEnv 0.10's runtime container, checked without a Docker daemon.

OpenEnv's validator runs the image as uid 65532 on a read-only root with only /tmp writable
and wants /health within 30 s. Here the server starts the way the Dockerfile says (its ENV,
its CMD, the web UI on) as uid 65532, for whom nothing but /tmp is writable, with HOME and the
caches pointing at a /tmp directory that does not exist yet; it must come up in time, play an
episode and serve the web UI without writing anywhere else.
"""

import asyncio
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from novamart.client import NovamartEnv
from novamart.models import NovamartAction
from novamart.server.launch import REPO_ROOT, RunningServer, serve_in_subprocess

DOCKERFILE = REPO_ROOT / "Dockerfile"
RUNTIME_UID = 65532
HEALTH_WITHIN_S = 30
IMAGE_TMP = "/tmp/novamart"


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text(encoding="utf-8"))
    pairs = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            pairs.append((word.upper(), rest.strip()))
    return pairs


def _final(instruction: str) -> str:
    return [rest for word, rest in _instructions() if word == instruction][-1]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for word, rest in _instructions():
        if word == "ENV":
            env |= dict(item.split("=", 1) for item in shlex.split(rest))
    return env


def test_the_dockerfile_says_what_openenv_expects() -> None:
    env = image_env()
    assert _final("USER") == f"{RUNTIME_UID}:{RUNTIME_UID}"
    for variable in ("HOME", "XDG_CACHE_HOME", "MPLCONFIGDIR", "GRADIO_TEMP_DIR"):
        assert env[variable].startswith("/tmp/"), variable
    assert env["PORT"] == "8000" and _final("EXPOSE") == "8000"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"  # nothing compiled into a read-only /app
    start = re.search(r"--start-period=(\d+)s", _final("HEALTHCHECK"))
    assert start and int(start.group(1)) <= HEALTH_WITHIN_S
    assert "chown" not in DOCKERFILE.read_text()  # root owns /app; the runtime user reads it


@pytest.fixture(scope="module")
def as_in_the_image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("starting a server as uid 65532 needs root and setpriv, as CI has")
    scratch = Path(tempfile.mkdtemp(prefix="novamart-image-", dir="/tmp"))
    os.chown(scratch, RUNTIME_UID, RUNTIME_UID)
    env = {k: v.replace(IMAGE_TMP, str(scratch / "novamart")) for k, v in image_env().items()}
    env.pop("VENV")
    command = json.loads(_final("CMD"))  # the exec form: a JSON list
    command[0] = sys.executable  # /app/.venv/bin/python is this venv's python here
    as_runtime_user = [
        setpriv,
        f"--reuid={RUNTIME_UID}",
        f"--regid={RUNTIME_UID}",
        "--clear-groups",
    ]
    log = tmp_path_factory.mktemp("image") / "server.log"
    try:
        with serve_in_subprocess(
            log,
            command=[*as_runtime_user, *command],
            env=env,
            startup_timeout_s=HEALTH_WITHIN_S,
        ) as running:
            yield running
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def test_the_image_serves_as_the_runtime_user_writing_only_to_tmp(
    as_in_the_image: RunningServer,
) -> None:
    async def episode() -> tuple[int, bool]:
        async with NovamartEnv(base_url=as_in_the_image.url) as env:
            first = await env.reset(task="easy_refund", seed=2)
            order = {"order_id": first.observation.order_id}
            found = await env.step(NovamartAction(tool_name="lookup_order", arguments=order))
            return first.observation.step_number, found.observation.last_tool_result["ok"]

    assert asyncio.run(episode()) == (0, True)
    assert httpx.get(f"{as_in_the_image.url}/web/").status_code == 200  # the web UI is on
    log = as_in_the_image.log()
    for trouble in ("Permission denied", "Read-only file system", "Traceback"):
        assert trouble not in log, log
