"""Find a Chromium for the browser tests, and install one only when asked. `make test` runs
this first (``python -m tests.browser.locate``) and last (``--summary``); the tests ask
``find()`` for the browser it settled on.

The order: the browser ``CHROMIUM`` names; an installed Chromium or Chrome (on PATH or in the
usual places); Playwright's own Chromium, if already downloaded. Each candidate must start
headless before it is used. Nothing is installed unless ``NOVAMART_INSTALL_BROWSER=1`` (CI
sets it): then the system package manager, where it runs without asking for a password (root,
``sudo -n``, or Homebrew; apt-get with ``--no-install-recommends``), else Playwright's download.
Without that consent and without a browser, the browser tests are skipped, and the first and
last lines of `make test` say so and give the exact command that would install one.
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
CONSENT = "NOVAMART_INSTALL_BROWSER"
PACKAGES = {  # package manager -> (how a person installs Chromium, the unattended flags)
    "apt-get": (["install", "--no-install-recommends", "chromium"], ["-y", "-qq"]),
    "dnf": (["install", "chromium"], ["-y"]),
    "pacman": (["-S", "chromium"], ["--noconfirm"]),
    "brew": (["install", "--cask", "chromium"], []),
}
INSTRUCTIONS = """\
The browser tests need Chromium (or Chrome), and none could be found or installed here.
Install one of these, then run `make test` again:
  Debian:         sudo apt-get install --no-install-recommends chromium
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


def consented(env: Mapping[str, str] = os.environ) -> bool:
    """Whether the person running the tests asked for a browser to be installed."""
    return env.get(CONSENT) == "1"


def asked_for_none(env: Mapping[str, str] = os.environ) -> bool:
    """No browser was asked for: no consent to install one and none named (CHROMIUM)."""
    return not consented(env) and not env.get("CHROMIUM")


def _package_manager(env: Mapping[str, str]) -> str | None:
    return next((m for m in PACKAGES if shutil.which(m, path=env.get("PATH", ""))), None)


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


def install_command(env: Mapping[str, str] = os.environ) -> str:
    """The exact command that would install Chromium on this machine, for a person to run."""
    manager = _package_manager(env)
    if manager is None:
        return f"{sys.executable} -m playwright install --with-deps chromium"
    sudo = "" if manager == "brew" or os.geteuid() == 0 else "sudo "
    install = sudo + " ".join([manager, *PACKAGES[manager][0]])
    return f"{sudo}apt-get update && {install}" if manager == "apt-get" else install


def not_run_reason(env: Mapping[str, str] = os.environ) -> str:
    """Why the browser tests do not run here, and the two ways to make them run."""
    return (
        f"BROWSER TESTS NOT RUN: no Chromium or Chrome found, and {CONSENT} is not set, so "
        f"nothing was installed. To run them, install one ({install_command(env)}) or let "
        f"`make test` do it: {CONSENT}=1 make test"
    )


def _download(env: Mapping[str, str]) -> Browser | None:
    """Playwright's own Chromium, downloaded (``playwright install chromium``)."""
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
    return None


def _from_package_manager(env: Mapping[str, str], known: Sequence[str]) -> Browser | None:
    manager = _package_manager(env)
    prefix = _can_install_packages(manager, env) if manager else None
    if manager is None or prefix is None:
        return None
    install, unattended = PACKAGES[manager]
    commands = [["update", "-qq"]] if manager == "apt-get" else []
    commands.append([install[0], *unattended, *install[1:]])
    say(f"No Chromium found: installing it with {manager} ({CONSENT}=1).")
    quiet = {**env, "DEBIAN_FRONTEND": "noninteractive"}
    tool = shutil.which(manager, path=env.get("PATH", ""))
    if all(subprocess.run([*prefix, str(tool), *c], env=quiet).returncode == 0 for c in commands):
        browser = find(env, known)
        if browser is not None:
            return Browser(browser.path, manager)
    return None


def ensure(
    env: Mapping[str, str] = os.environ, known: Sequence[str] = KNOWN_PATHS
) -> Browser | None:
    """A browser that starts; one is installed only with consent (NOVAMART_INSTALL_BROWSER=1)."""
    browser = find(env, known)
    if browser is not None or env.get("CHROMIUM") or not consented(env):
        return browser
    return _from_package_manager(env, known) or _download(env)


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def main(
    env: Mapping[str, str] = os.environ,
    known: Sequence[str] = KNOWN_PATHS,
    argv: Sequence[str] = (),
) -> int:
    """`make test`'s first step and, with ``--summary``, its last line (which installs nothing).

    0 with a browser that starts, or with none and no consent (the browser tests skip, saying
    why); 1 when a browser was asked for (consent, or ``CHROMIUM``) and none could be had.
    """
    summary = "--summary" in argv
    browser = find(env, known) if summary else ensure(env, known)
    if browser is not None:
        print(f"Browser tests {'ran with' if summary else 'use'} {browser.path} ({browser.how}).")
        return 0
    if asked_for_none(env):
        say(not_run_reason(env))
        return 0
    say(INSTRUCTIONS)
    return 0 if summary else 1


if __name__ == "__main__":
    sys.exit(main(argv=sys.argv[1:]))
