"""Billiard table models: exact geometry as data, in table millimetres.

Frame (docs/architecture.md): origin at the bottom-left corner of the playing area at the cushion noses,
``y`` along the long axis from the bottom (baulk / head) cushion to the top cushion, ``x`` across it to the
right. Every figure below names its source; the rules texts Arbiter follows (Russian translations of the
official rules) come first, then the governing body's, and where neither gives a figure (pocket templates,
pin spacing) the value is the common one in the trade and is marked ``assumed``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Literal

POCKET_IDS = ("bl", "br", "ml", "mr", "tl", "tr")
CUSHION_SIDES = ("bottom", "top", "left", "right")

XY = tuple[float, float]


@dataclass(frozen=True)
class Pocket:
    """One pocket. ``mouth_xy_mm`` is the midpoint of the line between its jaws on the cushion-nose lines;
    ``opening_mm`` is the distance between the jaws (what a pocket template measures)."""

    id: str
    mouth_xy_mm: XY
    opening_mm: float
    inward: XY  # unit vector from the pocket into the table
    jaw_angle_deg: float  # how far each jaw face opens outward from the pocket's axis (0: parallel jaws)

    @property
    def corner(self) -> bool:
        return self.inward[1] != 0.0


@dataclass(frozen=True)
class Line:
    """A marked line across the table at ``y_mm`` (baulk line, head string, ...)."""

    name: str
    y_mm: float


@dataclass(frozen=True)
class Arc:
    """A marked semicircle (the snooker D): centre, radius, and which side of its diameter it opens to."""

    name: str
    centre_xy_mm: XY
    radius_mm: float
    toward: Literal["bottom", "top"]


@dataclass(frozen=True)
class PinSpec:
    """A standing pin of five-pins: where it stands and its size (for rendering and knock-down contact)."""

    id: str
    xy_mm: XY
    base_diameter_mm: float
    head_diameter_mm: float
    height_mm: float


@dataclass(frozen=True)
class TableModel:
    """The geometry of one game's table. All lengths in millimetres."""

    game: str  # the id of the game the table is laid out for
    name: str
    width_mm: float  # x extent, across the table between the side cushion noses
    length_mm: float  # y extent, between the bottom and top cushion noses
    ball_diameter_mm: float
    cushion_width_mm: float
    cushion_height_mm: float  # nose height above the cloth
    pockets: tuple[Pocket, ...]
    spots: MappingProxyType[str, XY]
    lines: tuple[Line, ...] = ()
    arcs: tuple[Arc, ...] = ()
    pins: tuple[PinSpec, ...] = ()
    sources: tuple[str, ...] = field(default=(), compare=False)
    size: str = ""  # the name of this model's entry in ``sizes`` ("12ft"); "" for a table of no catalogue
    sizes: tuple[TableSize, ...] = field(default=(), compare=False)  # the sizes this game is played on

    @property
    def ball_radius_mm(self) -> float:
        return self.ball_diameter_mm / 2

    @property
    def centre_xy_mm(self) -> XY:
        return (self.width_mm / 2, self.length_mm / 2)

    def pocket(self, pocket_id: str) -> Pocket:
        for p in self.pockets:
            if p.id == pocket_id:
                return p
        raise KeyError(f"{self.game} has no pocket {pocket_id!r}; pockets: {[p.id for p in self.pockets]}")

    def line(self, name: str) -> Line:
        for ln in self.lines:
            if ln.name == name:
                return ln
        raise KeyError(f"{self.game} has no line {name!r}; lines: {[ln.name for ln in self.lines]}")

    def table_size(self, name: str) -> TableSize:
        """The catalogue entry ``name`` of this game's table sizes, or a table of its own size named by its
        playing area in millimetres, length by width (``own_size``: "1575x700"); else ValueError listing
        the catalogue."""
        for size in self.sizes:
            if size.name == name:
                return size
        own = own_size(name)
        if own is not None:
            return own
        names = ", ".join(s.name for s in self.sizes) or "none"
        raise ValueError(
            f"{self.game} is not played on a {name!r} table; sizes: {names}, or a table's own playing area "
            "in millimetres between the cushion noses, length x width (1575x700)"
        )

    def resized(self, name: str | None) -> TableModel:
        """The same game's table in another catalogue size (``sizes``): see ``scaled``. The one way from a
        size's name to its geometry: the pipeline, the engines (from the match header's ``table``) and the
        record all come here. None (a header without a size) asks for no other size: this table."""
        return self if name is None or name == self.size else scaled(self, self.table_size(name))

    def on_table(self, xy_mm: XY, margin_mm: float = 0.0) -> bool:
        """Whether a ball centre at ``xy_mm`` lies inside the playing area shrunk by ``margin_mm``."""
        x, y = xy_mm
        return margin_mm <= x <= self.width_mm - margin_mm and margin_mm <= y <= self.length_mm - margin_mm


