"""Seeded appearance of a synthetic billiards clip: cloth, light, balls' sheen, shadows, sensor, occluders.

Every knob the renderer uses lives here with what it trades off, so a clip's look is one JSON-able record
(``Look.to_dict``) and the renderer holds no unexplained numbers. ``Look.random(rng)`` draws a plausible
room; ``LookRanges`` says how wide the draw is.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

RGB = tuple[int, int, int]
UV = tuple[float, float]
Side = Literal["left", "right", "bottom", "top"]
SIDES: tuple[Side, ...] = ("left", "right", "bottom", "top")

# Cloth colours seen on real tables (RGB): tournament greens, blue, grey, red, burgundy, snooker green.
CLOTH_RGB: dict[str, RGB] = {
    "snooker_green": (38, 104, 44),
    "tournament_green": (30, 122, 64),
    "olive_green": (66, 110, 46),
    "tournament_blue": (30, 92, 150),
    "electric_blue": (24, 110, 178),
    "grey": (104, 110, 116),
    "red": (150, 34, 36),
    "burgundy": (110, 30, 44),
    "teal": (24, 112, 110),
}
RAIL_RGB: dict[str, RGB] = {
    "mahogany": (96, 44, 26),
    "walnut": (84, 58, 38),
    "oak": (150, 108, 64),
    "black": (30, 28, 28),
    "cherry": (122, 52, 34),
}
SKIN_RGB: tuple[RGB, ...] = ((236, 188, 160), (214, 160, 120), (176, 120, 86), (124, 82, 56), (86, 56, 40))
SLEEVE_RGB: tuple[RGB, ...] = ((24, 24, 28), (230, 230, 232), (36, 48, 90), (120, 20, 30), (70, 70, 76))


@dataclass(frozen=True)
class Lamp:
    """One lamp's pool of light on the table, a 2D gaussian."""

    uv: UV  # centre as fractions of the table width (u) and length (v); lamps hang in a row along y
    sigma: float  # spread as a fraction of the table length: small = hot spots, large = even light
    gain: float  # peak added light relative to the room's ambient level


@dataclass(frozen=True)
class CueLook:
    """The cue stick and the bridge hand around the stroke. Times in seconds, lengths in millimetres."""

    length_mm: float = 1470.0  # 57-58 in; longer sticks leave the frame sooner
    tip_mm: float = 11.0  # tip diameter: thinner is harder to segment at 0.3 px/mm
    butt_mm: float = 30.0  # butt diameter
    elevation_deg: float = 7.0  # butt raised above the rail; steeper = more parallax in the image
    shaft_rgb: RGB = (214, 178, 120)  # maple shaft
    butt_rgb: RGB = (40, 26, 20)  # dark butt sleeve
    gap_mm: tuple[float, float] = (8.0, 60.0)  # tip-to-ball distance while feathering (min, max)
    feather_hz: float = 1.2  # practice strokes per second before the shot
    stroke_s: float = 0.35  # the final backswing and delivery before the strike
    follow_mm: float = 60.0  # follow-through past the ball's start position
    withdraw_s: float = 0.9  # time from the strike until the stick has left the frame
    bridge_hand: bool = True  # a bridge hand on the cloth near the tip: a static occluder before the shot
    skin_rgb: RGB = (214, 160, 120)
    bridge_mm: float = 200.0  # tip to bridge hand: a longer bridge puts the hand further from the ball


@dataclass(frozen=True)
class ArmLook:
    """An arm reaching over the table during part of the clip (a player leaning in, a referee)."""

    start_frac: float  # window start as a fraction of the clip duration
    duration_frac: float  # window length as a fraction of the clip duration
    side: Side  # the cushion it reaches in over
    reach_uv: UV  # where the hand ends, fractions of the table width / length
    width_mm: float  # forearm width; wider arms hide more balls
    height_mm: float  # above the cloth: more parallax and a bigger image the higher it is
    move_s: float  # time to reach in and to pull back
    sleeve_rgb: RGB
    skin_rgb: RGB


