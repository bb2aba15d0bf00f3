"""The server's sense of time, injectable: every timer of a table (bot delay, trick pause, the
turn clock, a seat's stand-in, abandonment, expiry, the linger of a finished table) and every
time it stores comes from one :class:`Clock`.

:class:`Clock` is real time: the event loop's timers, ``time.time`` and ``time.monotonic``.
:class:`ManualClock` moves only when told (:meth:`ManualClock.advance`), so a test of a timer
advances it instead of sleeping, and a timer fires exactly when its moment is reached, never
because the machine was slow or quick.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol

__all__ = ["Clock", "ManualClock", "TimerHandle"]


class TimerHandle(Protocol):
    def cancel(self) -> None: ...

    def cancelled(self) -> bool: ...

    def when(self) -> float:
        """The moment it fires, on its clock's :meth:`Clock.monotonic` scale."""


class Clock:
    """Real time; ``ahead`` seconds ahead of the machine's clock for what is stored and
    compared with stored times (tests: a server started as if it had been down that long, so
    that a tournament's start or an arena's end passes while it is down)."""

    def __init__(self, ahead: float = 0.0):
        self.ahead = ahead

    def time(self) -> float:
        """Seconds since the epoch: what is stored (event times, finish times)."""
        return time.time() + self.ahead

    def monotonic(self) -> float:
        """Seconds for durations (rate limits, caches)."""
        return time.monotonic()

    def call_later(self, delay: float, callback: Callable[[], Any]) -> TimerHandle:
        """Run ``callback`` on the running loop ``delay`` seconds from now."""
        return asyncio.get_running_loop().call_later(delay, callback)

    async def sleep(self, delay: float) -> None:
        await asyncio.sleep(delay)

    def left(self, timer: TimerHandle) -> float:
        """Seconds until ``timer`` fires (0 when due)."""
        return max(0.0, timer.when() - self.monotonic())  # the default loop's clock


class _ManualTimer:
    __slots__ = ("_cancelled", "at", "callback", "loop")

    def __init__(self, loop: asyncio.AbstractEventLoop, at: float, callback: Callable[[], Any]):
        self.loop = loop
        self.at = at
        self.callback = callback
        self._cancelled = False

    def cancel(self) -> None:
        self._cancelled = True

    def cancelled(self) -> bool:
        return self._cancelled

    def when(self) -> float:
        return self.at


class ManualClock(Clock):
    """Time that stands still until :meth:`advance` moves it (tests). It starts at the real
    time of its making; timers may be set from any event loop and fire on their own."""

    def __init__(self, start: float | None = None):
        super().__init__()
        self._now = time.time() if start is None else start
        self._lock = threading.Lock()
        self._timers: list[tuple[float, int, _ManualTimer]] = []
        self._seq = itertools.count()

    def time(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: Callable[[], Any]) -> TimerHandle:
        with self._lock:
            timer = _ManualTimer(asyncio.get_running_loop(), self._now + max(0.0, delay),
                                 callback)
            heapq.heappush(self._timers, (timer.at, next(self._seq), timer))
        return timer

    async def sleep(self, delay: float) -> None:
        if delay <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not fut.done():
                fut.set_result(None)

        handle = self.call_later(delay, wake)
        try:
            await fut
        finally:
            handle.cancel()

    def pending(self) -> int:
        """How many timers are set and not cancelled (for tests that wait for one)."""
        with self._lock:
            return sum(not t.cancelled() for _, _, t in self._timers)

    def next_due(self) -> float | None:
        """Seconds from now to the next timer that is set, or None."""
        with self._lock:
            due = [at for at, _, t in self._timers if not t.cancelled()]
        return None if not due else max(0.0, min(due) - self._now)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, firing every timer due on the way in the order of its
        moment (time reads as that moment while it runs). Called from a thread other than the
        timers' loop (a test beside a TestClient), it returns once they have run there."""
        if seconds < 0:
            raise ValueError("time does not go back")
        with self._lock:
            target = self._now + seconds
        while True:
            with self._lock:
                if not self._timers or self._timers[0][0] > target:
                    self._now = target
                    return
                at, _, timer = heapq.heappop(self._timers)
                self._now = max(self._now, at)
            if not timer.cancelled():
                self._fire(timer)

    def _fire(self, timer: _ManualTimer) -> None:
        loop = timer.loop
        if loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            timer.callback()
            return
        done = threading.Event()

        def run() -> None:
            try:
                if not timer.cancelled():
                    timer.callback()
            finally:
                done.set()

        try:
            loop.call_soon_threadsafe(run)
        except RuntimeError:  # the loop closed meanwhile
            return
        done.wait(30)