@dataclass(frozen=True)
class TableSize:
    """One size of table a game is played on: the playing area between the cushion noses and where the
    figure comes from. Every size of a game is about 2:1, so the size is told apart by the balls: a 12 ft
    snooker table is 68 ball diameters long, a 6 ft one 34."""

    name: str  # "12ft", "match": what ``--table`` and the camera profile say
    title: str  # "12 ft": how a person says it
    length_mm: float
    width_mm: float
    source: str

    @property
    def aspect(self) -> float:
        return self.length_mm / self.width_mm


# A table of its own size (``own_size``) is one a person plays on: from a toy's playing area to the largest
# match table's, and about twice as long as wide as every billiard table is (the rules' geometry scales so).
OWN_LENGTHS_MM = (800.0, 4000.0)
OWN_ASPECTS = (1.4, 2.8)


def own_size(name: str) -> TableSize | None:
    """A table of its own size from its name, its playing area in millimetres, length by width ("1575x700",
    as ``--table`` gives it and the calibration names a table whose shape no catalogue size has); None
    where ``name`` is not of that form; ValueError where it is, but no billiard table's."""
    parts = name.lower().split("x")
    if len(parts) != 2 or not all(p.replace(".", "", 1).isdigit() for p in parts):
        return None
    length, width = float(parts[0]), float(parts[1])
    if not (OWN_LENGTHS_MM[0] <= length <= OWN_LENGTHS_MM[1]) or not (
        OWN_ASPECTS[0] <= length / max(width, 1e-9) <= OWN_ASPECTS[1]
    ):
        raise ValueError(
            f"a {name!r} table ({length:.0f} x {width:.0f} mm) is no billiard table: give the playing area's "
            f"length first, {OWN_LENGTHS_MM[0]:.0f} to {OWN_LENGTHS_MM[1]:.0f} mm, and a width that makes it "
            f"{OWN_ASPECTS[0]} to {OWN_ASPECTS[1]} times as long as wide"
        )
    title = f"{length:.0f} x {width:.0f} mm"
    return TableSize(name, title, length, width, f"its own size, {title} (measured or given)")


def own_size_name(length_mm: float, width_mm: float) -> str:
    """The name ``own_size`` reads back: whole millimetres, length by width."""
    return f"{length_mm:.0f}x{width_mm:.0f}"


# Playing areas. Snooker's smaller tables: the nominal size reduced as the 12 ft table's playing area is
# reduced from 12 x 6 ft (3569 / 3658 along, 1778 / 1829 across): makers quote nominal sizes only.
_SNOOKER_NOMINAL = "nominal {} reduced as the 12 ft table's playing area is (assumed)"
SNOOKER_SIZES = (
    TableSize("12ft", "12 ft", 3569.0, 1778.0, "WPBSA rule 1(a)"),
    TableSize("10ft", "10 ft", 2974.0, 1482.0, _SNOOKER_NOMINAL.format("10 x 5 ft")),
    TableSize("9ft", "9 ft", 2677.0, 1334.0, _SNOOKER_NOMINAL.format("9 x 4.5 ft")),
    TableSize("6ft", "6 ft", 1785.0, 889.0, _SNOOKER_NOMINAL.format("6 x 3 ft")),
)
POOL_SIZES = (
    TableSize("9ft", "9 ft", 2540.0, 1270.0, "WPA equipment specifications: 100 x 50 in"),
    TableSize("8ft", "8 ft", 2337.0, 1168.0, "WPA equipment specifications: 92 x 46 in"),
    TableSize("7ft", "7 ft", 1981.0, 991.0, "bar box 78 x 39 in (common trade size, assumed)"),
)
PYRAMID_SIZES = (
    TableSize("12ft", "12 ft", 3569.0, 1778.0, "IPC: 12 ft playing area"),
    TableSize("11ft", "11 ft", 3300.0, 1650.0, "common trade size (assumed)"),
    TableSize("10ft", "10 ft", 2946.0, 1473.0, "common trade size (assumed)"),
    TableSize("9ft", "9 ft", 2540.0, 1270.0, "common trade size (assumed)"),
)
CAROM_SIZES = (
    TableSize("match", "match", 2840.0, 1420.0, "UMB match table"),
    TableSize(
        "small", "small", 2100.0, 1050.0, "small carom table, 2.10 x 1.05 m (common trade size, assumed)"
    ),
)


