"""What a camera cannot see, entered on the page: a nominated ball, a called pocket, a choice after a foul, a
dice claim or bet, a roll typed by hand. Each is a line of the contract; the desk tries it on the engine
before it is recorded, so a slip is refused with the rule's reason.

The inputs offered are the game's own (``GameSpec.inputs``, from the registry); a dice game typed by hand
also takes its rolls. Any other line of the contract can still be typed as JSON (``parse_input_line``).
"""

from __future__ import annotations

from typing import Any

from arbiter import contract as c
from arbiter.games import DiceSpec, GameSpec
from dashboard.session.setup import DeskError


def input_kinds(spec: GameSpec) -> tuple[str, ...]:
    """The inputs the page offers for this game: its registry's, and for dice the roll typed by hand."""
    typed = (c.Roll.TYPE,) if isinstance(spec, DiceSpec) else ()
    return tuple(dict.fromkeys((*typed, *spec.inputs)))


def _faces(text: str, what: str) -> list[int]:
    try:
        faces = [int(v) for v in text.replace(",", " ").split()]
    except ValueError:
        raise DeskError(f"{what}: faces are numbers 1..6 separated by spaces, such as '3 5 5 1 6'") from None
    if not faces:
        raise DeskError(f"{what}: give the faces, such as '3 5 5 1 6'")
    return faces


def _blank(fields: dict[str, Any], name: str) -> Any:
    value = fields.get(name)
    return None if value in ("", None) else value


def _roll(player: str, t: float | None, fields: dict[str, Any]) -> c.Roll:
    faces = _faces(str(fields.get("faces", "")), "roll")
    dice = tuple(c.Die(id=f"d{i}", value=v) for i, v in enumerate(faces, start=1))
    thrown = tuple(str(fields.get("thrown") or "").replace(",", " ").split()) or tuple(d.id for d in dice)
    if t is None:
        raise DeskError("a roll needs its time: Desk.next_t(match) gives one")
    return c.Roll(t=t, player=player, dice=dice, thrown=thrown)


def _billiards_input(kind: str, player: str, fields: dict[str, Any]) -> c.JsonLine | None:
    match kind:
        case "declare":
            free = bool(fields.get("free_ball"))
            return c.Declare(player=player, ball=fields.get("ball", ""), free_ball=free)
        case "call":
            if fields.get("safety"):
                return c.Call(player=player, safety=True)
            return c.Call(player=player, ball=_blank(fields, "ball"), pocket=_blank(fields, "pocket"))
        case "choice":
            return c.Choice(player=player, option=fields.get("option", ""))
        case "concede":
            return c.Concede(player=player)
    return None


def _dice_input(kind: str, player: str, t: float | None, fields: dict[str, Any]) -> c.JsonLine | None:
    match kind:
        case "roll":
            return _roll(player, t, fields)
        case "choose":
            return c.Choose(player=player, category=fields.get("category", ""))
        case "stop":
            return c.Stop(player=player)
        case "claim":
            if _blank(fields, "number") is not None:
                return c.Claim(player=player, number=int(fields["number"]))
            return c.Claim(player=player, hand=tuple(_faces(str(fields.get("hand", "")), "claim")))
        case "challenge":
            return c.Challenge(player=player)
        case "bet":
            return c.Bet(player=player, face=int(fields.get("face", 0)), stake=int(fields.get("stake", 1)))
        case "operation":
            return c.Operation(player=player, op=fields.get("op", ""))
    return None


KNOWN = ("declare", "call", "choice", "concede", "roll", "choose", "stop", "claim", "challenge", "bet",
         "operation")  # fmt: skip


def make_input(kind: str, player: str, t: float | None = None, **fields: Any) -> c.JsonLine:
    """One input line of the contract from the page's form (``fields`` as typed); ``DeskError`` with the
    contract's reason when a field is wrong."""
    try:
        line = _billiards_input(kind, player, fields) or _dice_input(kind, player, t, fields)
    except ValueError as exc:
        raise DeskError(str(exc)) from None
    if line is None:
        raise DeskError(f"unknown input {kind!r}; one of {', '.join(KNOWN)}")
    return line


def parse_input_line(text: str) -> c.JsonLine:
    """A line typed as JSON (any event of the contract: a missed cushion, a roll the camera did not see)."""
    try:
        line = c.parse_line(text.strip())
    except c.ContractError as exc:
        raise DeskError(f"not a line of the contract: {exc.message}") from None
    if isinstance(line, c.Match | c.Decision):
        raise DeskError("type an event or an input: headers and decisions are not entered by hand")
    return line
