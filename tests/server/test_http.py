"""The HTTP surface: the Space's health ping, metadata, schema, and stateless reset/step."""

import httpx

from novamart.scenarios.tasks import DEFAULT_TASK
from novamart.server.launch import RunningServer


def test_post_reset_answers_200_with_the_first_observation(server: RunningServer) -> None:
    response = httpx.post(f"{server.url}/reset")
    assert response.status_code == 200
    body = response.json()
    assert body["done"] is False
    assert body["observation"]["task"] == DEFAULT_TASK
    assert body["observation"]["step_number"] == 0


def test_reset_takes_a_task_and_a_seed(server: RunningServer) -> None:
    asked = {"task": "loyalty_negotiation", "seed": 5}
    first = httpx.post(f"{server.url}/reset", json=asked).json()["observation"]
    again = httpx.post(f"{server.url}/reset", json=asked).json()["observation"]
    assert first["task"] == "loyalty_negotiation"
    assert first == again


def test_http_step_is_stateless_a_fresh_episode_per_request(server: RunningServer) -> None:
    action = {"tool_name": "lookup_order", "arguments": {"order_id": "ORD-100001"}}
    steps = [httpx.post(f"{server.url}/step", json={"action": action}) for _ in range(2)]
    assert [s.status_code for s in steps] == [200, 200]
    assert [s.json()["observation"]["step_number"] for s in steps] == [1, 1]


def test_health_metadata_and_schema(server: RunningServer) -> None:
    assert httpx.get(f"{server.url}/health").json() == {"status": "healthy"}
    metadata = httpx.get(f"{server.url}/metadata").json()
    assert metadata["name"] == "novamart"
    schema = httpx.get(f"{server.url}/schema").json()
    assert "tool_name" in schema["action"]["properties"]
    assert "final_score" in schema["observation"]["properties"]
