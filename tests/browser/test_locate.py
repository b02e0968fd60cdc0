"""Browser tests that travel: an installed Chromium first, a named one on request; on a
machine without one, nothing is installed unless asked (NOVAMART_INSTALL_BROWSER=1), and
`make test` says exactly what to install.

The machine without a browser is built from this one: an empty PATH, no known install
locations, an empty Playwright cache, and Playwright's download hosts pointed at a closed
port on 127.0.0.1 (so trying the download really runs and fails, and nothing leaves the
machine). Its package manager, where one is wanted, is a script on that PATH that records
how it was called and installs nothing."""

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
    asked = {**missing, "NOVAMART_INSTALL_BROWSER": "1"}
    assert locate.ensure(asked) is None  # a wrong name is not replaced, even with consent


def test_a_browser_on_path_is_found(
    chromium: locate.Browser, bare_machine: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "bin" / "chromium").symlink_to(chromium.path)
    found = locate.find(bare_machine, known=())
    assert found is not None and found.how == "installed"


@pytest.fixture
def recording_apt(bare_machine: dict[str, str], tmp_path: Path) -> Path:
    """An apt-get on the bare machine's PATH that records each call and installs nothing."""
    calls = tmp_path / "apt-calls"
    script = tmp_path / "bin" / "apt-get"
    script.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    script.chmod(0o755)
    return calls


def test_without_consent_nothing_is_installed_and_the_tests_say_why(
    bare_machine: dict[str, str], recording_apt: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert locate.main(bare_machine, known=()) == 0  # the other tests go on
    err = capsys.readouterr().err
    assert not recording_apt.exists()  # apt-get never ran
    assert "downloading" not in err
    assert not (Path(bare_machine["PLAYWRIGHT_BROWSERS_PATH"])).exists()
    assert err.startswith("BROWSER TESTS NOT RUN") and "NOVAMART_INSTALL_BROWSER is not set" in err
    assert "apt-get install --no-install-recommends chromium" in err
    assert "NOVAMART_INSTALL_BROWSER=1 make test" in err
    assert locate.main(bare_machine, known=(), argv=["--summary"]) == 0  # make test's last line
    assert capsys.readouterr().err.startswith("BROWSER TESTS NOT RUN")
    assert not recording_apt.exists()


def test_with_consent_apt_installs_chromium_without_recommends_or_says_what_to_install(
    bare_machine: dict[str, str], recording_apt: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if locate._can_install_packages("apt-get", bare_machine) is None:
        pytest.skip("installing without a password prompt needs root or sudo -n, as CI has")
    asked = {**bare_machine, "NOVAMART_INSTALL_BROWSER": "1"}
    assert locate.main(asked, known=()) == 1  # the recorder installs nothing: none to be had
    calls = recording_apt.read_text().splitlines()
    assert calls == ["update -qq", "install -y -qq --no-install-recommends chromium"]
    err = capsys.readouterr().err
    assert "installing it with apt-get (NOVAMART_INSTALL_BROWSER=1)" in err
    assert "downloading Playwright's own" in err and "the download failed" in err
    assert "sudo apt-get install --no-install-recommends chromium" in err
    assert "brew install --cask chromium" in err
    assert "CHROMIUM=/path/to/chrome make test" in err
