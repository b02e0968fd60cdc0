"""RecentlyUsed, the one bounded cache behind engine runs, seeded scenarios, lexicons and
knowledge bases: a value is built once while kept, and the least recently used goes first."""

from __future__ import annotations

from novamart.kernel.recent import RecentlyUsed


def test_a_kept_value_is_built_once_and_the_least_recently_used_is_dropped() -> None:
    built: list[str] = []
    cache: RecentlyUsed[str, str] = RecentlyUsed(2)

    def get(key: str) -> str:
        return cache.get(key, lambda: built.append(key) or key.upper())

    assert [get("a"), get("b"), get("a")] == ["A", "B", "A"]
    assert built == ["a", "b"] and cache.misses == 2
    get("c")  # full: "b" was used least recently, so it goes
    get("a")
    get("b")
    assert built == ["a", "b", "c", "b"] and cache.misses == 4
    cache.clear()
    get("a")
    assert built[-1] == "a"
