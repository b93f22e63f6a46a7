"""The metrics' hot path (tavern/metrics.py): a publication and a garbage
collection count in plain numbers (a ``Tally``) and reach their Prometheus
histograms only when the figures are read — every scrape, the engine room,
the multiprocess sampler, a worker's exit — with nothing lost, nothing
counted twice, and the same buckets as observing the histogram directly
(docs/operations.md promises ``tavern_action_publication_seconds`` and
``tavern_gc_pause_seconds{generation}``)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest
from prometheus_client import CollectorRegistry, Histogram

from tavern import metrics
from tavern.web import sampler

BUCKETS = (0.001, 0.01, 0.1)


def _series(histogram: Histogram) -> dict[tuple[str, str], float]:
    """A histogram's samples by (name suffix, le), read from the metric
    itself: what it holds, whatever a flush would add."""
    return {(s.name.rsplit("_", 1)[-1], s.labels.get("le", "")): s.value
            for family in histogram.collect() for s in family.samples}


def _count(histogram: Histogram, **labels: str) -> float:
    return sum(s.value for family in histogram.collect() for s in family.samples
               if s.name.endswith("_count") and all(s.labels.get(k) == v for k, v in labels.items()))


def test_a_tally_reads_as_the_histogram_observed_directly() -> None:
    direct = Histogram("direct_seconds", "reference", buckets=BUCKETS, registry=CollectorRegistry())
    tallied = Histogram("direct_seconds", "tallied", buckets=BUCKETS, registry=CollectorRegistry())
    tally = metrics.Tally(tallied)
    # On a bound (counted in it: le means <=), between bounds, zero, beyond the last bound (+Inf).
    first = [0.0, 0.001, 0.0011, 0.01, 0.05, 0.1, 0.2, 7.0]
    for value in first:
        direct.observe(value)
        tally.observe(value)
    assert _count(tallied) == 0, "nothing reaches the histogram before a read"
    tally.flush()
    assert _series(tallied) == pytest.approx(_series(direct))
    tally.flush()  # a read with nothing new adds nothing
    assert _series(tallied) == pytest.approx(_series(direct))
    for value in (0.0005, 0.1, 3.0):
        direct.observe(value)
        tally.observe(value)
    tally.flush()  # only what grew since the last flush
    assert _series(tallied) == pytest.approx(_series(direct))
    assert _series(tallied)[("bucket", "+Inf")] == len(first) + 3


def test_a_publication_reaches_the_histogram_at_the_scrape() -> None:
    before = _count(metrics.PUBLICATION)
    metrics.published(metrics.acted(None))
    metrics.published(None)  # a publication no action waited for: not an observation
    assert _count(metrics.PUBLICATION) == before, "the hot path leaves the histogram (its lock, its file) alone"
    scraped = metrics.scrape().decode()
    assert _count(metrics.PUBLICATION) == before + 1
    assert f"tavern_action_publication_seconds_count {before + 1}" in scraped


def test_garbage_collections_are_counted_by_generation_at_the_read() -> None:
    metrics.watch_gc()
    metrics.flush()
    before = {g: _count(metrics.GC_PAUSE, generation=g) for g in ("0", "2")}
    gc.collect(0)
    gc.collect(2)
    assert {g: _count(metrics.GC_PAUSE, generation=g) for g in ("0", "2")} == before
    counts = {(s.labels["generation"]): s.value for family in metrics.families().values()
              for s in family.samples if s.name == "tavern_gc_pause_seconds_count"}
    assert counts["0"] >= before["0"] + 1
    assert counts["2"] >= before["2"] + 1


def test_a_worker_leaving_writes_its_last_observations() -> None:
    before = _count(metrics.PUBLICATION)
    metrics.published(metrics.acted(None))
    metrics.worker_gone(12345)  # one process: nothing to mark dead, the tallies flushed all the same
    assert _count(metrics.PUBLICATION) == before + 1


class _Stop(Exception):
    pass


def _sampler_turn(monkeypatch: pytest.MonkeyPatch, *, multiprocess: bool) -> list[str]:
    """What one turn of the sampler does (its sleep stops it)."""
    calls: list[str] = []

    async def stop(_seconds: float) -> None:
        raise _Stop

    monkeypatch.setattr(metrics, "MULTIPROCESS", multiprocess)
    monkeypatch.setattr(sampler, "sample_now", lambda app: calls.append("sample"))
    monkeypatch.setattr(metrics, "flush", lambda: calls.append("flush"))
    monkeypatch.setattr(sampler.asyncio, "sleep", stop)
    app: Any = object()
    try:
        asyncio.run(sampler.run(app))
    except _Stop:
        calls.append("slept")
    return calls


def test_one_process_walks_nothing_between_two_scrapes(monkeypatch: pytest.MonkeyPatch) -> None:
    # Read only through itself, it samples at each read (the route does).
    assert _sampler_turn(monkeypatch, multiprocess=False) == []


def test_a_worker_among_several_writes_its_figures_every_period(monkeypatch: pytest.MonkeyPatch) -> None:
    # Another worker's scrape reads this one's files: gauges and tallies written every PERIOD.
    assert _sampler_turn(monkeypatch, multiprocess=True) == ["sample", "flush", "slept"]
