"""Any sequence of calls, however wrong, keeps the session alive and the reward consistent."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from novamart.server.environment import NovamartEnvironment
from novamart.tools.registry import TOOLS
from tests.episode.conftest import act

VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 10_000),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["ORD-100002", "CUST-10002", "defective_item", "", "refund me now"]),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=2),
)
ARG_NAMES = st.sampled_from(["order_id", "customer_id", "amount", "policy", "message", "reason"])
CALLS = st.lists(
    st.tuples(
        st.sampled_from([*TOOLS, "bogus", ""]),
        st.dictionaries(ARG_NAMES, VALUES, max_size=3),
    ),
    max_size=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 10_000), calls=CALLS)
def test_arbitrary_calls_never_break_the_episode(
    env: NovamartEnvironment, seed: int, calls: list[tuple[str, dict]]
) -> None:
    env.reset(task="defect_resolution", seed=seed)
    total = 0.0
    for tool, arguments in calls:
        observation = act(env, tool, **arguments)
        assert isinstance(observation.reward, float)
        assert observation.last_tool_result is not None
        total += observation.reward
        assert math.isclose(total, env.state.grade, abs_tol=1e-9)
        assert 0.0 <= env.state.grade <= 1.0
    assert env.state.step_count == min(len(calls), 10) or env.state.done
