"""`make test-container`: build the image from the Dockerfile and run it the three ways users do.

The engine is whatever the machine has: Docker with a running daemon, else podman (Debian:
``apt-get install --no-install-recommends podman runc catatonit``; catatonit for ``--init``,
runc where podman's default crun cannot start a container). The base is the Dockerfile's
pinned python:3.11-slim; where the public registry cannot be reached, a stand-in of the same
Python minor bootstrapped from Debian's archive (scripts/container-base.sh, needs root and
debootstrap), and the run says so. The image must hold no toolchain, cache or /tmp residue
and weigh at most 1.2 GB; then it is served

- under a plain ``run`` (the image's own user, a writable root),
- under OpenEnv 0.10's validator settings (uid 65532, read-only root, a /tmp tmpfs, no
  capabilities, the manifest's CPU and memory: openenv/validation/providers/docker.py),
- as a Hugging Face Space (uid 1000, the port of the README's front matter),

and each time must answer /health within 30 s, pass ``openenv validate --url``, play an episode
over /ws to the score it gets in process, serve the web UI and the workbench, and log no
refused write. Every container it starts carries a label and is removed, even after a failure
(and any left by a killed run is removed at the next start); so is the image it built, unless
``NOVAMART_KEEP_IMAGE=1``. The stand-in base stays, as a pulled base image would. Not part of
`make test`: it takes minutes (README, "Docker / Hugging Face Space").
"""

from __future__ import annotations

import asyncio
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import yaml

from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.runner import run_episode
from novamart.server.environment import NovamartEnvironment
from novamart.server.launch import REPO_ROOT, free_port
from tests.server.remote import play_session

IMAGE = "localhost/novamart-env:test"
STANDIN = "localhost/novamart-base:python3.11-standin"
LABEL = "novamart.test-container=1"
KEEP_IMAGE = "NOVAMART_KEEP_IMAGE"
PODMAN_PACKAGES = "podman runc catatonit"
MAX_IMAGE_BYTES = 1_200_000_000
HEALTH_WITHIN_S = 30.0  # OpenEnv's container check
HEALTH_WAIT_S = 180.0  # how long a late /health is waited for, to say how late it was
BUILD_WITHIN_S = 1800.0
EPISODE_WITHIN_S = 120.0
EPISODE = ("easy_refund", 11)
PAGES = ("/web/", "/workbench", "/docs")
LOGS = REPO_ROOT / "artifacts" / "container"
TROUBLE = ("Permission denied", "Read-only file system", "Traceback")
RESIDUE = (  # prints only what it finds: a toolchain, an installer, caches, /tmp, venvs
    "command -v gcc cc c++ make uv; find /tmp /build /root/.cache /var/lib/apt/lists"
    " /app/.venv-train /app/artifacts /app/tests -mindepth 1 -maxdepth 1 2>/dev/null; true"
)


class ImageCheckFailed(AssertionError):
    """One of the checks failed; the message says which and what was seen."""


def say(message: str) -> None:
    print(f"test-container: {message}", flush=True)


def check(ok: bool, message: str) -> None:
    if not ok:
        raise ImageCheckFailed(message)


