"""A classical ball detector: cloth model, circles of the known ball size, identity by colour.

It is the baseline a trained detector must beat and the fallback when no weights are present, so it must
run at frame rate on a small CPU. Each frame is reduced by halvings to a coarse level (ball radius ~3 px)
where the cloth model (``vision.cloth``) marks foreground; each foreground blob is then looked at in its
own small window at a finer level:

- blobs of one ball's size, and *seeds* (a glint too small for a ball, over a disk darker than the cloth:
  a ball of the cloth's own colour, green on green), are fitted all at once, vectorised: a mean shift of
  the foreground centroid, then the centre with the best *radial-edge* vote nearby (a one-radius Hough
  transform over the colour structure tensor, sampled on a ring);
- bigger blobs (touching balls, a rack, a ball against the cue, a hand) are searched for circles by two
  votes that complement each other: *coverage*, the share of a disk that is foreground (it locates balls
  but is flat inside a rack), and the radial-edge vote (every ball keeps its outline and the shading of
  its rim, even inside a rack). Edge strength is compressed (square root) so that the faint seams between
  touching balls count next to the highlights' sharp rims; an opening first erases what is thinner than a
  ball (the cue, chalk lines). Blobs of rack size are searched at a finer level, where the seams show.

A circle is kept when it is covered, outlined all round (or packed between two kept balls, as inside a
rack), round (``coherence``: the edge energy on its rim runs along the circle, which pocket nets, printed
markers, score-bar letters and sleeves do not) and shiny: every ball shows a glint above its body colour,
which pocket mouths, sleeves, hands and shadows do not; a lone ball without one (a white whose highlight
clips, a ball under diffuse light) is kept on its round outline alone, and so is a cluster's circle with no
other beside it that is as round as only a ball is (a white whose blob took in a pool of light round it).
A hollow circle, bare cloth inside a brighter band, is a ring of light a projector drew, no ball (``rings``).
The first frame with a few balls checks their size against the calibration's (their fitted radii, and their
outlines where those are bigger) and rebuilds the detector at theirs when it is off. Blobs whose pixels have
not changed since the last frame keep their circles, so balls at rest, most of a match, cost almost nothing.

Identity is read from the pixels inside each circle, measured against the cloth brightness next to it
(both are lit by the same lamp) and, where the game has a white ball, through the white balance the
whitest ball gives (``balance``): the shares of dark, white and coloured pixels (black ball, cue ball, pool
stripes), the hue and strength of the most saturated ones, and the brightness. Each frame's balls are then
assigned to the game's classes by a Hungarian assignment that respects how many balls share each look
(fifteen reds, one of each pool ball), again relative to the frame's lighting as the assignment before
shows it (how much brighter, paler and turned in hue the balls are than their classes, a hue expected as the
frame's balls of near hues show it), from a typical light and from lights turned a little either way, the
names and light that fit best kept; which settles look-alikes such as pool 3 and 7, snooker's brown and red
or an orange stripe and a yellow one by comparison rather than by absolute colour.

The package, by stage: ``config`` (every threshold), ``levels`` (the pyramid, the table's geometry, one
frame as the fits see it), ``kernels`` (the array primitives), ``blobs`` (candidate finding, reuse of still
blobs), ``isolated`` and ``cluster`` (the circle fits), ``coherence`` (how round an outline is),
``balance`` (white balance from the balls), ``colour`` (what a circle's pixels say: shares, hue, strength,
print, glint and the room the sensor's white leaves it), ``identity`` (naming over the game's ball set),
``lighting`` (the frame's light as the named balls show it), ``rings`` (a ring of light is no ball),
``colour_memo`` (a still circle's colour kept from the frame before), ``detector`` (the class that composes
them).
"""

from __future__ import annotations

from .config import ClassicalConfig
from .detector import MIN_BALL_RADIUS_PX, ClassicalDetector

__all__ = ["MIN_BALL_RADIUS_PX", "ClassicalConfig", "ClassicalDetector"]
