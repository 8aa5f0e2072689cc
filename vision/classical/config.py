"""Every threshold of the classical detector, in one frozen value checked when it is built."""

from __future__ import annotations

from dataclasses import dataclass, field

from vision.cloth import ClothConfig

from .streaks import StreakConfig


@dataclass(frozen=True)
class ClassicalConfig:
    """Every threshold of the classical detector. Distances are in ball radii and colours relative to
    the local cloth, so one config serves any resolution, cloth and exposure; each comment says what the
    knob trades off."""

    cloth: ClothConfig = field(default_factory=ClothConfig)
    # Ball radius at the coarse level, where foreground blobs are found: smaller is faster but loses balls
    # that barely differ from the cloth (they shrink below a pixel of contrast).
    coarse_radius_px: float = 3.0
    # Ball radius at the fine level, where lone balls are fitted and colours read: larger places centres
    # more precisely, at a cost growing with its square.
    fine_radius_px: float = 6.0
    # Ball radius (at most) where clusters of touching balls are split: the seams between them are about a
    # pixel wide, so a finer level separates a rack better; clusters at rest are not refitted, so the cost
    # falls on frames where a cluster moves.
    cluster_radius_px: float = 10.0
    # How far past the table mask (radii) foreground is examined: balls near the cushions stick out of the
    # playing area in the image by perspective. Larger brings more of the cushions and pockets in.
    mask_margin: float = 1.0
    # How far inside the table mask's edge (radii) a ball centre must lie; negative: how far outside it may.
    # Perspective puts the centre of a ball touching a far cushion up to ~0.3 radii outside a mask drawn at
    # cloth level (inside one drawn at ball-centre height); pocket mouths are told apart by their lack of
    # a glint, not by the mask.
    centre_inset: float = -0.3
    # Smallest blob worth a look, as a share of a ball's area: chalk spots, pin heads and noise are smaller.
    min_blob_area: float = 0.25
    # Radius (radii) of the opening that clears thin foreground from clusters before circles are sought:
    # above half the cue's width relative to a ball (~0.55), below what is left of a ball whose shaded
    # side blends with the cloth.
    opening: float = 0.6
    # Share of the disk that must be foreground, for a lone ball and for a ball in a cluster. A lone blob
    # already has a ball's size, so the bar is low (a white ball's shaded side can match a grey cloth);
    # in a cluster it must be higher, as hands and sleeves are foreground everywhere.
    min_coverage: float = 0.4
    min_cluster_coverage: float = 0.7
    # For a glint seed, the share of the disk that is foreground or darker than the cloth (the shaded side
    # and shadow of a ball in the cloth's colour); pins' heads and chalk spots have < 0.25, a blue ball on a
    # blue cloth (its lit body the cloth's colour, only its rim darker) 0.455.
    min_seed_coverage: float = 0.4
    # Radial edge vote in a cluster (compressed edge strength around the circle, relative to a step as
    # high as the cloth is bright): balls in a rack score >= 0.35, the rims of hands and sleeves ~0.25.
    min_edge: float = 0.3
    # The outline must show all round: the edge vote in the second weakest eighth of the circle (one
    # eighth may be lost to a touching ball of the same colour). Balls score >= 0.2; a hand crossed by
    # the cue, whose edges come from the stick, ~0.15.
    min_outline: float = 0.2
    # A glint seed (a ball of the cloth's own colour) shows its outline only where its shaded side and shadow
    # meet the cloth; its lit side is the cloth's colour. With a glint this strong (cloth brightnesses:
    # such balls on the renders 1.17-3.1, the glints of seeds that are no ball 0.06-0.5 there; on the real
    # photos a dark sleeve's bend with two specks of light, 1.01) a weaker outline is enough: a green on a
    # green cloth scores 0.12-0.2 there.
    min_seed_glint: float = 1.2
    min_seed_outline: float = 0.1
    # A lone circle with such a glint over a disk darker than the cloth is a ball of the cloth's own colour
    # whether it was found from its glint or as a blob, and its rim is weak all round: its lit side is the
    # cloth's colour, and a rolling ball blurs the rest. An edge and a circle this strong are enough there (a
    # red at rest on a red cloth at a broadcast's far end: edge 0.28, outline 0.16, coherence 0.83; a green
    # rolling slowly on a green cloth: edge 0.26-0.30, coherence 0.64-0.69), where a seed that is no ball
    # seldom has a glint so strong (see above). Its disk is a shade darker than the cloth (light -0.26 to
    # -0.63 there), not black: a dark sleeve by the cue's shine scores -1.2, and edge, outline and coherence
    # as a ball. And its rim is weak: a circle with a strong edge that is not round is the edges of something
    # else (a hand at a sleeve's end with the cue's tip shining: edge 0.43, coherence 0.66, light -0.21).
    min_tinted_edge: float = 0.25
    max_tinted_edge: float = 0.35
    min_tinted_coherence: float = 0.62
    min_tinted_light: float = -0.9
    # A ball in a pocket's jaws or against its mouth (its centre within ``jaw_reach`` radii of the mouth's
    # middle) shows its outline only where it meets the cloth: against the mouth's black its rim is faint.
    # With a glint as strong as a seed's and one colour over its face (``min_cluster_coherence``) a weaker
    # edge and outline are enough: a brown at rest half over a corner's mouth under a projector scores edge
    # 0.26, outline 0.19 (0.57 radii from the middle); a red touching a corner's mouth from the cloth, 1.75
    # radii from it, is 2.16 radii away in a wide lens's picture, where balls at the corners look bigger.
    min_jaw_edge: float = 0.2
    min_jaw_outline: float = 0.1
    jaw_reach: float = 2.2
    # Closest two centres may be (radii): touching balls are 2 apart; lower splits one ball into two.
    min_separation: float = 1.6
    # Every ball is shiny: its brightest pixel must stand this far (cloth brightnesses) above its median.
    # Pocket mouths, sleeves, hands and shadows stay below ~0.25; the dullest balls reach ~0.5.
    min_glint: float = 0.35
    # ... or this share of the room its face leaves below the sensor's white, where that is less: a ball lit
    # near full scale (a bright exposure, a pale cloth) has its highlight clipped to its body's level. Only
    # for a face this much coloured: clipped yellows in a rack are all colour, a score bar's white letters
    # (as clipped, and as round as a ball in a cluster: coherence 0.82-0.87) a fifth.
    glint_room: float = 0.5
    glint_room_colour: float = 0.5
    # The outline must be a circle: the share of the edge energy on the ring that runs along it
    # (``coherence``: 1 for a circle, 0.5 for edges in every direction). Lone balls score >= 0.72 even
    # green on green; pocket mouths, markers and sleeves that pass the other tests 0.45-0.7. In a cluster
    # the bar is higher (pocket nets, letters of a score bar and the rims of hands score up to 0.78 there,
    # balls >= 0.8), except for a ball packed between two found balls, whose rim is seams with them. A
    # line, a cue or a spot's markings across a ball's rim bring it to 0.71-0.78 there, as a sleeve crossed
    # by the cue, whose ferrule shines as a ball's glint (1.2-1.56, coherence 0.75-0.78), so the bar stays.
    min_coherence: float = 0.7
    min_cluster_coherence: float = 0.8
    # A lone ball without a glint (diffuse light, or a white ball whose highlight is clipped to its body's
    # level) is kept when its outline is this circular and this strong all round: on the real photos and
    # renders, the dull things that are as round (a marker's dot, the rail's edge) show no outline there
    # (<= 0.13), and balls without a glint >= 0.22.
    plain_coherence: float = 0.8
    plain_outline: float = 0.2
    # The same in a cluster, where a circle's outline may be a hand's, a sleeve's or a score bar's letter
    # (an "O" or a "B": coherence 0.91-0.92, outline 0.82-0.93), for a circle touching a ball kept: a white
    # against a red under a pink light, its highlight clipped to its body's level, scores 0.99 and 0.98.
    plain_cluster_coherence: float = 0.9
    plain_cluster_outline: float = 0.5
    # A lone circle outlined all round as only a ball is (this circular, this strong in its second weakest
    # eighth) needs only this share of its disk foreground: a white ball on a pale grey-blue cloth under a
    # projector, 1.3 times the cloth's brightness, is cloth over most of its disk (coverage 0.29-0.38) while
    # its outline scores coherence 0.97-0.98 and 0.5; markers, mouths and the D's arc are no circle as round.
    outlined_coherence: float = 0.95
    outlined_outline: float = 0.4
    min_outlined_coverage: float = 0.2
    # Colour is read inside this share of the radius: the rim picks up the cloth's reflection and shadow.
    colour_radius: float = 0.85
    # The brightest share of a ball's pixels is its specular highlight and is left out of its colour.
    highlight_share: float = 0.1
    # Pixel categories, brightness relative to the cloth: darker than ``dark`` and greyer than
    # ``dark_saturation`` is black (ball body, ink); brighter than ``white_luma`` and greyer than
    # ``white_saturation`` is white (cue ball, stripes' caps, number discs); the rest, if saturated, is
    # colour. Saturation is (max - min) / max of the channels. A pixel darker than ``dark`` whose colour is
    # fainter than ``dark_chroma`` ((max - min) of the channels) is black however saturated: a black ball
    # under a projector's tinted light shows the tint faint but saturated, and read as colour it made the
    # black a brown, the brown a red and a shaded green the black (a chain of three misnamed under the
    # assignment's one ball of each colour; the real snooker photos under ``real_balls.PROJECTED``).
    dark: float = 0.45
    dark_saturation: float = 0.6
    dark_chroma: float = 0.18
    white_luma: float = 0.6
    white_saturation: float = 0.3
    # Blobs whose pixels have not changed since the last frame keep last frame's circles: balls at rest,
    # most of a match, then cost almost nothing. Off refits every blob in every frame (the worst case).
    reuse_still: bool = True
    # Colour distance at which confidence halves: smaller makes the confidence stricter about colour.
    colour_scale: float = 0.5
    # Balls in their own motion blur (``streaks``): found where they are, not named.
    streaks: StreakConfig = field(default_factory=StreakConfig)

    def __post_init__(self) -> None:
        if not 1.5 <= self.coarse_radius_px <= self.fine_radius_px <= self.cluster_radius_px:
            raise ValueError(
                "need 1.5 <= coarse_radius_px <= fine_radius_px <= cluster_radius_px (got "
                f"{self.coarse_radius_px}, {self.fine_radius_px}, {self.cluster_radius_px})"
            )
        for name in (
            "min_coverage",
            "min_cluster_coverage",
            "min_seed_coverage",
            "min_blob_area",
            "colour_radius",
            "highlight_share",
            "dark",
            "dark_saturation",
            "white_saturation",
            "opening",
            "min_coherence",
            "min_cluster_coherence",
            "plain_coherence",
            "plain_cluster_coherence",
            "outlined_coherence",
            "min_outlined_coverage",
            "min_tinted_coherence",
        ):
            v = getattr(self, name)
            if not 0.0 < v < 1.0:
                raise ValueError(f"ClassicalConfig.{name} must be in (0, 1), got {v}")
        if self.mask_margin < 0:
            raise ValueError(f"ClassicalConfig.mask_margin must be >= 0, got {self.mask_margin}")
        if not -2.0 <= self.centre_inset <= 1.0:
            raise ValueError(
                f"ClassicalConfig.centre_inset must be in [-2, 1] radii, got {self.centre_inset}"
            )
        if not 0.5 <= self.min_separation <= 2.0:
            raise ValueError(
                f"ClassicalConfig.min_separation must be in [0.5, 2] radii, got {self.min_separation}"
            )
        if (
            self.min_edge < 0
            or self.min_outline < 0
            or self.min_seed_outline < 0
            or self.min_seed_glint < 0
            or not 0 <= self.min_tinted_edge <= self.max_tinted_edge
            or self.min_jaw_edge < 0
            or self.min_jaw_outline < 0
            or self.jaw_reach < 0
            or self.plain_outline < 0
            or self.plain_cluster_outline < 0
            or self.min_glint < 0
            or not (self.glint_room >= 0 and 0 <= self.glint_room_colour <= 1)
            or self.dark_chroma < 0
            or self.white_luma <= 0
            or self.colour_scale <= 0
        ):
            raise ValueError(
                "ClassicalConfig.min_edge, min_outline, plain_outline, min_glint, glint_room, dark_chroma "
                "and the jaws' thresholds must be >= 0, min_tinted_edge between 0 and max_tinted_edge, "
                "glint_room_colour between 0 and 1; white_luma, colour_scale > 0"
            )
