"""Python's cyclic garbage collector held off while the host answers one request.

Analysing a page makes some 100,000 short-lived objects (a decoded snapshot, lxml proxies, blocks,
feature lists) and almost no reference cycles. With the collector on, those allocations set off
young-generation collections every few hundred objects, each of which scans everything still
young: 10 to 25 ms of a 5,000-element "hide" (70-75 ms with the collector paused against
80-100 ms without, timed in-process on one large modern page, wcxb_dev 3062; the pause serves
every request alike and changes no answer). Pausing loses nothing: the request's
objects are freed by reference counting as it ends, and any cycle at the next collection after
the reply. :class:`~pagesieve.native.protocol.Host` answers every request inside
:func:`collector_paused`, and ``pagesieve-dev bench`` times pages inside it by default, so that
the bench measures the engine as the host runs it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` body and enable it again after, also when
    the body raises; a collector someone else already disabled stays disabled."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()