@dataclass(frozen=True)
class ScoreBar:
    """A broadcast's static score graphic over the bottom of the frame: drawn after the camera (no sensor
    noise, no lens), it hides the balls under it in the truth."""

    box: tuple[float, float, float, float]  # x0, y0, x1, y1 as fractions of the frame's width and height
    rgb: RGB
    opacity: float  # 1 = solid; less lets the table show through
    text: str


@dataclass(frozen=True)
class Projector:
    """Light from a projector over the table (a training or scoring display): a colour cast over everything
    in view, balls, cloth and arms alike, that changes across the frame (gains per RGB channel at one side,
    ``from_gain``, and the other, ``to_gain``, along ``angle_deg``) and is strongest in a hot spot at
    ``spot`` (fractions of the frame) that brightens by ``spot_gain`` and falls off over ``spot_sigma``."""

    from_gain: tuple[float, float, float]
    to_gain: tuple[float, float, float]
    angle_deg: float
    spot: UV = (0.5, 0.5)
    spot_gain: float = 0.0
    spot_sigma: float = 0.35

    def __post_init__(self) -> None:
        if min(*self.from_gain, *self.to_gain) <= 0 or self.spot_gain < 0 or self.spot_sigma <= 0:
            raise ValueError(f"a projector's gains and spot size must be positive, got {self}")


@dataclass(frozen=True)
class RailMarkers:
    """Printed square markers (fiducials, as a fixed camera rig puts on the rails to find the table): black
    codes of ``cells`` x ``cells`` on white, ``size_mm`` across, ``count`` of them spread round the rails."""

    count: int
    size_mm: float
    cells: int = 4

    def __post_init__(self) -> None:
        if self.count < 0 or self.size_mm <= 0 or self.cells < 2:
            raise ValueError(f"rail markers need a count >= 0, a size > 0 and 2 cells or more, got {self}")


@dataclass(frozen=True)
class LookRanges:
    """How wide ``Look.random`` draws: wider ranges generalise better but make clips less typical."""

    # Cloth colour odds, in CLOTH_RGB order: mostly greens and blues as in clubs, the rest for robustness.
    cloth_weights: tuple[float, ...] = (3.0, 3.0, 1.0, 2.0, 1.5, 1.0, 0.7, 0.5, 1.0)
    cloth_texture: tuple[float, float] = (0.01, 0.04)
    cloth_mottle: tuple[float, float] = (0.01, 0.05)
    cushion_shade: tuple[float, float] = (0.82, 0.97)
    rail_width_mm: tuple[float, float] = (90.0, 160.0)
    lamps: tuple[int, int] = (1, 3)
    lamp_sigma: tuple[float, float] = (0.18, 0.45)
    lamp_gain: tuple[float, float] = (0.15, 0.6)
    ambient: tuple[float, float] = (0.6, 0.9)
    vignette: tuple[float, float] = (0.05, 0.35)
    brightness: tuple[float, float] = (0.85, 1.15)
    highlight_strength: tuple[float, float] = (0.5, 1.0)
    shininess: tuple[float, float] = (30.0, 90.0)
    shadow_offset: tuple[float, float] = (0.05, 0.35)
    shadow_strength: tuple[float, float] = (0.3, 0.65)
    shadow_softness: tuple[float, float] = (0.2, 0.5)
    exposure: tuple[float, float] = (0.1, 0.9)
    noise_sigma: tuple[float, float] = (0.5, 4.0)
    jpeg_quality: tuple[int, int] = (70, 95)
    marking_strength: tuple[float, float] = (0.35, 0.8)
    highlight_radius: tuple[float, float] = (0.25, 0.45)  # highlight distance from the ball centre (radii)
    ball_ambient: tuple[float, float] = (0.35, 0.6)
    cloth_reflection: tuple[float, float] = (0.05, 0.25)
    face_shade: tuple[float, float] = (0.55, 0.85)
    lamp_jitter: UV = (0.08, 0.05)  # lamp centres wander this much (std, table fractions) off a row along y
    # Colour wander (std, 8-bit levels) around the catalogue colours: cloth, rails, floor, cue shaft and butt.
    colour_jitter: tuple[float, float, float, float, float] = (6.0, 8.0, 8.0, 14.0, 10.0)
    cue_probability: float = 0.9
    bridge_probability: float = 0.8
    arm_probability: float = 0.3
    score_bar_probability: float = 0.0  # drawn last, only when > 0: a classic draw is unchanged
    projector_probability: float = 0.0  # drawn after the rest of the room, only when > 0
    rail_markers_probability: float = 0.0  # drawn after the projector, only when > 0


