"""Cautions, sending-offs and a team playing short: shared by futsal and mini-rugby.

A team "plays short" while one of its ``Suspension``s runs: each takes one player off what the team may
have on the ground (``on_court``). Futsal (Law 12, decision): a sent-off player never returns, and the team
may bring on a substitute after two full minutes of playing time, or sooner when the opponents, playing with
more players, score (``after_goal``). Rugby sevens (World Rugby Law 9, sevens variation): a yellow card
suspends the player for two minutes of playing time; a red card leaves the team short for the rest of the
match. Durations are playing time of the whole match, so a suspension runs on across half-time.

A substitute (``bench``) shown a second yellow or a red card is sent off, but the team stays whole: he was
not one of the players on the ground (the rules text, clarifications 2006 to Law 3 and Law 12).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from adjudication.engine import RuleError
from arbiter.contract import FrozenMap

CAUTIONS_TO_SEND_OFF = 2  # a second caution in the same match is a sending-off


class Card(StrEnum):
    CAUTION = "caution"
    SECOND_CAUTION = "second_caution"
    SEND_OFF = "send_off"


@dataclass(frozen=True, slots=True)
class Suspension:
    """``team`` plays one short until the match's playing time reaches ``ends_us`` (None: to the end)."""

    team: str
    player: str
    ends_us: int | None


@dataclass(frozen=True, slots=True)
class CardRules:
    """What each card costs the team: ``yellow_us`` of playing short (0: nothing); ``red_us`` of playing
    short after a sending-off (None: for the rest of the match)."""

    yellow_us: int
    red_us: int | None


@dataclass(frozen=True, slots=True)
class Discipline:
    cautions: Mapping[str, int] = field(default_factory=FrozenMap)
    sent_off: frozenset[str] = frozenset()
    short: tuple[Suspension, ...] = ()

    def on_court(self, teams: tuple[str, str], full: int) -> FrozenMap[str, int]:
        return FrozenMap({t: full - sum(1 for s in self.short if s.team == t) for t in teams})

    def expire(self, match_us: int) -> Discipline:
        """Suspensions whose time is up are over (the team may be whole again)."""
        live = tuple(s for s in self.short if s.ends_us is None or s.ends_us > match_us)
        return self if len(live) == len(self.short) else replace(self, short=live)

    def check_player(self, game: str, player: str | None) -> None:
        if player is not None and player in self.sent_off:
            raise RuleError(f"{game}: {player} was sent off and cannot take part in the match any more")


def card(
    d: Discipline, rules: CardRules, team: str, player: str, colour: str, *, bench: bool, match_us: int
) -> tuple[Discipline, Card]:
    """Record a card shown to ``player`` of ``team``; the second yellow is a sending-off."""
    if colour == "yellow":
        n = d.cautions.get(player, 0) + 1
        d = replace(d, cautions=FrozenMap({**d.cautions, player: n}))
        if n < CAUTIONS_TO_SEND_OFF:
            if rules.yellow_us and not bench:
                d = replace(d, short=(*d.short, Suspension(team, player, match_us + rules.yellow_us)))
            return d, Card.CAUTION
        outcome = Card.SECOND_CAUTION
        d = replace(d, short=tuple(s for s in d.short if s.player != player))  # a sin-bin becomes a red
    else:
        outcome = Card.SEND_OFF
    d = replace(d, sent_off=d.sent_off | {player})
    if not bench:
        ends = None if rules.red_us is None else match_us + rules.red_us
        d = replace(d, short=(*d.short, Suspension(team, player, ends)))
    return d, outcome


def after_goal(
    d: Discipline, teams: tuple[str, str], scorer: str, full: int
) -> tuple[Discipline, str | None]:
    """Futsal Law 12 decision: a goal by the team with more players lets the other bring on one player.

    5 v 4 or 5 v 3 or 4 v 3: the short team adds one player (its suspension that would end first is over);
    equal numbers (4 v 4, 3 v 3), or a goal by the team with fewer: nothing changes.
    """
    conceder = teams[1] if scorer == teams[0] else teams[0]
    counts = d.on_court(teams, full)
    if counts[scorer] <= counts[conceder]:
        return d, None
    timed = [s for s in d.short if s.team == conceder and s.ends_us is not None]
    if not timed:
        return d, None
    first = min(timed, key=lambda s: s.ends_us or 0)
    short = list(d.short)
    short.remove(first)
    note = f"{conceder} conceded while short ({counts[conceder]} v {counts[scorer]}): one player may come on"
    return replace(d, short=tuple(short)), note
