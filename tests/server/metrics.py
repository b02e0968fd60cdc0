"""Reading a server's /metrics as a Prometheus scraper does."""

from pathlib import Path

import httpx
from prometheus_client import CollectorRegistry
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.parser import text_string_to_metric_families


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``url``/metrics: (name, sorted labels) -> value."""
    response = httpx.get(f"{url}/metrics", timeout=30)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def total(samples: dict, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(
        value
        for (sample, given), value in samples.items()
        if sample == name and set(labels.items()) <= set(given)
    )


def written(folder: Path) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """What a server's workers wrote to their metric files in ``folder``, read as a scrape
    does, by no worker: (name, sorted labels) -> value."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(folder))
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in registry.collect()
        for sample in family.samples
    }
