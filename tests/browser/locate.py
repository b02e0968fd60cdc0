"""Find a Chromium for the browser tests, or get one; when none can be had, say exactly what
to install. `make test` runs this first (``python -m tests.browser.locate``); the tests ask
``find()`` for the browser it settled on.

The order: the browser ``CHROMIUM`` names; an installed Chromium or Chrome (on PATH or in the
usual places); Playwright's own Chromium (already downloaded, else ``playwright install
chromium``); the system package manager, only where it runs without asking for a password
(root, ``sudo -n``, or Homebrew). Each candidate must start headless before it is used.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
KNOWN_PATHS = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/snap/bin/chromium",
    "/Applications/Chromium.app/Contents/MacOS/Chromium",
    "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
)
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PACKAGES = {  # package manager -> the commands that install Chromium with it
    "apt-get": [["update", "-qq"], ["install", "-y", "-qq", "chromium"]],
    "dnf": [["install", "-y", "chromium"]],
    "pacman": [["-S", "--noconfirm", "chromium"]],
    "brew": [["install", "--cask", "chromium"]],
}
INSTRUCTIONS = """\
The browser tests need Chromium (or Chrome), and none could be found or installed here.
Install one of these, then run `make test` again:
  Debian:         sudo apt-get install chromium
  Ubuntu:         sudo snap install chromium
  Fedora:         sudo dnf install chromium
  Arch:           sudo pacman -S chromium
  macOS:          brew install --cask chromium
  any system:     .venv/bin/playwright install --with-deps chromium   (downloads Playwright's build)
or point CHROMIUM at a Chromium or Chrome you already have:
  CHROMIUM=/path/to/chrome make test"""


@dataclass(frozen=True)
class Browser:
    path: Path
    how: str
    """Where it came from: 'CHROMIUM', 'installed', 'playwright' or a package manager."""


def installed(env: Mapping[str, str], known: Sequence[str] = KNOWN_PATHS) -> list[Path]:
    """Installed Chromium or Chrome executables, on PATH first."""
    found = [shutil.which(name, path=env.get("PATH", "")) for name in NAMES]
    paths = [Path(p) for p in found if p] + [Path(p) for p in known]
    return [p for p in dict.fromkeys(paths) if p.is_file() and os.access(p, os.X_OK)]


def playwright_path(env: Mapping[str, str]) -> Path | None:
    """Where Playwright keeps (or would keep) its own Chromium."""
    script = "from playwright.sync_api import sync_playwright\n"
    script += "with sync_playwright() as p: print(p.chromium.executable_path)"
    done = subprocess.run(
        [sys.executable, "-c", script], env=dict(env), capture_output=True, text=True, timeout=60
    )
    return Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else None


def starts(path: Path, env: Mapping[str, str]) -> bool:
    """Whether Playwright can drive ``path`` headless (it exists and its libraries load)."""
    script = (
        "import sys, tempfile\n"
        "from playwright.sync_api import sync_playwright\n"
        "with tempfile.TemporaryDirectory() as d, sync_playwright() as p:\n"
        "    b = p.chromium.launch_persistent_context(d, executable_path=sys.argv[1],"
        " args=sys.argv[2:], headless=True)\n"
        "    b.new_page().goto('about:blank'); b.close()\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script, str(path), *FLAGS],
            env=dict(env),
            capture_output=True,
            timeout=90,
        )
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def find(env: Mapping[str, str] = os.environ, known: Sequence[str] = KNOWN_PATHS) -> Browser | None:
    """A browser that starts, without installing anything."""
    named = env.get("CHROMIUM")
    if named:
        return Browser(Path(named), "CHROMIUM") if starts(Path(named), env) else None
    for path in installed(env, known):
        if starts(path, env):
            return Browser(path, "installed")
    own = playwright_path(env)
    if own is not None and own.is_file() and starts(own, env):
        return Browser(own, "playwright")
    return None


def _can_install_packages(manager: str, env: Mapping[str, str]) -> list[str] | None:
    """The command prefix that installs without a password prompt, or None."""
    if manager == "brew":
        return []
    if os.geteuid() == 0:
        return []
    sudo = shutil.which("sudo", path=env.get("PATH", ""))
    if sudo and subprocess.run([sudo, "-n", "true"], capture_output=True).returncode == 0:
        return [sudo, "-n"]
    return None


def ensure(
    env: Mapping[str, str] = os.environ,
    known: Sequence[str] = KNOWN_PATHS,
    download: bool = True,
) -> Browser | None:
    """A browser that starts, installing one if that can be done without asking."""
    browser = find(env, known)
    if browser is not None or env.get("CHROMIUM"):
        return browser
    if download:
        say("No Chromium found: downloading Playwright's own (playwright install).")
        done = subprocess.run(
            [sys.executable, "-m", "playwright", "install", "chromium"],
            env=dict(env),
            capture_output=True,
            text=True,
            timeout=900,
        )
        own = playwright_path(env) if done.returncode == 0 else None
        if own is not None and own.is_file() and starts(own, env):
            return Browser(own, "playwright")
        lines = (done.stderr + done.stdout).splitlines()
        reason = next((line for line in lines if line.startswith("Error")), "no output")
        say(f"  the download failed: {reason}")
    for manager, commands in PACKAGES.items():
        tool = shutil.which(manager, path=env.get("PATH", ""))
        prefix = _can_install_packages(manager, env) if tool else None
        if tool is None or prefix is None:
            continue
        say(f"No Chromium found: installing it with {manager}.")
        quiet = {**env, "DEBIAN_FRONTEND": "noninteractive"}
        if all(subprocess.run([*prefix, tool, *c], env=quiet).returncode == 0 for c in commands):
            browser = find(env, known)
            if browser is not None:
                return Browser(browser.path, manager)
    return None


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(env: Mapping[str, str] = os.environ, known: Sequence[str] = KNOWN_PATHS) -> int:
    """`make test`'s first step: 0 with a browser that starts, else 1 and what to install."""
    browser = ensure(env, known)
    if browser is None:
        say(INSTRUCTIONS)
        return 1
    print(f"Browser tests use {browser.path} ({browser.how}).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
