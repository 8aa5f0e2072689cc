"""The dice reader's two networks (torch, training only; run time uses their ONNX exports).

- ``Finder``: frame in, a centre heatmap with box sizes and offsets out at stride 4 (``vision.dice_finder``).
  A small feature pyramid down to stride 64: the coarse levels see a close-up die whole (a die 200 px
  across must not look like six small dice, its pips), the stride-4 head places small dice exactly.
- ``FaceNet``: a die's 40x40 crop in, the logits of ``vision.dice.READER_CLASSES`` (faces 1..6, cocked,
  not a die) and the die's box in the crop (``vision.dice_crops.box_target``) out.

Both are plain convolution, batch norm and ReLU, so the exports run on any ONNX Runtime.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F  # noqa: N812 - torch's own spelling
from torch import nn

from vision.dice import READER_CLASSES
from vision.dice_crops import CROP
from vision.dice_finder import CHANNELS

HEAT_PRIOR_LOGIT = -4.0  # the heatmap starts near 0.018 everywhere: most cells hold no die's centre

BOX_CHANNELS = 16  # channels of the last map the face reader's box is read from


def cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Finder(nn.Module):  # type: ignore[misc, unused-ignore]  # torch is untyped without the train extra
    """(B, 3, H, W) BGR in 0..1, H and W multiples of 64 -> (B, 5, H/4, W/4): heatmap logit, log w, log h
    (input pixels), centre offset x, y (cells)."""

    def __init__(self, widths: tuple[int, ...] = (16, 24, 48, 64, 96, 128), head: int = 24) -> None:
        super().__init__()
        w = widths
        self.s4 = nn.Sequential(cbr(3, w[0], 2), cbr(w[0], w[1], 2))
        self.s8 = nn.Sequential(cbr(w[1], w[2], 2), cbr(w[2], w[2]))
        self.s16 = nn.Sequential(cbr(w[2], w[3], 2), cbr(w[3], w[3]))
        self.s32 = nn.Sequential(cbr(w[3], w[4], 2), cbr(w[4], w[4]))
        self.s64 = nn.Sequential(cbr(w[4], w[5], 2), cbr(w[5], w[5]))
        self.lateral = nn.ModuleList(nn.Conv2d(c, head, 1) for c in (w[1], w[2], w[3], w[4], w[5]))
        self.smooth = cbr(head, head)
        self.out = nn.Conv2d(head, CHANNELS, 1)
        bias = self.out.bias
        assert bias is not None  # a convolution made with its bias
        nn.init.constant_(bias, 0.0)
        with torch.no_grad():
            bias[0] = HEAT_PRIOR_LOGIT

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        c4 = self.s4(x)
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        c64 = self.s64(c32)
        levels = (c4, c8, c16, c32, c64)
        p = self.lateral[4](c64)
        for k in (3, 2, 1, 0):
            p = F.interpolate(p, scale_factor=2.0, mode="nearest") + self.lateral[k](levels[k])
        heads: torch.Tensor = self.out(self.smooth(p))
        return heads


class FaceNet(nn.Module):  # type: ignore[misc, unused-ignore]
    """(B, 3, 40, 40) BGR in 0..1 -> logits (B, 8) and box (B, 4)."""

    def __init__(self, widths: tuple[int, ...] = (16, 32, 64, 128), drop: float = 0.2) -> None:
        super().__init__()
        w = widths
        self.features = nn.Sequential(
            cbr(3, w[0]),
            nn.MaxPool2d(2),
            cbr(w[0], w[1]),
            cbr(w[1], w[1]),
            nn.MaxPool2d(2),
            cbr(w[1], w[2]),
            cbr(w[2], w[2]),
            nn.MaxPool2d(2),
            cbr(w[2], w[3]),
            cbr(w[3], w[3]),
        )
        self.drop = nn.Dropout(drop)
        self.classes = nn.Linear(w[3], len(READER_CLASSES))
        # Where the die lies needs where the features are: the box is read from the last map (5x5) squeezed
        # to a few channels, not from its average, which forgets position. Few inputs keep its gradients
        # from swamping the faces' (a linear layer on the whole map did: the faces stopped learning).
        self.box = nn.Sequential(
            nn.Conv2d(w[3], BOX_CHANNELS, 1),
            nn.ReLU(inplace=True),
            nn.Flatten(),
            nn.Linear(BOX_CHANNELS * (CROP // 8) ** 2, 4),
        )

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(x)
        return self.classes(self.drop(f.mean((2, 3)))), self.box(f)


def focal_heatmap_loss(
    logit: torch.Tensor, target: torch.Tensor, alpha: int = 2, beta: int = 4
) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss against ``target``, Gaussians with 1 at dice centres."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    pos_loss = torch.log(p) * (1 - p) ** alpha * pos
    neg_loss = torch.log(1 - p) * p**alpha * (1 - target) ** beta * (1 - pos)
    return -(pos_loss.sum() + neg_loss.sum()) / pos.sum().clamp(min=1)


def export_onnx(
    model: nn.Module,
    path: str,
    example: torch.Tensor,
    input_name: str,
    outputs: list[str],
    dynamic: dict[int, str],
) -> None:
    """``model`` as ONNX (opset 17, the TorchScript exporter: no onnxscript needed)."""
    model = model.to(memory_format=torch.contiguous_format).eval()
    torch.onnx.export(
        model,
        (example,),
        path,
        input_names=[input_name],
        output_names=outputs,
        dynamic_axes={input_name: dynamic},
        opset_version=17,
        dynamo=False,
    )
