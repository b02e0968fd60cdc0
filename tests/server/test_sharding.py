"""The multi-URL client: each session pins to one server, the sessions of a process spread
evenly, factories and sessions pickle (TRL's async trainer ships them to other processes), and a
session whose server cannot be reached moves on to the next one at its reset."""

import functools
import pickle

import pytest

from novamart.client import pin_url, server_urls
from novamart.evaluation.sessions import RemoteSession
from novamart.server.launch import RunningServer, free_port
from novamart.training.episode import ToolEpisode
from novamart.training.trl_env import ENVIRONMENTS

URLS = ["http://10.0.0.1:8000", "http://10.0.0.2:8000", "http://10.0.0.3:8000"]


def test_several_urls_as_a_list_or_comma_separated() -> None:
    assert server_urls(" http://a:1/ ,http://b:2") == ("http://a:1", "http://b:2")
    assert server_urls(URLS) == tuple(URLS)
    with pytest.raises(ValueError, match="no server"):
        server_urls(" , ")


def test_pins_spread_evenly_over_the_servers() -> None:
    pins = [pin_url(URLS) for _ in range(30)]
    assert [pins.count(url) for url in URLS] == [10, 10, 10]
    assert pin_url(URLS[0]) == URLS[0]


def test_a_sharded_factory_and_its_sessions_pickle() -> None:
    factory = pickle.loads(pickle.dumps(functools.partial(ENVIRONMENTS["order"], base_url=URLS)))
    pinned = [factory().episode._session.base_url for _ in range(6)]  # no connection yet
    assert sorted(pinned) == sorted(URLS * 2)
    session = RemoteSession(URLS)
    assert pickle.loads(pickle.dumps(session)).base_url == session.base_url


def test_an_unreachable_server_hands_the_episode_to_the_next(server: RunningServer) -> None:
    dead = f"http://127.0.0.1:{free_port()}"
    for _ in range(2):  # one pins to the dead server first, the other to the live one
        episode = ToolEpisode([dead, server.url])
        try:
            episode.reset(task="easy_refund", seed=3)
            assert episode.task == "easy_refund" and not episode.done
            assert episode._session.base_url == server.url
        finally:
            episode.close()
