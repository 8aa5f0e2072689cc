"""The playing clock of a period, computed from the stream's times.

The clock runs from the moment the ball is played (a kick-off or a restart) until play stops (the ball out,
a foul, a goal, a whistle) and shows the playing time elapsed in the period (futsal Law 7/8: "the clock is
stopped whenever the ball is out of play"). It counts whole microseconds, the resolution at which the
contract writes times, so a period of any number of stops adds up exactly: 40 minutes with a thousand stops
is as right as one with none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

US_PER_S = 1_000_000


def to_us(seconds: float) -> int:
    """Seconds as whole microseconds (the contract's time resolution)."""
    return round(seconds * US_PER_S)


def to_s(us: int) -> float:
    return us / US_PER_S


@dataclass(frozen=True, slots=True)
class Clock:
    """One period's clock: ``length_us`` to play, ``elapsed_us`` at the last stop, ``since_us`` the stream
    time it last started (None while stopped)."""

    length_us: int
    elapsed_us: int = 0
    since_us: int | None = None

    @classmethod
    def of_minutes(cls, minutes: float) -> Clock:
        return cls(length_us=to_us(minutes * 60))

    @property
    def running(self) -> bool:
        return self.since_us is not None

    def at_us(self, t: float) -> int:
        """Playing time elapsed at stream time ``t`` (``t`` not before the last start)."""
        if self.since_us is None:
            return self.elapsed_us
        return self.elapsed_us + max(0, to_us(t) - self.since_us)

    def at(self, t: float) -> float:
        return to_s(self.at_us(t))

    def start(self, t: float) -> Clock:
        return self if self.running else replace(self, since_us=to_us(t))

    def stop(self, t: float) -> Clock:
        return replace(self, elapsed_us=self.at_us(t), since_us=None) if self.running else self

    def expired(self, t: float) -> bool:
        """The period's time ran out before ``t`` (the clock would show more than its length)."""
        return self.at_us(t) > self.length_us

    def remaining_us(self, t: float) -> int:
        return self.length_us - self.at_us(t)

    def expiry_t(self) -> float | None:
        """Stream time at which a running clock reaches the period's length."""
        if self.since_us is None:
            return None
        return to_s(self.since_us + self.length_us - self.elapsed_us)

    def run_out(self) -> Clock:
        """Stopped at full time: what the clock shows once the period's time has run out."""
        return replace(self, elapsed_us=self.length_us, since_us=None)


def show(us: int) -> str:
    """``mm:ss.s`` as a timekeeper's display shows it (tenths, truncated)."""
    tenths = us // 100_000
    return f"{tenths // 600:02d}:{tenths % 600 // 10:02d}.{tenths % 10}"
