"""/metrics speaks the Prometheus text format and counts what was played: episodes by task and
termination, steps in the latency histogram, scores per task, the rules version served."""

import asyncio

from novamart.kernel import default_kernel
from novamart.server.launch import RunningServer
from tests.server.metrics import scrape, total
from tests.server.remote import play_session

TASK, SEED = "easy_refund", 77


def test_metrics_count_a_played_episode(server: RunningServer) -> None:
    before = scrape(server.url)
    results, state = asyncio.run(play_session(server.url, TASK, SEED))
    after = scrape(server.url)
    steps, ending = len(results) - 1, str(state.termination)

    def grew(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert grew("novamart_episodes_started_total", task=TASK) == 1
    assert grew("novamart_episodes_total", task=TASK, termination=ending) == 1
    assert grew("novamart_step_seconds_count") == steps
    assert grew("novamart_episode_score_count", task=TASK) == 1
    assert grew("novamart_episode_score_sum", task=TASK) == state.final_score
    served = {
        dict(labels)["version"]: value
        for (name, labels), value in after.items()
        if name == "novamart_rules_version"
    }
    assert served == {default_kernel().version: 1.0}
    # the session closed with its client (other tests may hold sessions on the shared server)
    assert grew("novamart_sessions_open") == 0
    assert total(after, "novamart_draining") == 0
