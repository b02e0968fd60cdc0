"""An actor pool of NovaMart environments on Ray, for trainers whose rollouts run on Ray.

Each actor is one process holding many episodes (in-process ``ToolEpisode``s keyed by a
session id): the actor is the session's affinity, and one actor a core is enough. A Ray call
costs ~2 ms of round trip against ~0.3 ms of environment work a step, so the calls that scale
carry work in bulk: ``EnvPool.play`` runs whole episodes of a reference agent (evaluation,
benchmarks), ``PoolSession.calls`` runs a batch of tool calls in one round trip; ``call`` (one
step) is there for a model that acts one tool call at a time.

Actors are started with ``max_restarts=0``: an actor that dies takes its episodes with it,
so every session it held fails with ``ActorDied`` at its next call (never a silent restart
to an empty episode), the pool starts a replacement in its slot, and the session's next
``reset`` plays on a live actor again. The caller owns ``ray.init``.
"""

from __future__ import annotations

import contextlib
import threading
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import ray
from ray.actor import ActorHandle
from ray.exceptions import RayActorError

from novamart.agents import AGENTS
from novamart.agents.runner import EpisodeRun, run_episode
from novamart.server.environment import NovamartEnvironment
from novamart.training.episode import EpisodeOver, ToolEpisode

__all__ = ["ActorDied", "EnvPool", "Job", "PoolSession", "StepResult", "shared_pool"]

ToolCall = tuple[str, dict[str, Any]]


class ActorDied(RuntimeError):
    """The actor holding the episode died, and the episode with it: the next ``reset`` of the
    session starts a new episode on the actor that replaced it."""


class StepResult(NamedTuple):
    """One tool call's outcome: what the model reads, the step reward, the running grade."""

    report: str
    reward: float
    grade: float
    done: bool


class Job(NamedTuple):
    """A whole episode for ``EnvPool.play``: a reference agent (``novamart.agents.AGENTS``)
    on a task and seed."""

    agent: str
    task: str
    seed: int | None = None


class EpisodeHost:
    """What one actor runs: episodes keyed by session id, and an environment for whole
    episodes."""

    def __init__(self) -> None:
        self._episodes: dict[str, ToolEpisode] = {}
        self._env = NovamartEnvironment()

    def reset(self, session: str, case: dict[str, Any]) -> str:
        episode = self._episodes.setdefault(session, ToolEpisode())
        return episode.reset(**case)

    def calls(self, session: str, calls: Sequence[ToolCall]) -> list[StepResult]:
        """Play ``calls`` in order, stopping after the one that ends the episode."""
        episode = self._episodes.get(session)
        if episode is None:
            raise EpisodeOver("no episode yet: reset first")
        results: list[StepResult] = []
        for name, arguments in calls:
            if results and episode.done:
                break
            report = episode.call(name, arguments)
            reward = episode.step_rewards[-1]
            results.append(StepResult(report, reward, episode.grade, episode.done))
        return results

    def close(self, session: str) -> None:
        episode = self._episodes.pop(session, None)
        if episode is not None:
            episode.close()

    def play(self, jobs: Sequence[Job], keep: bool) -> list[EpisodeRun]:
        unknown = {job.agent for job in jobs} - set(AGENTS)
        if unknown:
            raise ValueError(f"unknown agents {sorted(unknown)}; agents: {', '.join(AGENTS)}")
        return [
            run_episode(self._env, AGENTS[job.agent](job.seed), job.task, job.seed, keep=keep)
            for job in jobs
        ]

    def open_sessions(self) -> int:
        return len(self._episodes)


_RemoteHost = ray.remote(EpisodeHost)


@dataclass
class _Slot:
    actor: ActorHandle
    generation: int
    sessions: set[str] = field(default_factory=set)


class _Place(NamedTuple):
    slot: int
    generation: int
    session: str


