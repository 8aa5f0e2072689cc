"""Fake real dice sets for the tests: a webcam photo of white dice with their pip-cluster boxes, and a data
root holding every real set's layout in miniature."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from datasets.dice.real import Box


def webcam_photo(size=(480, 640), dice=((200, 240, 5), (420, 200, 1)), side=70):
    """A white die (black pips) on light wood, seen from above, and its pip-cluster boxes."""
    h, w = size
    img = np.full((h, w, 3), (150, 190, 215), np.uint8)  # BGR light wood
    img = cv2.add(img, np.random.default_rng(0).integers(0, 12, (h, w, 3), dtype=np.uint8))
    boxes = []
    for cx, cy, value in dice:
        cv2.rectangle(
            img, (cx - side // 2, cy - side // 2), (cx + side // 2, cy + side // 2), (235, 240, 242), -1
        )
        spread = 18 if value > 1 else 0
        pips = [(0, 0)] if value == 1 else [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]
        for dx, dy in pips:
            cv2.circle(img, (cx + dx * spread, cy + dy * spread), 6, (20, 20, 20), -1)
        half = spread + 7
        boxes.append(Box(value, cx / w, cy / h, 2 * half / w, 2 * half / h))
    return img, boxes


def fake_root(root: Path) -> None:
    """Every set's layout in miniature: 12 webcam photos, 6 phone sources x 3 copies, 2 faces each, and 10
    tray photos of 3 dice."""
    top = root / "topdown-webcam" / "train"
    top.mkdir(parents=True)
    (top / "classes.txt").write_text("One\nTwo\nThree\nFour\nFive\nSix\n")
    for k in range(12):
        value = 1 if k < 6 else 5
        img, boxes = webcam_photo(dice=((200, 240, value),))
        stem = ("dice" if value == 1 else "five") + f"_{k}"
        cv2.imwrite(str(top / f"{stem}.jpg"), img)
        (top / f"{stem}.txt").write_text("".join(b.line() + "\n" for b in boxes))
    (top / "five_1.txt").write_text("4 0.3125 0.5 0.078125 0.104167\n0 0.725000 0.434375 0.106250 0.131250\n")
    cv2.imwrite(str(top / "five_1.jpg"), webcam_photo(dice=((200, 240, 5),))[0])
    phone = root / "oblique-phone" / "train"
    (phone / "images").mkdir(parents=True)
    (phone / "labels").mkdir(parents=True)
    for s in range(6):
        for copy in range(3):
            stem = f"dice_{s}_jpg.rf.{copy:032x}"
            cv2.imwrite(str(phone / "images" / f"{stem}.jpg"), np.full((64, 64, 3), 90, np.uint8))
            (phone / "labels" / f"{stem}.txt").write_text(f"{s % 2} 0.5 0.5 0.3 0.3\n")
    (phone / "labels" / "dice_99_jpg.rf.0.txt").write_text("2 0.5 0.5 0.3 0.3\n")  # no image
    tray = root / "tray-phone" / "train"
    (tray / "images").mkdir(parents=True)
    (tray / "labels").mkdir(parents=True)
    for k in range(10):
        stem = f"IMG_2019120{k}"
        cv2.imwrite(str(tray / "images" / f"{stem}.jpg"), np.full((64, 64, 3), 200, np.uint8))
        (tray / "labels" / f"{stem}.txt").write_text(
            "".join(f"{(k + d) % 6} 0.{2 + 2 * d} 0.5 0.1 0.1\n" for d in range(3))
        )