@dataclass(frozen=True)
class Look:
    """Every appearance knob of one clip. Colours are RGB (the renderer converts to BGR)."""

    cloth_rgb: RGB = CLOTH_RGB["snooker_green"]
    # Fine felt grain, fraction of intensity: realism vs. clean colour thresholds for classical detectors.
    cloth_texture: float = 0.025
    # Large-scale colour variety (worn patches, dye): hides slow drifts that trackers must not follow.
    cloth_mottle: float = 0.03
    # Cushion tops relative to the bed: darker cushions make the playing edge easy to find.
    cushion_shade: float = 0.9
    rail_rgb: RGB = RAIL_RGB["mahogany"]
    # Wooden rail width outside the cushions; wider rails push the table away from the frame edges.
    rail_width_mm: float = 120.0
    # Chalk lines and spots, as a blend toward ``marking_rgb``: faint markings are realistic, easy to miss.
    marking_strength: float = 0.6
    marking_rgb: RGB = (236, 236, 226)
    floor_rgb: RGB = (34, 30, 28)  # the room beyond the rails: dark so the table stands out
    pocket_rgb: RGB = (14, 13, 12)  # the hole; pure black would make pocketed-ball detection trivial
    # Far cushion faces seen past the nose (tilted camera), relative to the cushion top: depth cue.
    face_shade: float = 0.7
    lamps: tuple[Lamp, ...] = (Lamp((0.5, 0.5), 0.35, 0.3),)
    ambient: float = 0.75  # light everywhere; low ambient + strong lamps = harsh uneven light
    vignette: float = 0.2  # corner darkening (fraction lost at the frame corners)
    brightness: float = 1.0  # global exposure gain: clipping above, noise-dominated dark frames below
    # Ball sheen: specular spot position in ball radii (image x, y from the centre) and strength.
    highlight_uv: UV = (-0.3, -0.35)
    highlight_strength: float = 0.8
    shininess: float = 60.0  # specular exponent: high = small sharp highlight
    ball_ambient: float = 0.45  # unlit share of a ball's shading: low = strong 3D look, darker rims
    cloth_reflection: float = 0.15  # cloth colour bounced onto the ball rims: realism vs. pure ball colour
    # Contact shadow: offset in ball radii in the table plane, opacity and blur (in ball radii).
    shadow_offset: UV = (0.1, -0.15)
    shadow_strength: float = 0.5
    shadow_softness: float = 0.35
    # Shutter open time as a fraction of the frame interval: long = more motion blur, less noise.
    exposure: float = 0.5
    noise_sigma: float = 2.0  # sensor noise std in 8-bit levels: robustness vs. clean training signal
    jpeg_quality: int = 90  # exported stills: low quality adds blocking around small balls
    cue: CueLook | None = CueLook()
    arm: ArmLook | None = None
    score_bar: ScoreBar | None = None
    projector: Projector | None = None
    rail_markers: RailMarkers | None = None

    def __post_init__(self) -> None:
        for name in (
            "cloth_texture",
            "cloth_mottle",
            "marking_strength",
            "vignette",
            "shadow_strength",
            "face_shade",
            "ball_ambient",
            "cloth_reflection",
        ):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"Look.{name} must be in [0, 1], got {v}")
        if not 0.0 < self.exposure <= 1.0:
            raise ValueError(
                f"Look.exposure is a fraction of the frame interval in (0, 1], got {self.exposure}"
            )
        if self.noise_sigma < 0 or self.brightness <= 0 or self.ambient < 0:
            raise ValueError("Look.noise_sigma and ambient must be >= 0 and brightness > 0")
        if not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"Look.jpeg_quality must be 1..100, got {self.jpeg_quality}")
        for rgb in (self.cloth_rgb, self.rail_rgb, self.marking_rgb, self.floor_rgb, self.pocket_rgb):
            if len(rgb) != 3 or not all(0 <= c <= 255 for c in rgb):
                raise ValueError(f"colours are RGB triples in 0..255, got {rgb}")
        if self.arm is not None and self.arm.side not in SIDES:
            raise ValueError(f"ArmLook.side must be one of {SIDES}, got {self.arm.side!r}")

    @classmethod
    def random(cls, rng: np.random.Generator, ranges: LookRanges | None = None) -> Look:
        """A plausible room, drawn within ``ranges`` (``LookRanges()`` by default)."""
        r = ranges or LookRanges()

        def u(lo_hi: tuple[float, float]) -> float:
            return float(rng.uniform(*lo_hi))

        if len(r.cloth_weights) != len(CLOTH_RGB):
            raise ValueError(f"LookRanges.cloth_weights needs one weight per cloth: {list(CLOTH_RGB)}")
        odds = np.asarray(r.cloth_weights, dtype=np.float64)
        j_cloth, j_rail, j_floor, _, _ = r.colour_jitter
        cloth = _jitter(
            rng, list(CLOTH_RGB.values())[rng.choice(len(CLOTH_RGB), p=odds / odds.sum())], j_cloth
        )
        rail = _jitter(rng, list(RAIL_RGB.values())[rng.integers(len(RAIL_RGB))], j_rail)
        lamps = _random_lamps(rng, r)
        angle = rng.uniform(0, 2 * math.pi)
        hl = u(r.highlight_radius)
        sh_angle = rng.uniform(0, 2 * math.pi)
        sh = u(r.shadow_offset)
        cue = _random_cue(rng, r) if rng.random() < r.cue_probability else None
        arm = _random_arm(rng) if rng.random() < r.arm_probability else None
        bar = None
        if r.score_bar_probability > 0 and rng.random() < r.score_bar_probability:
            bar = _random_score_bar(rng)
        look = cls(
            cloth_rgb=cloth,
            cloth_texture=u(r.cloth_texture),
            cloth_mottle=u(r.cloth_mottle),
            cushion_shade=u(r.cushion_shade),
            rail_rgb=rail,
            rail_width_mm=u(r.rail_width_mm),
            marking_strength=u(r.marking_strength),
            lamps=lamps,
            ambient=u(r.ambient),
            vignette=u(r.vignette),
            brightness=u(r.brightness),
            highlight_uv=(float(hl * math.cos(angle)), float(hl * math.sin(angle))),
            highlight_strength=u(r.highlight_strength),
            shininess=u(r.shininess),
            ball_ambient=u(r.ball_ambient),
            cloth_reflection=u(r.cloth_reflection),
            face_shade=u(r.face_shade),
            floor_rgb=_jitter(rng, Look.floor_rgb, j_floor),
            shadow_offset=(float(sh * math.cos(sh_angle)), float(sh * math.sin(sh_angle))),
            shadow_strength=u(r.shadow_strength),
            shadow_softness=u(r.shadow_softness),
            exposure=u(r.exposure),
            noise_sigma=u(r.noise_sigma),
            jpeg_quality=int(rng.integers(r.jpeg_quality[0], r.jpeg_quality[1] + 1)),
            cue=cue,
            arm=arm,
            score_bar=bar,
        )
        return _with_rig(look, rng, r)  # after the rest of the room: a draw without them is the classic one

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly (tuples become lists); ``from_dict`` restores an equal Look."""
        out: dict[str, Any] = _jsonable(dataclasses.asdict(self))
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Look:
        try:
            kw = {f.name: d[f.name] for f in dataclasses.fields(cls) if f.name in d}
            unknown = set(d) - {f.name for f in dataclasses.fields(cls)}
            if unknown:
                raise ValueError(f"unknown Look fields: {sorted(unknown)}")
            if "lamps" in kw:
                kw["lamps"] = tuple(Lamp(**_tuples(lamp)) for lamp in kw["lamps"])
            if kw.get("cue") is not None:
                kw["cue"] = CueLook(**_tuples(kw["cue"]))
            if kw.get("arm") is not None:
                kw["arm"] = ArmLook(**_tuples(kw["arm"]))
            if kw.get("score_bar") is not None:
                kw["score_bar"] = ScoreBar(**_tuples(kw["score_bar"]))
            if kw.get("projector") is not None:
                kw["projector"] = Projector(**_tuples(kw["projector"]))
            if kw.get("rail_markers") is not None:
                kw["rail_markers"] = RailMarkers(**kw["rail_markers"])
            nested = ("lamps", "cue", "arm", "score_bar", "projector", "rail_markers")
            return cls(
                **_tuples({k: v for k, v in kw.items() if k not in nested}),
                **{k: kw[k] for k in nested if k in kw},
            )
        except TypeError as e:
            raise ValueError(f"not a Look record: {e}") from e


def _jsonable(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    return v


def _tuples(d: dict[str, Any]) -> dict[str, Any]:
    """Lists from JSON back to the tuples the frozen dataclasses hold (so equality survives a round trip)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}


