"""How a decision names its law: the rules text's number, and the official one.

Futsal: the rules text numbers its laws ("Правило 1".."Правило 18") as FIFA's Futsal Laws of 2006/2008 did
(7 timekeeper, 8 duration, 9 start and restart, 10 ball in and out of play, 11 method of scoring,
12 fouls and misconduct, 13 free kicks, 14 accumulated fouls, 15 penalty kick, 16 kick-in, 17 goal clearance,
18 corner kick). FIFA's 2021/22 edition renumbered them (6 other officials, 7 duration, 8 start and restart,
9 ball in and out of play, 10 determining the outcome, 12 fouls and misconduct, 13 free kicks with the
accumulated fouls, 14 penalty kick, 15 kick-in, 16 goal clearance, 17 corner kick); both are given.

Mini-rugby: the school rules text has no numbered laws; a decision names its paragraph and line.
World Rugby's laws (2018 numbering; sevens variations) fill what the text leaves out.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

FIFA_2021: Mapping[int, int] = MappingProxyType(
    {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 6, 8: 7, 9: 8, 10: 9, 11: 10, 12: 12, 13: 13, 14: 13, 15: 14,
     16: 15, 17: 16, 18: 17}
)  # fmt: skip
CLARIFICATIONS = "with FIFA's 2006 clarifications"
WINNER = "FIFA Futsal Laws: procedures to determine the winner (2021/22 Law 10)"


def futsal(n: int, *, clarified: bool = False, fifa_only: bool = False, fifa: int | None = None) -> str:
    """``FIFA Futsal Law 14 (2008; 2021/22 Law 13)``; ``fifa_only``: the 2008 laws are silent here;
    ``fifa``: the FIFA law where the text's one law became two (Правило 8: duration is Law 7, the kick-off
    Law 8)."""
    fifa_law = FIFA_2021[n] if fifa is None else fifa
    if fifa_only:
        return f"FIFA Futsal Law {fifa_law} (2021/22; the 2008 Law {n} is silent)"
    extra = f", {CLARIFICATIONS}" if clarified else ""
    return f"FIFA Futsal Law {n} (2008{extra}; 2021/22 Law {fifa_law})"


FUTSAL_KICK_OFF = futsal(8, fifa=8)  # the text's Правило 8 holds the kick-off; FIFA's Law 8 now


def rugby(text: str, world_rugby: int | None = None, *, sevens: bool = False) -> str:
    """``school mini-rugby: <paragraph>`` plus the World Rugby law that says the same or fills it in."""
    parts = [f"school mini-rugby: {text}"] if text else []
    if world_rugby is not None:
        parts.append(f"World Rugby Law {world_rugby}{' (sevens)' if sevens else ''}")
    return "; ".join(parts)
