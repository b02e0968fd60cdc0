"""Browser tests that travel: an installed Chromium first, a named one on request, and on a
machine where none can be had, `make test` says exactly what to install.

The machine without a browser is built from this one: an empty PATH, no known install
locations, an empty Playwright cache, and Playwright's download hosts pointed at a closed
port on 127.0.0.1 (so trying the download really runs and fails, and nothing leaves the
machine)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from tests.browser import locate


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # closed again when the block ends


@pytest.fixture
def bare_machine(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "bin").mkdir()
    host = f"http://127.0.0.1:{closed_port()}"
    return {
        "PATH": str(tmp_path / "bin"),
        "HOME": str(tmp_path),
        "PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "playwright"),
        "PLAYWRIGHT_DOWNLOAD_HOST": host,
        "PLAYWRIGHT_CHROMIUM_DOWNLOAD_HOST": host,
        "PLAYWRIGHT_DOWNLOAD_CONNECTION_TIMEOUT": "2000",
    }


def test_an_installed_browser_is_found_and_starts(chromium: locate.Browser) -> None:
    assert chromium.path.is_file()
    assert locate.starts(chromium.path, os.environ)


def test_chromium_names_the_browser_to_use(chromium: locate.Browser, tmp_path: Path) -> None:
    named = locate.find({**os.environ, "CHROMIUM": str(chromium.path)})
    assert named == locate.Browser(chromium.path, "CHROMIUM")
    missing = {**os.environ, "CHROMIUM": str(tmp_path / "no-such-chrome")}
    assert locate.ensure(missing, download=False) is None  # a wrong name is not replaced


def test_a_browser_on_path_is_found(
    chromium: locate.Browser, bare_machine: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "bin" / "chromium").symlink_to(chromium.path)
    found = locate.find(bare_machine, known=())
    assert found is not None and found.how == "installed"


def test_with_no_browser_make_test_says_what_to_install(
    bare_machine: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert locate.main(bare_machine, known=()) == 1
    err = capsys.readouterr().err
    assert "downloading Playwright's own" in err and "the download failed" in err
    assert "sudo apt-get install chromium" in err and "brew install --cask chromium" in err
    assert "CHROMIUM=/path/to/chrome make test" in err
    assert "E: " not in err and "Permission denied" not in err  # no apt error
