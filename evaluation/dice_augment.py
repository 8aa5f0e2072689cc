"""Changes of light, colour and camera that the dice reader must not notice (numpy and OpenCV only).

Dice come in every colour, translucent, with pips of any colour; phones blur, add noise and glare, and the
oblique set's export has salt-and-pepper noise baked in. Each function takes a seeded generator so a
training run is repeatable.
"""

from __future__ import annotations

import cv2
import numpy as np


def rotate_hue(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    hsv = cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
    hsv[..., 0] = ((hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def light(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """White balance, contrast and brightness (float32 BGR 0..255 in, out)."""
    x = x * rng.uniform(0.8, 1.2, 3).astype(np.float32)
    mean = float(x.mean())
    return (x - mean) * rng.uniform(0.6, 1.4) + mean + rng.uniform(-40, 40)


def blur_and_noise(x: np.ndarray, rng: np.random.Generator, blur: float, noise: float) -> np.ndarray:
    if rng.random() < blur:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.4, 1.4))
    if rng.random() < noise:
        x = x + rng.normal(0, rng.uniform(2, 10), x.shape).astype(np.float32)
    return x


def salt_and_pepper(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    spots = rng.random(x.shape[:2])
    q = rng.uniform(0.005, 0.03)
    x[spots < q / 2] = 0
    x[spots > 1 - q / 2] = 255
    return x


def glare(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A bright soft spot, as a lamp reflected on a glossy die."""
    h, w = x.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = rng.uniform(0.08, 0.25) * min(h, w)
    spot = rng.uniform(80, 200) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
    return np.asarray(x + spot[..., None].astype(np.float32))


def frame_photometric(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A finder patch (float32 or uint8 BGR) -> float32 BGR 0..255 with its light and colours changed."""
    x = image.astype(np.float32)
    if rng.random() < 0.5:
        x = rotate_hue(x, rng).astype(np.float32)
    if rng.random() < 0.1:
        x = np.repeat(x.mean(2, keepdims=True), 3, 2)
    x = blur_and_noise(light(x, rng), rng, blur=0.25, noise=0.3)
    if rng.random() < 0.05:
        x = salt_and_pepper(x, rng)
    return np.clip(x, 0, 255)


def crop_photometric(crop: np.ndarray, rng: np.random.Generator, side: int) -> np.ndarray:
    """A die's crop (uint8 BGR) -> float32 BGR 0..255: lower resolution (a smaller die), colour, inverted
    (dark dice with light pips), light, glare, blur, noise, salt and pepper."""
    if rng.random() < 0.2:
        s = int(rng.integers(14, side))
        crop = cv2.resize(cv2.resize(crop, (s, s), interpolation=cv2.INTER_AREA), (side, side))
    if rng.random() < 0.5:
        crop = rotate_hue(crop, rng)
    if rng.random() < 0.1:
        crop = cv2.cvtColor(cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.1:
        crop = 255 - crop
    x = light(crop.astype(np.float32), rng)
    if rng.random() < 0.15:
        x = glare(x, rng)
    x = blur_and_noise(x, rng, blur=0.25, noise=0.3)
    if rng.random() < 0.1:
        x = salt_and_pepper(x, rng)
    return np.clip(x, 0, 255)