def _jitter(rng: np.random.Generator, rgb: RGB, amount: float) -> RGB:
    """``rgb`` wandered by gaussian noise of ``amount`` levels per channel."""
    r, g, b = (int(np.clip(c + rng.normal(0, amount), 0, 255)) for c in rgb)
    return (r, g, b)


def _random_lamps(rng: np.random.Generator, r: LookRanges) -> tuple[Lamp, ...]:
    """One to a few lamps hanging in a row along the table, each a little off the row."""
    n_lamps = int(rng.integers(r.lamps[0], r.lamps[1] + 1))
    return tuple(
        Lamp(
            (
                float(0.5 + rng.normal(0, r.lamp_jitter[0])),
                float((i + 0.5) / n_lamps + rng.normal(0, r.lamp_jitter[1])),
            ),
            float(rng.uniform(*r.lamp_sigma)),
            float(rng.uniform(*r.lamp_gain)),
        )
        for i in range(n_lamps)
    )


def _random_cue(rng: np.random.Generator, r: LookRanges) -> CueLook:
    """A cue stick and a player's stroke: sizes, colours and timing of real sticks and players."""
    _, _, _, j_shaft, j_butt = r.colour_jitter
    skin = SKIN_RGB[rng.integers(len(SKIN_RGB))]
    return CueLook(
        length_mm=float(rng.uniform(1420, 1500)),
        tip_mm=float(rng.uniform(9.5, 13.0)),
        butt_mm=float(rng.uniform(28.0, 32.0)),
        elevation_deg=float(rng.uniform(4.0, 12.0)),
        shaft_rgb=_jitter(rng, CueLook.shaft_rgb, j_shaft),
        butt_rgb=_jitter(rng, CueLook.butt_rgb, j_butt),
        gap_mm=(float(rng.uniform(5, 15)), float(rng.uniform(40, 90))),
        feather_hz=float(rng.uniform(0.8, 1.8)),
        stroke_s=float(rng.uniform(0.25, 0.5)),
        follow_mm=float(rng.uniform(30, 120)),
        withdraw_s=float(rng.uniform(0.5, 1.5)),
        bridge_hand=bool(rng.random() < r.bridge_probability),
        skin_rgb=skin,
        bridge_mm=float(rng.uniform(150, 260)),
    )


