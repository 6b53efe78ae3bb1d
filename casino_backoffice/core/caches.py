"""What a process keeps of rows that never change once inserted (a rules version's parsed rules, an
account's id), keyed by their ids: each such cache is made here, so that one call forgets them all.

A database never gives an id twice, so the service never needs to forget. A test database may: the
test suite forgets before every test, so that a row of one test is never read as another's."""

from __future__ import annotations

import threading
from typing import Any

_caches: list[dict[Any, Any]] = []
_lock = threading.Lock()


def id_cache() -> dict[Any, Any]:
    """A new process-wide cache keyed by database ids, forgotten by ``id_caches_forget``."""
    cache: dict[Any, Any] = {}
    with _lock:
        _caches.append(cache)
    return cache


def id_caches_forget() -> None:
    """Empty every cache ``id_cache`` made."""
    with _lock:
        for cache in _caches:
            cache.clear()
