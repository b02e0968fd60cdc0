"""One episode per browser tab of the web UI, a bounded number of them, idle ones reaped.

OpenEnv's WebInterfaceManager holds one environment for the whole web page, so every
visitor played the same episode. The NovaMart tab gives each Gradio session its own
NovamartEnvironment instead (kept in the session's ``gr.State``). At most ``cap`` are open
at once: opening one first closes those idle longer than ``idle_s``; when all are busy the
visitor is told to come back, and nothing else is taken from anyone. Gradio closes a tab's
episode when the tab goes away (the state's delete callback), and the pool's own reaping
covers the sessions Gradio forgets without a callback.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from novamart.models import NovamartObservation
from novamart.server.environment import NovamartEnvironment


class NoEpisodeFree(RuntimeError):
    """Every web episode slot is taken by a tab that is still playing."""


@dataclass(eq=False)
class WebEpisode:
    """A tab's environment and what the page keeps of its episode: the steps so far and
    the latest observation."""

    env: NovamartEnvironment
    last_used: float
    steps: list[list[Any]] = field(default_factory=list)
    last: NovamartObservation | None = None
    closed: bool = False


class WebEpisodes:
    """The web UI's environments: at most ``cap`` open, idle ones reaped when room is needed."""

    def __init__(
        self,
        cap: int,
        idle_s: float,
        factory: Callable[[], NovamartEnvironment] = NovamartEnvironment,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if cap < 1 or idle_s <= 0:
            raise ValueError("a web episode pool needs cap >= 1 and idle_s > 0")
        self.cap, self.idle_s = cap, idle_s
        self._factory, self._clock = factory, clock
        self._open: set[WebEpisode] = set()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._open)

    def touch(self, episode: WebEpisode | None) -> bool:
        """Whether ``episode`` is still open (then it counts as used now)."""
        with self._lock:
            if episode is None or episode not in self._open:
                return False
            episode.last_used = self._clock()
            return True

    def usable(self, episode: WebEpisode | None) -> WebEpisode:
        """``episode`` if it is still open (marked used now), else a new one."""
        if self.touch(episode):
            assert episode is not None
            return episode
        with self._lock:
            self._reap_idle()
            if len(self._open) >= self.cap:
                raise NoEpisodeFree(
                    f"all {self.cap} web episodes are in use; try again in a few minutes "
                    f"(an idle one is freed after {self.idle_s:.0f} s)"
                )
            fresh = WebEpisode(env=self._factory(), last_used=self._clock())
            self._open.add(fresh)
            return fresh

    def close(self, episode: WebEpisode | None) -> None:
        """Free ``episode``'s slot (Gradio's delete callback; harmless twice)."""
        if episode is None:
            return
        with self._lock:
            self._close(episode)

    def _close(self, episode: WebEpisode) -> None:
        self._open.discard(episode)
        if not episode.closed:
            episode.closed = True
            episode.env.close()

    def _reap_idle(self) -> None:
        now = self._clock()
        for episode in [e for e in self._open if now - e.last_used > self.idle_s]:
            self._close(episode)