def run(argv: Sequence[str], timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """``argv``'s outcome; one that overruns ``timeout`` fails the check, naming the command."""
    try:
        return subprocess.run(list(argv), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as late:
        raise ImageCheckFailed(f"no answer within {timeout:.0f} s from: {' '.join(argv)}") from late


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def engine_binary() -> str:
    """Docker if its daemon answers, else podman; else stop, saying what to install."""
    docker = shutil.which("docker")
    if docker and run([docker, "info"], timeout=30).returncode == 0:
        return docker
    podman = shutil.which("podman")
    if podman:
        return podman
    raise ImageCheckFailed(
        "no container engine: Docker's daemon does not answer and podman is not installed"
        f" (Debian: sudo apt-get install --no-install-recommends {PODMAN_PACKAGES})"
    )


@dataclass(frozen=True)
class Engine:
    """How this machine builds and runs containers: the engine with its global flags (podman
    ``--runtime runc`` where crun cannot start one) and the flags every run needs."""

    argv: tuple[str, ...]
    limits: tuple[str, ...] = ()

    @property
    def podman(self) -> bool:
        return Path(self.argv[0]).name == "podman"

    def __call__(self, *args: str, timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
        return run([*self.argv, *args], timeout=timeout)


def rlimit_flags() -> tuple[str, ...]:
    """This shell's limits, capped at 32,768 processes: some sandboxes refuse the ones engines
    ask for by default (1,048,576 open files and processes)."""
    files = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    procs = min(resource.getrlimit(resource.RLIMIT_NPROC)[0], 32768)
    return ("--ulimit", f"nofile={files}:{files}", "--ulimit", f"nproc={procs}:{procs}")


def settle(tool: str, base: str) -> Engine:
    """The first way that starts a container of ``base`` here, or every try's error.

    In order: the engine's defaults, then this shell's rlimits; with podman, then runc instead
    of its default runtime (crun 1.8 cannot start a container on a host with hybrid cgroups,
    v1 and v2 both mounted, as some sandboxes have)."""
    runtimes: list[tuple[str, ...]] = [()]
    if Path(tool).name == "podman" and shutil.which("runc"):
        runtimes.append(("--runtime", "runc"))
    tried = []
    for runtime in runtimes:
        for limits in ((), rlimit_flags()):
            candidate = Engine((tool, *runtime), limits)
            probe = candidate("run", "--rm", *limits, base, "python3", "-c", "pass")
            flags = " ".join([*runtime, *limits])
            if probe.returncode == 0:
                if flags:
                    say(f"the engine's defaults start no container here: it takes {flags}")
                return candidate
            tried.append(f"  {flags or 'the defaults'}: {last_line(probe.stderr)}")
    hint = "" if len(runtimes) > 1 else "; with podman on hybrid cgroups, install runc too"
    raise ImageCheckFailed(f"no container starts here{hint}:\n" + "\n".join(tried))


def remove_leftovers(engine: Engine) -> None:
    """Containers a killed earlier run left behind (they carry LABEL)."""
    listed = engine("ps", "--all", "--quiet", "--filter", f"label={LABEL}")
    stale = listed.stdout.split()
    if stale:
        say(f"removing {len(stale)} container(s) left by an earlier run")
        engine("rm", "--force", *stale)


def dockerfile_base() -> str:
    """The BASE the Dockerfile pins (its ARG default)."""
    text = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8")
    found = re.search(r"^ARG BASE=(\S+)$", text, flags=re.MULTILINE)
    check(found is not None, "the Dockerfile has no ARG BASE=...")
    assert found is not None
    return found.group(1)


def base_image(tool: str) -> tuple[str, str]:
    """(the base to build on, what it is): the pinned image, else the stand-in."""
    pinned = dockerfile_base()
    if run([tool, "image", "inspect", pinned]).returncode == 0:
        return pinned, "the pinned base"
    say(f"pulling {pinned}")
    pulled = run([tool, "pull", pinned], timeout=600)
    if pulled.returncode == 0:
        return pinned, "the pinned base"
    say(f"the registry cannot be reached ({last_line(pulled.stderr)}): a stand-in base")
    if run([tool, "image", "inspect", STANDIN]).returncode == 0:
        say(f"{STANDIN} exists already (built by an earlier run; `{tool} rmi` it to rebuild)")
    else:
        made = subprocess.run(["sh", "scripts/container-base.sh", tool, STANDIN], cwd=REPO_ROOT)
        check(made.returncode == 0, "the stand-in base image could not be built (output above)")
    return STANDIN, "a STAND-IN base: Debian bookworm's Python 3.11 from Debian's archive"


def build(engine: Engine, base: str) -> float:
    """Build IMAGE from the Dockerfile on ``base``; the seconds it took."""
    LOGS.mkdir(parents=True, exist_ok=True)
    log = LOGS / "build.log"
    args = [*engine.argv, "build", "--build-arg", f"BASE={base}", "--label", LABEL, "-t", IMAGE]
    if engine.podman:
        # Docker's format keeps the HEALTHCHECK (OCI images have none); no intermediate images
        # are kept, so removing IMAGE removes all this build made.
        args += ["--format", "docker", "--layers=false"]
    say(f"building {IMAGE} (minutes; log: {log.relative_to(REPO_ROOT)})")
    started_at = time.monotonic()
    with log.open("w", encoding="utf-8") as out:
        try:
            built = subprocess.run(
                [*args, "."],
                cwd=REPO_ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=BUILD_WITHIN_S,
            )
        except subprocess.TimeoutExpired as late:
            raise ImageCheckFailed(f"the build took over {BUILD_WITHIN_S:.0f} s") from late
    took = time.monotonic() - started_at
    check(built.returncode == 0, f"the build failed: {last_line(log.read_text())} (see {log})")
    return took


def inspect(engine: Engine) -> int:
    """The image's size in bytes, after checking nothing of the build is left in it."""
    as_root = ["run", "--rm", *engine.limits, "--user", "0", "--entrypoint", "sh", IMAGE]
    found = engine(*as_root, "-c", RESIDUE)
    check(found.returncode == 0, f"the residue check did not run: {last_line(found.stderr)}")
    check(not found.stdout.strip(), f"build residue in the image:\n{found.stdout}")
    size = engine("image", "inspect", "--format", "{{.Size}}", IMAGE)
    check(size.returncode == 0, f"no image size: {last_line(size.stderr)}")
    return int(size.stdout.strip())


def app_port() -> int:
    """The port a Space routes to: ``app_port`` in the README's front matter."""
    front = (REPO_ROOT / "README.md").read_text(encoding="utf-8").split("---")[1]
    return int(yaml.safe_load(front)["app_port"])


def validator_flags() -> list[str]:
    """OpenEnv 0.10's `docker create` flags for a subject (its docker provider), with the
    manifest's resources, minus its network isolation: this test reaches the server itself."""
    resources = yaml.safe_load((REPO_ROOT / "openenv.yaml").read_text())["validation"]
    budget = resources["resources"]["disk_mb"] * 1024 * 1024
    shm = min(64 * 1024 * 1024, budget // 2)
    memory = f"{resources['resources']['memory_mb']}m"
    return [
        "--init",
        *("--user", "65532:65532", "--read-only", "--cap-drop", "ALL"),
        *("--security-opt", "no-new-privileges", "--pids-limit", "256"),
        *("--memory", memory, "--memory-swap", memory),
        *("--cpus", str(resources["resources"]["cpu"]), "--shm-size", str(shm)),
        *("--tmpfs", f"/tmp:rw,nosuid,nodev,size={budget - shm},mode=1777"),
        *("--env", "PYTHONDONTWRITEBYTECODE=1", "--env", "PYTHONUNBUFFERED=1"),
    ]


@dataclass(frozen=True)
class Way:
    """One way the image is run: its name, the run flags and the port it serves in the box."""

    name: str
    flags: list[str]
    port: int = 8000


def ways() -> list[Way]:
    return [
        Way("a plain run", []),
        Way("OpenEnv's validator settings", validator_flags()),
        Way("a Hugging Face Space", ["--user", "1000:1000"], app_port()),
    ]


@contextmanager
def started(engine: Engine, way: Way) -> Iterator[tuple[str, str]]:
    """The container running ``way``: (its base URL on 127.0.0.1, its id); removed after."""
    port = free_port()
    publish = ["--publish", f"127.0.0.1:{port}:{way.port}", "--label", LABEL]
    made = engine("run", "--detach", *engine.limits, *way.flags, *publish, IMAGE)
    check(made.returncode == 0, f"{way.name}: the container did not start: {made.stderr}")
    container = made.stdout.strip()
    try:
        yield f"http://127.0.0.1:{port}", container
    finally:
        engine("rm", "--force", container)


def health_time(engine: Engine, url: str, container: str) -> float:
    """Seconds to the first /health answer: over HEALTH_WITHIN_S fails, saying how long it took
    (waiting up to HEALTH_WAIT_S for it) and the load, since a loaded machine is the usual why."""
    started_at = time.monotonic()
    while (waited := time.monotonic() - started_at) < HEALTH_WAIT_S:
        try:
            if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                waited = time.monotonic() - started_at
                break
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    if waited <= HEALTH_WITHIN_S:
        return waited
    logs = engine("logs", container)
    answered = f"only after {waited:.1f} s" if waited < HEALTH_WAIT_S else "not at all"
    raise ImageCheckFailed(
        f"/health answered {answered}, over OpenEnv's {HEALTH_WITHIN_S:.0f} s (load average"
        f" {os.getloadavg()[0]:.1f}); the log:\n{logs.stdout}{logs.stderr}"
    )


def episode_score(url: str) -> float:
    async def bounded() -> float:
        results, _ = await asyncio.wait_for(play_session(url, *EPISODE), EPISODE_WITHIN_S)
        return results[-1].observation.final_score

    try:
        return asyncio.run(bounded())
    except TimeoutError as late:
        raise ImageCheckFailed(f"no episode end within {EPISODE_WITHIN_S:.0f} s") from late


def serve_checks(engine: Engine, way: Way, in_process: float) -> str:
    """Run the image ``way`` and check everything; one line saying what was seen."""
    with started(engine, way) as (url, container):
        healthy = health_time(engine, url, container)
        validate = run([str(Path(sys.executable).parent / "openenv"), "validate", "--url", url])
        check(validate.returncode == 0, f"{way.name}: openenv validate --url:\n{validate.stdout}")
        score = episode_score(url)
        check(score == in_process, f"{way.name}: the episode scored {score}, {in_process} here")
        pages = {path: httpx.get(f"{url}{path}", timeout=30).status_code for path in PAGES}
        check(set(pages.values()) == {200}, f"{way.name}: pages answered {pages}")
        logs = engine("logs", container)
        log = logs.stdout + logs.stderr
        check(not any(t in log for t in TROUBLE), f"{way.name}: trouble in the log:\n{log}")
    checks = re.findall(r"^\s+(PASS|WARN|FAIL|SKIP|ERROR)\s", validate.stdout, flags=re.MULTILINE)
    verdict = f"{checks.count('PASS')}/{len(checks)} PASS"
    check(bool(checks) and checks.count("PASS") == len(checks), f"{way.name}: validate {verdict}")
    return (
        f"{way.name}: /health in {healthy:.1f} s; openenv validate --url: {verdict}; "
        f"{EPISODE[0]} seed {EPISODE[1]} over /ws scored {score:.2f} (as in process); "
        + ", ".join(f"{path} {code}" for path, code in pages.items())
    )


def remove_image(engine: Engine) -> None:
    if os.environ.get(KEEP_IMAGE) == "1":
        say(f"{IMAGE} kept ({KEEP_IMAGE}=1)")
    elif engine("image", "inspect", IMAGE).returncode == 0:
        removed = engine("rmi", "--force", IMAGE)
        say(f"{IMAGE} removed" if removed.returncode == 0 else f"{IMAGE} NOT removed")


def main() -> int:
    began = time.monotonic()
    engine: Engine | None = None
    try:
        tool = engine_binary()
        say(f"engine: {tool}")
        base, what = base_image(tool)
        say(f"base: {base} ({what})")
        engine = settle(tool, base)
        remove_leftovers(engine)
        took = build(engine, base)
        size = inspect(engine)
        check(size <= MAX_IMAGE_BYTES, f"the image is {size / 1e9:.2f} GB, over 1.2 GB")
        say(
            f"built in {took:.0f} s; image {size / 1e6:.0f} MB; no toolchain, cache or /tmp residue"
        )
        episode = run_episode(NovamartEnvironment(), HeuristicAgent(seed=EPISODE[1]), *EPISODE)
        for way in ways():
            say(serve_checks(engine, way, episode.final_score))
    except ImageCheckFailed as failed:
        say(f"FAILED: {failed}")
        return 1
    finally:
        if engine is not None:
            remove_image(engine)
    load = os.getloadavg()[0]
    say(f"passed in {time.monotonic() - began:.0f} s (load average {load:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
