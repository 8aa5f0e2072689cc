"""A throw clip made from real photographs: the dice reader and the throw watcher on real dice, in motion.

There is no labelled real video of dice throws here, so one is made from the held-out test photos of the
``tray-phone`` set (real throws into a dice tray, each labelled): each photo in turn is a throw of all its
dice, and then one of its dice is picked up and slid across the tray to a free place while the others stay
(a throw of one die, the rest kept). The frames are the photo itself (scaled to the clip's height on a
grey border), a short shaky, blurred cross-fade from the previous photo (the hand and the throw), and the
slide: the die's own pixels, cut out with a soft edge, moved along an eased path over the photo with the
place it left filled in from its surroundings (``cv2.inpaint``). Labels travel with the dice, so the truth
of every throw is known: which dice were thrown, which kept, and every die's face.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.dice.real import REAL_ROOT, Photo, SplitRecipe, load_set, split_set
from vision.video import VideoWriter

SET = "tray-phone"
Labelled = list[tuple[int, tuple[float, float, float, float]]]  # face, box in photo pixels


@dataclass(frozen=True)
class SlideshowRecipe:
    """``photos``: how many test photos (from the first); ``dice``: keep this many dice of each photo (those
    farthest from the rest) and fill the others' places in from their surroundings, for games that throw
    that many (None: all); ``hold_s``: still time after each throw (longer than the watcher's settle
    time); ``fade_s``: the cross-fade of a new throw; ``slide_s``: one die moved."""

    photos: int = 4
    dice: int | None = None
    fps: float = 30.0
    size: tuple[int, int] = (1280, 720)
    hold_s: float = 2.0
    fade_s: float = 0.5
    slide_s: float = 0.8
    seed: int = 0


def _placed(image: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, float, tuple[int, int]]:
    """The photo scaled to the clip's height, centred on grey; its scale and offset."""
    w, h = size
    scale = h / image.shape[0]
    photo = cv2.resize(image, (round(image.shape[1] * scale), h), interpolation=cv2.INTER_CUBIC)
    canvas = np.full((h, w, 3), 110, np.uint8)
    x0 = (w - photo.shape[1]) // 2
    canvas[:, x0 : x0 + photo.shape[1]] = photo[:, : w - x0]
    return canvas, scale, (x0, 0)


def _boxes(photo: Photo, image: np.ndarray) -> Labelled:
    h, w = image.shape[:2]
    return [(b.value, b.xyxy(w, h)) for b in photo.boxes]


def _keep(image: np.ndarray, boxes: Labelled, n: int | None) -> Labelled:
    """The ``n`` dice farthest from the others kept; the rest painted out of ``image`` (in place)."""
    if n is None or n >= len(boxes):
        return boxes
    arr = np.array([b for _, b in boxes])
    centres = (arr[:, :2] + arr[:, 2:]) / 2
    gaps = np.hypot(*(centres[:, None] - centres[None]).transpose(2, 0, 1)) + np.eye(len(arr)) * 1e9
    keep = sorted(np.argsort(-gaps.min(1))[:n].tolist())
    hole = np.zeros(image.shape[:2], np.uint8)
    for k, (x0, y0, x1, y1) in enumerate(arr):
        if k not in keep:
            pad = 0.2 * max(x1 - x0, y1 - y0)
            cv2.rectangle(hole, (int(x0 - pad), int(y0 - pad)), (int(x1 + pad), int(y1 + pad)), 255, -1)
    for k in keep:
        x0, y0, x1, y1 = arr[k]
        cv2.rectangle(hole, (int(x0), int(y0)), (int(x1), int(y1)), 0, -1)
    image[:] = cv2.inpaint(image, hole, 7, cv2.INPAINT_TELEA)
    return [boxes[k] for k in keep]