def scaled(table: TableModel, size: TableSize) -> TableModel:
    """``table`` laid out on a playing area of ``size``: every marking where the rules put it on the
    smaller (or larger) table, as makers scale them, and everything sized by the ball kept.

    Spots, lines and pockets' positions scale with the playing area (along and across separately, so a
    spot on the long axis stays on it); a point within a pocket opening of a cushion keeps its distance from
    that cushion (a corner pocket's mouth sits on the diagonal half its jaw gap in). The D's radius scales
    with the width. The ball, pocket openings, cushions and pins are the game's: they are sized for its
    balls, which do not change with the table (a smaller ball set is another game)."""
    sx, sy = size.width_mm / table.width_mm, size.length_mm / table.length_mm

    def move(xy: XY, keep_within: float = 0.0) -> XY:
        out = []
        for v, span, new, s in (
            (xy[0], table.width_mm, size.width_mm, sx),
            (xy[1], table.length_mm, size.length_mm, sy),
        ):
            if v <= keep_within:
                out.append(v)
            elif span - v <= keep_within:
                out.append(new - (span - v))
            else:
                out.append(v * s)
        return (out[0], out[1])

    centre = (size.width_mm / 2, size.length_mm / 2)
    return replace(
        table,
        name=f"{table.name.split(',')[0]}, {size.title}",
        width_mm=size.width_mm,
        length_mm=size.length_mm,
        pockets=tuple(replace(p, mouth_xy_mm=move(p.mouth_xy_mm, p.opening_mm)) for p in table.pockets),
        spots=MappingProxyType({k: move(v) for k, v in table.spots.items()}),
        lines=tuple(replace(ln, y_mm=ln.y_mm * sy) for ln in table.lines),
        arcs=tuple(
            replace(a, centre_xy_mm=move(a.centre_xy_mm), radius_mm=a.radius_mm * sx) for a in table.arcs
        ),
        pins=tuple(
            replace(
                p,
                xy_mm=(
                    centre[0] + p.xy_mm[0] - table.width_mm / 2,
                    centre[1] + p.xy_mm[1] - table.length_mm / 2,
                ),
            )
            for p in table.pins
        ),
        sources=(*table.sources, f"size {size.title}: {size.source}"),
        size=size.name,
    )


# Jaw faces open outward by a few degrees on snooker and pool tables (pooltool's WPA-like defaults); Russian
# pyramid pockets are cut with straight, parallel jaws.
FLARED_JAWS = (5.3, 7.14)  # corner, middle


def _pockets(
    width: float,
    length: float,
    corner_opening: float,
    middle_opening: float,
    jaw_angles: tuple[float, float] = FLARED_JAWS,
) -> tuple[Pocket, ...]:
    c = corner_opening / (2 * math.sqrt(2))  # mouth midpoint sits on the diagonal, half the jaw gap in
    d = math.sqrt(0.5)
    return (
        Pocket("bl", (c, c), corner_opening, (d, d), jaw_angles[0]),
        Pocket("br", (width - c, c), corner_opening, (-d, d), jaw_angles[0]),
        Pocket("ml", (0.0, length / 2), middle_opening, (1.0, 0.0), jaw_angles[1]),
        Pocket("mr", (width, length / 2), middle_opening, (-1.0, 0.0), jaw_angles[1]),
        Pocket("tl", (c, length - c), corner_opening, (d, -d), jaw_angles[0]),
        Pocket("tr", (width - c, length - c), corner_opening, (-d, -d), jaw_angles[0]),
    )


def snooker_table() -> TableModel:
    width, length = 1778.0, 3569.0  # WPBSA Part 1 rule 1(a), quoted in the Russian rules text
    baulk = 737.0  # rule 1(d)
    d_radius = 292.0  # rule 1(e)
    cx = width / 2
    blue_y = length / 2
    spots = {
        "black": (cx, length - 324.0),  # rule 1(f)(i): 324 mm from the top cushion
        "pink": (cx, (blue_y + length) / 2),  # (iii): midway between the centre spot and the top cushion
        "blue": (cx, blue_y),  # (ii)
        "brown": (cx, baulk),  # (iv)
        # "viewed from the baulk end, the one on the right is the yellow spot"; the viewer stands at the
        # bottom cushion looking up the table, so right is +x.
        "yellow": (cx + d_radius, baulk),
        "green": (cx - d_radius, baulk),
    }
    return TableModel(
        game="snooker",
        name="Snooker, 12 ft (WPBSA)",
        width_mm=width,
        length_mm=length,
        ball_diameter_mm=52.5,  # rules text, section 5 p.2 and WPBSA rule 2(a)
        cushion_width_mm=50.0,
        cushion_height_mm=36.75,  # 0.7 ball diameters (WPBSA table specification)
        # Pocket openings follow WPBSA templates the text does not reproduce: assumed typical Star values.
        pockets=_pockets(width, length, corner_opening=86.0, middle_opening=95.0),
        spots=MappingProxyType(spots),
        lines=(Line("baulk", baulk),),
        arcs=(Arc("D", (cx, baulk), d_radius, "bottom"),),
        sources=(
            "the Russian rules text: WPBSA rules Part 1 rule 1 (a)-(f), rule 2(a)",
            "pocket openings: assumed (WPBSA templates, not in the text)",
        ),
        size="12ft",
        sizes=SNOOKER_SIZES,
    )