def _random_arm(rng: np.random.Generator) -> ArmLook:
    """An arm reaching in over a random cushion for part of the clip."""
    return ArmLook(
        start_frac=float(rng.uniform(0.1, 0.7)),
        duration_frac=float(rng.uniform(0.1, 0.3)),
        side=SIDES[rng.integers(len(SIDES))],
        reach_uv=(float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.1, 0.9))),
        width_mm=float(rng.uniform(80, 120)),
        height_mm=float(rng.uniform(120, 400)),
        move_s=float(rng.uniform(0.2, 0.6)),
        sleeve_rgb=SLEEVE_RGB[rng.integers(len(SLEEVE_RGB))],
        skin_rgb=SKIN_RGB[rng.integers(len(SKIN_RGB))],
    )


_BAR_RGB: tuple[RGB, ...] = ((20, 30, 70), (90, 16, 20), (16, 16, 18), (10, 60, 40), (230, 230, 230))
_NAMES = ("ALPHA", "BRAVO", "CHEN", "DIAZ", "EVANS", "FORD", "GRAY", "HALL", "IVANOV", "JONES")


def _with_rig(look: Look, rng: np.random.Generator, r: LookRanges) -> Look:
    """``look`` with a projector over the table and markers on its rails, each drawn with its odds."""
    if r.projector_probability > 0 and rng.random() < r.projector_probability:
        look = dataclasses.replace(look, projector=_random_projector(rng))
    if r.rail_markers_probability > 0 and rng.random() < r.rail_markers_probability:
        markers = RailMarkers(int(rng.integers(4, 13)), float(rng.uniform(40.0, 80.0)))
        look = dataclasses.replace(look, rail_markers=markers)
    return look


