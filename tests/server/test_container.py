"""The Dockerfile follows OpenEnv 0.10's runtime container, checked without a container engine.

`make test-container` builds the image and serves it three ways (minutes; not part of `make
test`). These are the build-free checks: what the Dockerfile says (two stages, the toolchain
only in the first, a base pinned by digest, nothing run in the final stage, so nothing written
to /tmp at build time; the port of the README's front matter), what `.dockerignore` keeps out
(every venv, every artifact), and the server started the way the final stage says (its ENV,
its CMD) as uid 65532, for whom nothing but /tmp is writable, with HOME and the caches pointing
at a /tmp directory that does not exist yet: it must come up in time, play an episode and
serve the web UI without writing anywhere else.
"""

import asyncio
import fnmatch
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
import yaml

from novamart.client import NovamartEnv
from novamart.models import NovamartAction
from novamart.server.launch import REPO_ROOT, RunningServer, serve_in_subprocess

DOCKERFILE = REPO_ROOT / "Dockerfile"
RUNTIME_UID = 65532
HEALTH_WITHIN_S = 30
IMAGE_TMP = "/tmp/novamart"

Stage = list[tuple[str, str]]


def stages(text: str | None = None) -> list[Stage]:
    """Each stage's (INSTRUCTION, arguments) pairs, continuation lines joined, comments
    dropped; what comes before the first FROM (the ARGs) is stage 0."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text(encoding="utf-8") if text is None else text)
    found: list[Stage] = [[]]
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            word, _, rest = line.strip().partition(" ")
            if word.upper() == "FROM":
                found.append([])
            found[-1].append((word.upper(), rest.strip()))
    return found


def _final(instruction: str) -> str:
    return [rest for word, rest in stages()[-1] if word == instruction][-1]


def image_env() -> dict[str, str]:
    """The final stage's ENV: what the served image runs with."""
    env: dict[str, str] = {}
    for word, rest in stages()[-1]:
        if word == "ENV":
            env |= dict(item.split("=", 1) for item in shlex.split(rest))
    return env


def front_matter() -> dict[str, object]:
    return yaml.safe_load((REPO_ROOT / "README.md").read_text(encoding="utf-8").split("---")[1])


def test_the_dockerfile_says_what_openenv_and_a_space_expect() -> None:
    env = image_env()
    assert _final("USER") == f"{RUNTIME_UID}:{RUNTIME_UID}"
    for variable in ("HOME", "XDG_CACHE_HOME", "MPLCONFIGDIR", "GRADIO_TEMP_DIR"):
        assert env[variable].startswith("/tmp/"), variable
    assert env["PORT"] == _final("EXPOSE") == str(front_matter()["app_port"])  # the Space's
    assert front_matter()["sdk"] == "docker"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1"  # nothing compiled into a read-only /app
    start = re.search(r"--start-period=(\d+)s", _final("HEALTHCHECK"))
    assert start and int(start.group(1)) <= HEALTH_WITHIN_S
    assert "chown" not in DOCKERFILE.read_text()  # root owns /app; the runtime user reads it
    assert json.loads(_final("CMD")) == ["novamart", "serve", "--host", "0.0.0.0", "--web"]
    assert "WORKERS" not in env  # `docker run -e WORKERS=N` reaches `novamart serve`


def pinned_base(text: str | None = None) -> str | None:
    """The BASE every stage starts from, if it is pinned by digest."""
    args = dict(rest.split("=", 1) for word, rest in stages(text)[0] if word == "ARG")
    froms = {stage[0][1].split()[0] for stage in stages(text)[1:]}
    base = args.get("BASE", "")
    pinned = re.fullmatch(r"python:3\.11-slim@sha256:[0-9a-f]{64}", base)
    return base if pinned and froms == {"${BASE}"} else None


def test_the_base_image_is_pinned_by_digest() -> None:
    assert pinned_base() is not None
    assert pinned_base("ARG BASE=python:3.11-slim\nFROM ${BASE}\n") is None  # a tag moves
    assert pinned_base(f"ARG BASE={pinned_base()}\nFROM python:3.11-slim\n") is None


def final_stage_problems(text: str | None = None) -> list[str]:
    """What would leave a toolchain, a cache or /tmp files in the served image."""
    problems = []
    if len(stages(text)) < 3:
        problems.append("a single stage: the toolchain stays in the image")
    *builds, final = stages(text)[1:]
    if any(word == "RUN" for word, _ in final):
        problems.append("the final stage runs commands: their residue stays in the image")
    if not any(w == "COPY" and rest.startswith("--from=") for w, rest in final):
        problems.append("the final stage copies nothing from the build stage")
    for word, rest in (pair for stage in builds for pair in stage):
        if word == "ENV" and re.search(r"=/tmp\b", rest):
            problems.append(f"the build writes under /tmp: ENV {rest}")
    if not any("build-essential" in rest for stage in builds for _, rest in stage):
        problems.append("no build stage installs the toolchain")
    return problems


def test_the_toolchain_and_caches_stay_in_the_build_stage() -> None:
    assert final_stage_problems() == []
    single = "ARG BASE=x\nFROM ${BASE}\nENV HOME=/tmp/novamart\n"
    single += "RUN apt-get install build-essential && sh scripts/install.sh\n"
    found = final_stage_problems(single)  # what the one-stage Dockerfile did
    assert found[:3] == [
        "a single stage: the toolchain stays in the image",
        "the final stage runs commands: their residue stays in the image",
        "the final stage copies nothing from the build stage",
    ]
    two = "ARG BASE=x\nFROM ${BASE} AS build\nENV HOME=/tmp/novamart\n"
    two += "RUN apt-get install build-essential\nFROM ${BASE}\nCOPY --from=build /app /app\n"
    assert final_stage_problems(two) == ["the build writes under /tmp: ENV HOME=/tmp/novamart"]


def ignored(path: str, patterns: list[str]) -> bool:
    """Whether `.dockerignore`'s ``patterns`` keep ``path`` (or a folder above it) out."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(fnmatch.fnmatch(p, pattern) for p in prefixes for pattern in patterns)


def test_dockerignore_keeps_every_venv_and_artifact_out() -> None:
    lines = (REPO_ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    for path in (".venv/bin/python", ".venv-train/lib/torch", ".venv-py312/x", "artifacts/a.log"):
        assert ignored(path, patterns), path
    for path in ("novamart/server/app.py", "rules/returns.yaml", "uv.lock", "scripts/install.sh"):
        assert not ignored(path, patterns), path
    assert not ignored(".venv-train/lib", [".venv"])  # what the old file said


@pytest.fixture(scope="module")
def as_in_the_image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("starting a server as uid 65532 needs root and setpriv, as CI has")
    scratch = Path(tempfile.mkdtemp(prefix="novamart-image-", dir="/tmp"))
    os.chown(scratch, RUNTIME_UID, RUNTIME_UID)
    env = {k: v.replace(IMAGE_TMP, str(scratch / "novamart")) for k, v in image_env().items()}
    env.pop("PATH")  # /app/.venv/bin there is this venv's bin here
    command = json.loads(_final("CMD"))  # the exec form: a JSON list
    command[0] = str(Path(sys.executable).with_name(command[0]))
    command[command.index("--host") + 1] = "127.0.0.1"  # the image's 0.0.0.0 stays in the box
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
    assert httpx.get(f"{as_in_the_image.url}/workbench").status_code == 200
    log = as_in_the_image.log()
    for trouble in ("Permission denied", "Read-only file system", "Traceback"):
        assert trouble not in log, log
