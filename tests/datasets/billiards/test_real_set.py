"""The real test set and the second-look renders load with their labels, inside their images, with a
licence beside every photo."""

from __future__ import annotations

from dataclasses import replace

import pytest

from arbiter.games import billiards
from datasets.billiards.real import HERE, photos, with_corners
from datasets.billiards.second_look import renders

ALL = photos() + renders()


def test_the_real_set_is_what_its_readme_says() -> None:
    assert len(photos()) == 8 and len(with_corners(photos())) == 6
    assert sum(len(p.balls) for p in photos()) == 76
    assert len(renders()) == 12 and all(not r.real for r in renders())


@pytest.mark.parametrize("image", ALL, ids=[i.name for i in ALL])
def test_every_label_names_a_game_and_a_photo_s_labels_lie_in_it(image) -> None:
    """(A render's corners may lie outside the frame: two broadcast views are cut by it.)"""
    pixels = image.load()
    h, w = pixels.shape[:2]
    billiards(image.game)  # a game Arbiter referees
    assert image.corners_px is None or set(image.corners_px) == {"bl", "br", "tr", "tl"}
    if image.real:
        assert (w, h) == tuple(image.truth["image_size"])
        for x, y in list((image.corners_px or {}).values()) + [b.xy_px for b in image.balls]:
            assert -0.02 * w <= x <= 1.02 * w and -0.02 * h <= y <= 1.02 * h


@pytest.mark.parametrize("image", photos(), ids=[p.name for p in photos()])
def test_every_photo_has_its_licence_beside_it(image) -> None:
    licence = HERE / image.truth["licence"].split(", ")[1]
    assert licence.is_file() and "MIT" in licence.read_text()


def test_an_image_that_cannot_be_read_says_which(tmp_path) -> None:
    broken = replace(photos()[0], image_path=tmp_path / "missing.jpg")
    with pytest.raises(OSError, match=r"missing\.jpg"):
        broken.load()
