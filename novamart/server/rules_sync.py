"""One rules version across the worker processes of a server.

Each worker has its own kernel, and ``POST /admin/rules/reload`` reaches the one worker that
took the request. That worker, once the new rule set passed its checks and examples, writes
the version it now serves to a file all workers share (``publish``); every worker looks at
the file before it resets an episode or names its version (``catch_up``: one ``stat`` when
nothing changed) and, when the file names another version than its own, reloads the same
rules directory. So every version query and every episode after a reload names the new
version, whichever worker serves it.

A worker whose catch-up reload fails (the files changed again, into something invalid, after
the publishing worker read them) keeps its version and says so in the log; the next reload
through the admin route puts the workers together again. Without a shared file (one
process), both calls do nothing.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections.abc import Collection
from pathlib import Path

from novamart.kernel import EngineError, PolicyKernel, RulebookError

log = logging.getLogger(__name__)
FILE_NAME = "rules-version.json"


class RulesSync:
    """Keeps ``kernel`` on the version the server's last successful reload published."""

    def __init__(
        self, kernel: PolicyKernel, shared_dir: Path | None, tools: Collection[str] | None = None
    ) -> None:
        self._kernel = kernel
        self._tools = tools
        self._path = None if shared_dir is None else Path(shared_dir) / FILE_NAME
        self._seen: tuple[int, int, int] | None = None
        self._lock = threading.Lock()

    @property
    def shared(self) -> bool:
        """Whether other processes share this server's rules version."""
        return self._path is not None

    def publish(self, version: str) -> None:
        """Tell the other workers that ``version`` now serves (written whole, then renamed)."""
        if self._path is None:
            return
        partial = self._path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(json.dumps({"version": version}), encoding="utf-8")
        os.replace(partial, self._path)
        with self._lock:
            self._seen = _stamp(self._path)

    def catch_up(self) -> None:
        """Reload when another worker published a version this one does not serve."""
        if self._path is None:
            return
        stamp = _stamp(self._path)
        if stamp is None or stamp == self._seen:
            return
        with self._lock:
            if stamp == self._seen:
                return
            self._seen = stamp
            wanted = json.loads(self._path.read_text(encoding="utf-8"))["version"]
            if wanted == self._kernel.version:
                return
            try:
                served = self._kernel.reload(tools=self._tools, examples_must_pass=True)
            except (RulebookError, EngineError) as error:
                log.warning("rules %s published, but reloading here failed: %s", wanted, error)
                return
            if served != wanted:
                log.warning("rules %s published, but the files now give %s", wanted, served)


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """What changes when the file is replaced: inode, size, modification time."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return status.st_ino, status.st_size, status.st_mtime_ns
