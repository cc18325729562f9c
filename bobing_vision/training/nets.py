"""The two torch networks behind models/*.onnx: a die locator and a pip reader (torch only here).

Both take float BGR 0..255 in NCHW and normalise inside, so the runtime only converts and transposes.
Depthwise-separable blocks keep the locator near a few tens of MFLOPs at 256x320.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F

READER_CLASSES = 8  # faces 1..6, "a die but its face can't be read", "not a die"
PIP_EVIDENCE = 32  # channels of ReaderNet's view of its own pip heat (`pip_evidence`)


def conv_bn(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class SepBlock(nn.Module):
    """Depthwise 3x3 + pointwise 1x1, with a residual when the shape allows it."""

    def __init__(self, cin: int, cout: int, stride: int = 1) -> None:
        super().__init__()
        self.dw = nn.Sequential(nn.Conv2d(cin, cin, 3, stride, 1, groups=cin, bias=False), nn.BatchNorm2d(cin))
        self.pw = nn.Sequential(nn.Conv2d(cin, cout, 1, bias=False), nn.BatchNorm2d(cout))
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(F.relu(self.dw(x)))
        return F.relu(y + x if self.residual else y)


class MixStyle(nn.Module):
    """Training only: with probability `p`, each crop's feature statistics (per channel mean and spread)
    are mixed with another crop's of the batch (MixStyle, Zhou et al. 2021), so the layers after it see
    the dice of one camera in the look of another. Identity in eval mode: the exported graph is unchanged."""

    def __init__(self, p: float, alpha: float = 0.1, eps: float = 1e-6) -> None:
        super().__init__()
        self.p, self.eps = p, eps
        self.beta = torch.distributions.Beta(alpha, alpha)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not self.training or self.p <= 0 or len(x) < 2 or float(torch.rand(())) >= self.p:
            return x
        mean = x.mean(dim=(2, 3), keepdim=True).detach()
        spread = (x.var(dim=(2, 3), keepdim=True) + self.eps).sqrt().detach()
        mix = self.beta.sample((len(x), 1, 1, 1))
        other = torch.randperm(len(x))
        return ((x - mean) / spread * (mix * spread + (1 - mix) * spread[other])
                + mix * mean + (1 - mix) * mean[other])


def set_bias(conv: nn.Conv2d, values: list[float]) -> None:
    bias = conv.bias
    assert bias is not None
    with torch.no_grad():
        bias.copy_(torch.tensor(values))


def normalise(x: torch.Tensor) -> torch.Tensor:
    return (x - 127.5) * (1.0 / 64.0)


# In 0..255 units: a flat crop's sensor noise (about 2) is not stretched into pips.
CONTRAST_FLOOR = 4.0


def standardise(x: torch.Tensor) -> torch.Tensor:
    """Each crop less its face's mean colour, over its face's contrast (both from the crop's middle
    half, where the top face lies): faint pips (grey on white, green on green) stand out as much as
    black on white, and a light's colour cast is gone. One spread for all three channels keeps hue."""
    side = x.shape[-1]
    middle = x[:, :, side // 4:side - side // 4, side // 4:side - side // 4]
    mean = middle.mean(dim=(2, 3), keepdim=True)
    spread = (middle - mean).pow(2).mean(dim=(1, 2, 3), keepdim=True).sqrt()
    return (x - mean) / (spread + CONTRAST_FLOOR)


class LocatorNet(nn.Module):
    """Frame -> (N, 4, H/4, W/4): centre heat (sigmoid), x/y offset in cells, log face size in pixels.

    A small U shape: strides 2..16 for context (a die up to ~120 input pixels), fused back at stride 4.
    """

    def __init__(self, width: int = 24) -> None:
        super().__init__()
        w = width
        self.stem = nn.Sequential(conv_bn(3, 16, 2), SepBlock(16, w, 2))  # stride 4
        self.s4 = nn.Sequential(SepBlock(w, w), SepBlock(w, w))
        self.s8 = nn.Sequential(SepBlock(w, 2 * w, 2), SepBlock(2 * w, 2 * w))
        self.s16 = nn.Sequential(SepBlock(2 * w, 3 * w, 2), SepBlock(3 * w, 3 * w), SepBlock(3 * w, 3 * w))
        self.up16 = nn.Conv2d(3 * w, 2 * w, 1)
        self.up8 = nn.Conv2d(2 * w, w, 1)
        self.fuse = SepBlock(w, w)
        last = nn.Conv2d(w, 4, 1)
        self.head = nn.Sequential(nn.Conv2d(w, w, 3, 1, 1), nn.ReLU(inplace=True), last)
        set_bias(last, [-4.0, 0.0, 0.0, 3.0])  # start with "no die anywhere" (focal-loss prior), ~20 px faces

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x4 = self.s4(self.stem(normalise(x)))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        y8 = x8 + F.interpolate(self.up16(x16), size=x8.shape[2:], mode="nearest")
        y4 = x4 + F.interpolate(self.up8(y8), size=x4.shape[2:], mode="nearest")
        out = self.head(self.fuse(y4))
        heat = torch.sigmoid(out[:, :1])
        offset = torch.tanh(out[:, 1:3]) * 0.5  # cell-relative, within the cell
        return torch.cat([heat, offset, out[:, 3:4]], dim=1)


class ReaderNet(nn.Module):
    """Crops (N, 3, S, S) -> face logits (N, 8) and pip heat (N, 2, S/2, S/2) (black, red; sigmoid)."""

    def __init__(self, width: int = 32, contrast: bool = False, deep_width: int | None = None,
                 deep_blocks: int = 2, pip_evidence: bool = False, mixstyle_p: float = 0.0) -> None:
        super().__init__()
        w = width
        # The stride-8 stage (5x5 cells of a 40 px crop) sees the whole face and costs little at that
        # size: the face head's capacity can grow there without slowing the stride-2 convolutions.
        deep = 3 * w if deep_width is None else deep_width
        # `contrast`: the crop standardised (`standardise`) beside it, three more input channels.
        self.contrast = contrast
        self.stem = nn.Sequential(conv_bn(6 if contrast else 3, w // 2), conv_bn(w // 2, w, 2))  # stride 2
        self.s2 = nn.Sequential(SepBlock(w, w), SepBlock(w, w))
        # `mixstyle_p`: feature statistics mixed between crops after the stem and the stride-2 stage,
        # where a camera's look lives (training only; 0: off, the committed models).
        self.mix = MixStyle(mixstyle_p)
        self.s4 = nn.Sequential(SepBlock(w, 2 * w, 2), SepBlock(2 * w, 2 * w))
        self.s8 = nn.Sequential(SepBlock(2 * w, deep, 2), *(SepBlock(deep, deep) for _ in range(deep_blocks - 1)))
        self.up = nn.Conv2d(2 * w, w, 1)
        pip_last = nn.Conv2d(w, 2, 1)
        self.pip_head = nn.Sequential(nn.Conv2d(w, w, 3, 1, 1), nn.ReLU(inplace=True), pip_last)
        # `pip_evidence`: the face head also sees the pip head's heat, through convolutions of its own
        # down to stride 8 (its middle cell spans a face): the pips' layout, whatever the die's body looks
        # like (marbled veins the pips' colour, a camera never seen). The heat is detached, so the face
        # loss on real photos, which have no pip labels, cannot bend the pip head.
        self.pip_evidence = (nn.Sequential(conv_bn(2, 16, 2), conv_bn(16, PIP_EVIDENCE, 2),
                                           conv_bn(PIP_EVIDENCE, PIP_EVIDENCE)) if pip_evidence else None)
        face_in = 2 * deep + (3 * PIP_EVIDENCE if pip_evidence else 0)
        self.face_head = nn.Sequential(nn.Linear(face_in, 64), nn.ReLU(inplace=True), nn.Linear(64, READER_CLASSES))
        set_bias(pip_last, [-4.0, -4.0])  # start with "no pip anywhere" (focal-loss prior)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        inputs = torch.cat([normalise(x), standardise(x)], dim=1) if self.contrast else normalise(x)
        x2 = self.mix(self.s2(self.mix(self.stem(inputs))))
        x4 = self.s4(x2)
        x8 = self.s8(x4)
        y2 = x2 + F.interpolate(self.up(x4), size=x2.shape[2:], mode="nearest")
        pips = torch.sigmoid(self.pip_head(y2))
        pooled = [x8.mean(dim=(2, 3)), x8.amax(dim=(2, 3))]
        if self.pip_evidence is not None:
            e = self.pip_evidence(pips.detach())
            middle = e[:, :, e.shape[2] // 2, e.shape[3] // 2]  # the cell over the face's centre
            pooled += [e.mean(dim=(2, 3)), e.amax(dim=(2, 3)), middle]
        return self.face_head(torch.cat(pooled, dim=1)), pips
