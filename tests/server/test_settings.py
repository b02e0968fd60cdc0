"""The server is configured by environment variables, and a bad one is named at startup."""

import pytest
from pydantic import ValidationError

from novamart.server.app import ServerSettings


def test_settings_come_from_environment_variables() -> None:
    environ = {
        "PORT": "9001",
        "MAX_CONCURRENT_ENVS": "3",
        "SESSION_TIMEOUT_S": "12.5",
        "WORKERS": "2",
        "DRAIN_SECONDS": "4",
        "X": "y",
    }
    settings = ServerSettings.from_environ(environ)
    assert (settings.port, settings.max_concurrent_envs, settings.session_timeout_s) == (
        9001,
        3,
        12.5,
    )
    assert (settings.workers, settings.drain_seconds) == (2, 4.0)
    # loopback unless told otherwise: the Docker image passes --host 0.0.0.0
    assert (settings.host, settings.max_message_bytes) == ("127.0.0.1", 65536)


@pytest.mark.parametrize(
    ("name", "value"),
    [("PORT", "eighty"), ("MAX_CONCURRENT_ENVS", "0"), ("WORKERS", "0"), ("DRAIN_SECONDS", "-1")],
)
def test_a_malformed_setting_is_refused_by_name(name: str, value: str) -> None:
    with pytest.raises(ValidationError, match=name):
        ServerSettings.from_environ({name: value})