def _free_spot(
    boxes: list[tuple[float, float, float, float]],
    moved: int,
    rng: np.random.Generator,
    floor: tuple[float, float, float, float],
    size: tuple[int, int],
) -> np.ndarray:
    """A place for die ``moved`` among the others: a die's side inside ``floor`` (the box round every die
    the photo showed, before any was painted out: where dice lie, off the tray's rim and walls, where the
    cut-out die's rim of floor would show; at least four die sides across, so that a lone die has
    somewhere to go) and inside the photo of ``size`` (width, height), clear of every other die by a die's
    side, as far from where it was as such a place allows."""
    arr = np.array(boxes)
    side = float(np.max(arr[moved, 2:] - arr[moved, :2]))
    centre, extent = (np.add(floor[:2], floor[2:])) / 2, np.subtract(floor[2:], floor[:2])
    half = np.maximum(extent / 2 - side, 1.5 * side)  # how far the die's centre may go from the middle
    edge_lo, edge_hi = np.full(2, side / 2), np.asarray(size, np.float64) - side / 2
    lo, hi = np.clip(centre - half, edge_lo, edge_hi), np.clip(centre + half, edge_lo, edge_hi)
    start = (arr[moved, :2] + arr[moved, 2:]) / 2
    others = np.delete((arr[:, :2] + arr[:, 2:]) / 2, moved, axis=0)
    best, best_d = start, -1.0
    for _ in range(400):
        p = rng.uniform(lo, np.maximum(hi, lo + 1))
        if len(others) and np.hypot(*(others - p).T).min() < 2.0 * side:
            continue
        d = float(np.hypot(*(p - start)))
        if d > best_d:
            best, best_d = p, d
    return np.asarray(best)


def _sprite(image: np.ndarray, box: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """The die's pixels a little beyond its box, a soft-edged mask, and their top-left corner."""
    x0, y0, x1, y1 = box
    pad = 0.12 * max(x1 - x0, y1 - y0)
    h, w = image.shape[:2]
    a0, b0 = max(int(x0 - pad), 0), max(int(y0 - pad), 0)
    a1, b1 = min(int(x1 + pad) + 1, w), min(int(y1 + pad) + 1, h)
    crop = image[b0:b1, a0:a1].astype(np.float32)
    mask: np.ndarray = np.zeros(crop.shape[:2], np.float32)
    cv2.rectangle(mask, (int(x0 - a0), int(y0 - b0)), (int(x1 - a0), int(y1 - b0)), 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, pad / 2))
    return crop, mask, (a0, b0)


def _paste(frame: np.ndarray, crop: np.ndarray, mask: np.ndarray, at: tuple[int, int]) -> np.ndarray:
    out = frame.astype(np.float32)
    x, y = at
    h, w = mask.shape
    fh, fw = out.shape[:2]
    cx0, cy0, cx1, cy1 = max(x, 0), max(y, 0), min(x + w, fw), min(y + h, fh)
    if cx1 <= cx0 or cy1 <= cy0:
        return frame
    m = mask[cy0 - y : cy1 - y, cx0 - x : cx1 - x, None]
    region = out[cy0:cy1, cx0:cx1]
    out[cy0:cy1, cx0:cx1] = region * (1 - m) + crop[cy0 - y : cy1 - y, cx0 - x : cx1 - x] * m
    return np.clip(out, 0, 255).astype(np.uint8)


class _Clip:
    """Frames and truth as they are written."""

    def __init__(self, recipe: SlideshowRecipe, writer: VideoWriter) -> None:
        self.recipe, self.writer = recipe, writer
        self.frames = 0
        self.throws: list[dict[str, Any]] = []
        self.rng = np.random.default_rng(recipe.seed)

    def hold(self, frame: np.ndarray) -> None:
        for _ in range(round(self.recipe.hold_s * self.recipe.fps)):
            self.write(frame)

    def write(self, frame: np.ndarray) -> None:
        self.writer.write(frame)
        self.frames += 1

    def fade(self, before: np.ndarray, after: np.ndarray) -> None:
        """A new throw: the picture shakes and blurs from the last photo to the next."""
        n = max(2, round(self.recipe.fade_s * self.recipe.fps))
        for k in range(n):
            a = (k + 1) / n
            mixed = cv2.addWeighted(before, 1 - a, after, a, 0)
            shift = self.rng.normal(0, 6 * (1 - abs(2 * a - 1)), 2)
            m = np.array([[1, 0, shift[0]], [0, 1, shift[1]]], np.float32)
            mixed = cv2.warpAffine(
                mixed, m, (mixed.shape[1], mixed.shape[0]), borderMode=cv2.BORDER_REPLICATE
            )
            self.write(cv2.GaussianBlur(mixed, (0, 0), 0.5 + 3 * (1 - abs(2 * a - 1))))

    def throw(self, values: list[int], thrown: list[int], where: list[tuple[float, float]]) -> None:
        self.throws.append(
            {
                "still_from_t": round(self.frames / self.recipe.fps, 3),
                "values": values,
                "thrown": thrown,
                "centres_px": [[round(x, 1), round(y, 1)] for x, y in where],
            }
        )