# A projector's casts (RGB gains): bluish, magenta, warm, greenish; each ramps towards a milder one.
_PROJECTOR_CASTS = (
    ((0.7, 0.9, 1.25), (0.8, 0.95, 1.1)),
    ((1.2, 0.7, 1.1), (1.05, 0.8, 1.0)),
    ((1.2, 0.95, 0.7), (1.05, 1.0, 0.9)),
    ((0.8, 1.15, 0.85), (0.95, 1.05, 0.95)),
)


def _random_projector(rng: np.random.Generator) -> Projector:
    """A projector's light: one of the casts, its ramp turned any way, a hot spot somewhere over the table."""
    strong, mild = _PROJECTOR_CASTS[int(rng.integers(len(_PROJECTOR_CASTS)))]
    k = float(rng.uniform(0.5, 1.0))  # how much of the cast: 1 the full gains, 0 none

    def toward(g: tuple[float, float, float]) -> tuple[float, float, float]:
        a, b, c = (1.0 + k * (x - 1.0) for x in g)
        return (a, b, c)

    return Projector(
        toward(strong),
        toward(mild),
        float(rng.uniform(0.0, 360.0)),
        (float(rng.uniform(0.3, 0.7)), float(rng.uniform(0.3, 0.7))),
        float(rng.uniform(0.0, 0.35)),
        float(rng.uniform(0.2, 0.45)),
    )


def _random_score_bar(rng: np.random.Generator) -> ScoreBar:
    """A score bar across the bottom of the frame: its place, size, colour and the players' names."""
    width, height = float(rng.uniform(0.35, 0.75)), float(rng.uniform(0.045, 0.09))
    x0 = float(rng.uniform(0.02, 0.98 - width))
    y1 = float(rng.uniform(0.93, 0.99))
    a, b = rng.choice(len(_NAMES), size=2, replace=False)
    text = f"{_NAMES[a]} {rng.integers(0, 100)} ({rng.integers(0, 148)}) {rng.integers(0, 100)} {_NAMES[b]}"
    return ScoreBar(
        (x0, y1 - height, x0 + width, y1),
        _BAR_RGB[rng.integers(len(_BAR_RGB))],
        float(rng.uniform(0.7, 1.0)),
        text,
    )