def straight_pool_table() -> TableModel:
    width, length = 1270.0, 2540.0  # WPA 9 ft table: 100 x 50 in playing surface
    cx = width / 2
    head = length / 4  # head string: a quarter of the length from the head cushion (WPA 8.)
    spots = {
        "head": (cx, head),
        "centre": (cx, length / 2),
        "foot": (cx, 3 * length / 4),  # the rack's apex ball stands here (rules text 14.1 p.4.2)
    }
    return TableModel(
        game="straight-pool",
        name="Pool, 9 ft (WPA) for 14.1 continuous",
        width_mm=width,
        length_mm=length,
        ball_diameter_mm=57.15,  # WPA equipment specifications: 2 1/4 in
        cushion_width_mm=50.8,
        cushion_height_mm=36.5,  # K-66 profile nose at 63.5% of ball height
        pockets=_pockets(
            width, length, corner_opening=116.0, middle_opening=129.0
        ),  # WPA 4.5-4.625/5-5.125 in
        spots=MappingProxyType(spots),
        lines=(Line("head_string", head), Line("foot_string", 3 * length / 4)),
        sources=(
            "WPA equipment specifications (table, balls, pockets)",
            "the Russian rules text: 14.1 continuous rules 4.2 (rack on the foot spot), 7.6 (spots table)",
        ),
        size="9ft",
        sizes=POOL_SIZES,
    )


def pyramid_table() -> TableModel:
    width, length = 1778.0, 3569.0  # 12 ft, the playing area given in the IPC rules document
    cx = width / 2
    front = length / 4
    spots = {
        "front": (cx, front),  # передняя отметка: the break is from home, behind the line through it
        "centre": (cx, length / 2),
        "back": (cx, 3 * length / 4),  # задняя отметка: the rack's apex stands here (14.1 text, p.7.3)
    }
    return TableModel(
        game="pyramid",
        name="Russian pyramid, 12 ft",
        width_mm=width,
        length_mm=length,
        ball_diameter_mm=68.0,  # IPC tournament balls
        cushion_width_mm=50.0,
        cushion_height_mm=44.0,
        # "Corner pockets only 4-5 mm wider than the ball, middle ones 14-18 mm wider" (IPC / federation).
        pockets=_pockets(width, length, corner_opening=72.5, middle_opening=84.0, jaw_angles=(0.0, 0.0)),
        spots=MappingProxyType(spots),
        lines=(Line("home", front),),
        sources=(
            "the Russian rules text: IPC Pyramid rules header (12 ft playing area 3569 x 1778 mm)",
            "IPC: balls 68 mm; pockets 4-5 mm (corners) and 14-18 mm (middles) wider than a ball",
        ),
        size="12ft",
        sizes=PYRAMID_SIZES,
    )


def five_pins_table() -> TableModel:
    width, length = (
        1420.0,
        2840.0,
    )  # UMB match carom table; the text's 710 mm = half of 1420 from a long cushion
    cx, cy = width / 2, length / 2
    pin_spacing = 63.0  # assumed: centre-to-centre along the cross, closer than one ball (61.5 mm) can pass
    spots = {
        "top": (cx, length - 100.0),  # rules text 1.1: 100 mm from the top short cushion
        "red": (cx, 3 * length / 4),  # 1.2: the centre of the top half
        "lag": (cx, 710.0),  # 1.3: 710 mm from the bottom cushion, on the lag line
        "bottom": (cx, 100.0),  # 1.4: 100 mm from the bottom cushion
        "centre": (cx, cy),
    }
    pins = tuple(
        PinSpec(pid, (cx + dx * pin_spacing, cy + dy * pin_spacing), 7.0, 11.0, 25.0)
        for pid, dx, dy in (
            ("pin:c", 0, 0),
            ("pin:n", 0, 1),
            ("pin:s", 0, -1),
            ("pin:e", 1, 0),
            ("pin:w", -1, 0),
        )
    )
    return TableModel(
        game="five-pins",
        name="Five-pins carom, match table (UMB)",
        width_mm=width,
        length_mm=length,
        ball_diameter_mm=61.5,  # UMB carom balls
        cushion_width_mm=50.0,
        cushion_height_mm=37.0,
        pockets=(),
        spots=MappingProxyType(spots),
        lines=(Line("middle", cy), Line("lag", 710.0)),
        pins=pins,
        sources=(
            "the Russian rules text: international five-pins rules p.1 (marks at 100 mm and 710 mm, "
            "red on the top half)",
            "UMB carom table 2840 x 1420 mm, balls 61.5 mm; pin spacing 63 mm and pin size: assumed",
        ),
        size="match",
        sizes=CAROM_SIZES,
    )
