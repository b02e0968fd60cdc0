"""inference.py runs as a real subprocess against real servers: the stand-in model on
127.0.0.1 and, for --env-url, a real uvicorn NovaMart server. The in-process run starts
while the server boots (each process spends seconds importing), and tests read the output;
the offline run over the sample dataset shares the server.

The stand-ins for the faulty model and the offline probe serve tests that call inference.py's
entry point in this process instead (same code, without another interpreter's start-up)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from novamart.server.launch import REPO_ROOT, serve_in_subprocess
from tests.inference.scripts import faulty, planner
from tests.inference.standin import StandIn, serve

RUN_TIMEOUT_S = 240
SAMPLE = REPO_ROOT / "data" / "tickets_sample"
"""The example dataset, as .csv and .jsonl (the same twelve tickets)."""


@dataclass(frozen=True)
class Run:
    model: str
    returncode: int
    stdout: str
    stderr: str


@dataclass(frozen=True)
class Runs:
    in_process: Run
    remote: Run
    planner: StandIn
    dataset_remote: Run
    """``--offline --dataset`` (the .jsonl sample) over --env-url."""


def _start(model: str, url: str, *args: str) -> tuple[str, subprocess.Popen[str]]:
    env = {**os.environ, "API_BASE_URL": url, "MODEL_NAME": model, "HF_TOKEN": "test-key"}
    command = [sys.executable, str(REPO_ROOT / "inference.py"), *args]
    process = subprocess.Popen(
        command, cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return model, process


def _finish(started: tuple[str, subprocess.Popen[str]]) -> Run:
    model, process = started
    try:
        stdout, stderr = process.communicate(timeout=RUN_TIMEOUT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return Run(model, process.returncode, stdout, stderr)


@pytest.fixture(scope="session")
def inference_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    log = tmp_path_factory.mktemp("inference") / "server.log"
    started: list[subprocess.Popen[str]] = []

    def start(model: str, url: str, *args: str) -> tuple[str, subprocess.Popen[str]]:
        run = _start(model, url, *args)
        started.append(run[1])
        return run

    with serve(planner) as model:
        try:
            in_process = start("standin-local", model.url)
            with serve_in_subprocess(log) as server:
                dataset = start(
                    "offline",
                    model.url,
                    *("--offline", "--dataset", f"{SAMPLE}.jsonl", "--env-url", server.url),
                )
                remote = _finish(start("standin-remote", model.url, "--env-url", server.url))
                dataset_remote = _finish(dataset)
            runs = Runs(
                in_process=_finish(in_process),
                remote=remote,
                planner=model,
                dataset_remote=dataset_remote,
            )
        finally:
            for process in started:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        yield runs


@pytest.fixture
def faulty_model() -> Iterator[StandIn]:
    with serve(faulty) as stand_in:
        yield stand_in


@pytest.fixture
def planner_model() -> Iterator[StandIn]:
    with serve(planner) as stand_in:
        yield stand_in