class EnvPool:
    """``actors`` Ray actors of ``cpus_per_actor`` CPUs each, holding NovaMart episodes.
    Thread-safe: sessions may be opened and played from many threads."""

    def __init__(self, actors: int = 2, cpus_per_actor: float = 1.0) -> None:
        if actors < 1:
            raise ValueError(f"a pool needs at least one actor, not {actors}")
        self._options = {"num_cpus": cpus_per_actor, "max_restarts": 0}
        self._lock = threading.Lock()
        self._slots = [_Slot(self._start(), 0) for _ in range(actors)]
        self.replaced = 0
        """How many dead actors this pool has replaced."""

    def _start(self) -> ActorHandle:
        return _RemoteHost.options(**self._options).remote()  # type: ignore[attr-defined]

    def session(self) -> PoolSession:
        """A new session (placed on the actor with the fewest at its first reset)."""
        return PoolSession(self)

    def play(self, jobs: Iterable[Job], keep: bool = False, chunk: int = 50) -> list[EpisodeRun]:
        """Whole episodes, ``chunk`` to a call, spread over the actors; results in job order
        (``keep``: with every observation and action)."""
        todo = list(jobs)
        pending = []
        for number, start in enumerate(range(0, len(todo), chunk)):
            index = number % len(self._slots)
            slot = self._slots[index]
            ref = slot.actor.play.remote(todo[start : start + chunk], keep)
            pending.append((_Place(index, slot.generation, ""), ref))
        return [run for place, ref in pending for run in self._get(place, ref)]

    def actor(self, index: int) -> ActorHandle:
        """The actor now in slot ``index`` (to inspect or kill it)."""
        return self._slots[index].actor

    def open_sessions(self) -> list[int]:
        """Sessions open on each slot's actor, as the pool counts them."""
        with self._lock:
            return [len(slot.sessions) for slot in self._slots]

    def shutdown(self) -> None:
        for slot in self._slots:
            ray.kill(slot.actor, no_restart=True)

    def __enter__(self) -> EnvPool:
        return self

    def __exit__(self, *_: object) -> None:
        self.shutdown()

    # -- what sessions use ---------------------------------------------------------------

    def _place(self) -> _Place:
        with self._lock:
            index = min(range(len(self._slots)), key=lambda i: len(self._slots[i].sessions))
            slot = self._slots[index]
            session = uuid.uuid4().hex
            slot.sessions.add(session)
            return _Place(index, slot.generation, session)

    def _alive(self, place: _Place) -> bool:
        return self._slots[place.slot].generation == place.generation

    def _release(self, place: _Place) -> None:
        with self._lock:
            if self._alive(place):
                self._slots[place.slot].sessions.discard(place.session)

    def _call(self, place: _Place, method: str, *args: Any) -> Any:
        if not self._alive(place):
            raise ActorDied(f"the actor in slot {place.slot} died and took this episode with it")
        actor = self._slots[place.slot].actor
        return self._get(place, getattr(actor, method).remote(place.session, *args))

    def _get(self, place: _Place, ref: ray.ObjectRef) -> Any:
        try:
            return ray.get(ref)
        except RayActorError as error:
            self._replace(place)
            raise ActorDied(
                f"the actor in slot {place.slot} died ({type(error).__name__}); its episodes "
                "are lost and a new actor took its place"
            ) from error

    def _replace(self, place: _Place) -> None:
        with self._lock:
            if not self._alive(place):
                return  # another caller already replaced it
            ray.kill(self._slots[place.slot].actor, no_restart=True)
            self._slots[place.slot] = _Slot(self._start(), place.generation + 1)
            self.replaced += 1


class PoolSession:
    """One episode at a time on a pool's actor, with ``ToolEpisode``'s calls (``reset``,
    ``call``, ``grade``, ``done``, ``close``) plus ``calls`` for a batch of steps."""

    def __init__(self, pool: EnvPool) -> None:
        self._pool = pool
        self._place: _Place | None = None
        self._done = False
        self._grade = 0.0
        self.step_rewards: list[float] = []

    def reset(
        self,
        task: str | None = None,
        seed: int | None = None,
        ticket: dict[str, Any] | None = None,
        split: str | None = None,
        index: int | None = None,
    ) -> str:
        """Start a case (as ``ToolEpisode.reset``); returns the case brief."""
        if self._place is None or not self._pool._alive(self._place):
            self._place = self._pool._place()
        case = {"task": task, "seed": seed, "ticket": ticket, "split": split, "index": index}
        self._done, self._grade, self.step_rewards = False, 0.0, []
        return self._pool._call(self._place, "reset", case)

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        """One tool call (one round trip); what the model reads back."""
        return self.calls([(name, arguments)])[0].report

    def calls(self, calls: Sequence[ToolCall]) -> list[StepResult]:
        """Several tool calls in one round trip, stopping at the end of the episode."""
        if self._place is None:
            raise EpisodeOver("no episode yet: reset first")
        results: list[StepResult] = self._pool._call(self._place, "calls", list(calls))
        self.step_rewards.extend(result.reward for result in results)
        if results:
            self._done, self._grade = results[-1].done, results[-1].grade
        return results

    @property
    def grade(self) -> float:
        """The running grade: the final score once done, else the sum of the step rewards."""
        return self._grade

    @property
    def done(self) -> bool:
        return self._done

    def close(self) -> None:
        place, self._place = self._place, None
        if place is None:
            return
        if self._pool._alive(place):
            with contextlib.suppress(ActorDied):  # else the episode went with the actor
                self._pool._call(place, "close")
        self._pool._release(place)


_shared: dict[tuple[int, float], EnvPool] = {}
_shared_lock = threading.Lock()


def shared_pool(actors: int = 2, cpus_per_actor: float = 1.0) -> EnvPool:
    """This process's pool of that shape, started at the first call: trainer adapters that
    are built many times (one environment per trajectory) share one set of actors."""
    with _shared_lock:
        key = (actors, cpus_per_actor)
        if key not in _shared:
            _shared[key] = EnvPool(actors, cpus_per_actor)
        return _shared[key]