def _slide(
    clip: _Clip, photo_img: np.ndarray, boxes: Labelled, floor: tuple[float, float, float, float]
) -> int:
    """One die of the photo slid to a free place on ``floor`` (``_free_spot``); returns its index.
    ``photo_img`` and ``boxes`` are changed to show it there."""
    rects = [b for _, b in boxes]
    moved = int(clip.rng.integers(len(rects)))
    dest = _free_spot(rects, moved, clip.rng, floor, (photo_img.shape[1], photo_img.shape[0]))
    crop, mask, (a0, b0) = _sprite(photo_img, rects[moved])
    hole = np.zeros(photo_img.shape[:2], np.uint8)
    x0, y0, x1, y1 = rects[moved]
    pad = 0.15 * max(x1 - x0, y1 - y0)
    cv2.rectangle(hole, (int(x0 - pad), int(y0 - pad)), (int(x1 + pad), int(y1 + pad)), 255, -1)
    empty = cv2.inpaint(photo_img, hole, 5, cv2.INPAINT_TELEA)
    start = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    n = max(2, round(clip.recipe.slide_s * clip.recipe.fps))
    for k in range(1, n + 1):
        s = 1 - (1 - k / n) ** 2  # slows to a stop
        c = start + (dest - start) * s
        at = (round(a0 + c[0] - start[0]), round(b0 + c[1] - start[1]))
        clip.write(_placed(_paste(empty, crop, mask, at), clip.recipe.size)[0])
    photo_img[:] = _paste(empty, crop, mask, at)
    shift = dest - start
    boxes[moved] = (boxes[moved][0], (x0 + shift[0], y0 + shift[1], x1 + shift[0], y1 + shift[1]))
    return moved


def slideshow_clip(
    out: Path, recipe: SlideshowRecipe | None = None, root: Path = REAL_ROOT, split: SplitRecipe | None = None
) -> Path:
    """``out/video.mp4`` and ``out/truth.json`` of the slideshow (see the module's text); returns the
    video's path."""
    recipe = recipe or SlideshowRecipe()
    photos = split_set(load_set(SET, root), split or SplitRecipe())["test"][: recipe.photos]
    out.mkdir(parents=True, exist_ok=True)
    w, h = recipe.size
    blank = np.full((h, w, 3), 110, np.uint8)
    with VideoWriter(out / "video.mp4", w, h, recipe.fps, crf=18) as writer:
        clip = _Clip(recipe, writer)
        clip.hold(blank)
        last = blank
        for photo in photos:
            image = cv2.imread(str(photo.image), cv2.IMREAD_COLOR)
            if image is None:
                raise FileNotFoundError(f"{photo.image}: not found or not an image")
            every = _boxes(photo, image)
            floor = (*np.min([b[:2] for _, b in every], 0), *np.max([b[2:] for _, b in every], 0))
            boxes = _keep(image, every, recipe.dice)
            canvas, scale, offset = _placed(image, recipe.size)
            clip.fade(last, canvas)
            centres = [((b[0] + b[2]) / 2 * scale + offset[0], (b[1] + b[3]) / 2 * scale) for _, b in boxes]
            clip.throw([v for v, _ in boxes], list(range(len(boxes))), centres)
            clip.hold(canvas)
            moved = _slide(clip, image, boxes, floor)
            centres = [((b[0] + b[2]) / 2 * scale + offset[0], (b[1] + b[3]) / 2 * scale) for _, b in boxes]
            clip.throw([v for v, _ in boxes], [moved], centres)
            last = _placed(image, recipe.size)[0]
            clip.hold(last)
    truth = {
        "how": __doc__,
        "set": SET,
        "photos": [p.stem for p in photos],
        "fps": recipe.fps,
        "throws": clip.throws,
    }
    (out / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
    return out / "video.mp4"
