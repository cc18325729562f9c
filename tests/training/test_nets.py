"""The reader net: its contrast channels (a faint face is seen as the same face as a bold one) and its shape."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bobing_vision.training.nets import ReaderNet, standardise  # noqa: E402


def face_crop(body: tuple[float, float, float], pip: tuple[float, float, float], side: int = 40) -> np.ndarray:
    """A (1, 3, side, side) BGR crop: a face of colour `body` with a 3 in colour `pip` across it."""
    crop = np.empty((3, side, side), np.float32)
    crop[:] = np.array(body, np.float32)[:, None, None]
    for k in (1, 2, 3):
        y = x = side * k // 4
        crop[:, y - 2:y + 2, x - 2:x + 2] = np.array(pip, np.float32)[:, None, None]
    return crop[None]


def test_a_faint_face_standardises_to_the_bold_one() -> None:
    bold = standardise(torch.from_numpy(face_crop((230, 230, 230), (20, 20, 20))))
    faint = standardise(torch.from_numpy(face_crop((200, 200, 200), (170, 170, 170))))
    # A colour cast over the whole crop (warm light) changes nothing either.
    warm = np.float32([-30, 0, 25])[:, None, None]
    cast = standardise(torch.from_numpy(face_crop((200, 200, 200), (170, 170, 170)) + warm))
    assert torch.allclose(bold / bold.abs().max(), faint / faint.abs().max(), atol=1e-5)
    assert torch.allclose(faint, cast, atol=1e-5)
    # Pips 30 levels off the body against 210: a seventh of the contrast in, over half of it out (the
    # floor that keeps noise from becoming pips takes the rest).
    assert faint.abs().max() > 0.6 * bold.abs().max()


def test_a_flat_crop_is_not_stretched_into_pips() -> None:
    noise = np.random.default_rng(0).normal(0, 2, (1, 3, 40, 40)).astype(np.float32)
    flat = standardise(torch.from_numpy(face_crop((180, 180, 180), (180, 180, 180)) + noise))
    assert flat.abs().max() < 2.0


def test_the_contrast_reader_takes_six_channels_and_reads_any_crop_size() -> None:
    reader = ReaderNet(16, contrast=True).eval()
    assert reader.stem[0][0].in_channels == 6
    logits, pips = reader(torch.from_numpy(face_crop((200, 200, 200), (170, 170, 170), side=48)))
    assert logits.shape == (1, 8) and pips.shape == (1, 2, 24, 24)


def test_the_reader_stride_8_stage_takes_its_own_width_and_depth() -> None:
    reader = ReaderNet(16, deep_width=40, deep_blocks=3).eval()
    assert len(reader.s8) == 3 and all(block.pw[0].out_channels == 40 for block in reader.s8)
    logits, pips = reader(torch.from_numpy(face_crop((230, 230, 230), (20, 20, 20))))
    assert logits.shape == (1, 8) and pips.shape == (1, 2, 20, 20)
    default = ReaderNet(16)  # 3 x the width in 2 blocks: the committed models' shape
    assert len(default.s8) == 2 and default.s8[-1].pw[0].out_channels == 48


def test_the_face_head_sees_the_pip_heat_without_training_the_pip_head() -> None:
    torch.manual_seed(0)
    reader = ReaderNet(16, pip_evidence=True).eval()
    crop = torch.from_numpy(face_crop((230, 230, 230), (20, 20, 20)))
    logits, pips = reader(crop)
    assert logits.shape == (1, 8) and pips.shape == (1, 2, 20, 20)
    # The face read changes with the pip heat alone: the evidence branch is wired into the face head.
    with torch.no_grad():
        reader.pip_head[2].bias += 6.0  # the pip head now sees pips everywhere
    assert not torch.allclose(reader(crop)[0], logits, atol=1e-4)
    # The face loss reaches the body and the evidence branch, never the pip head.
    reader.train()
    reader(crop)[0].sum().backward()
    assert reader.pip_head[2].weight.grad is None
    assert reader.pip_evidence is not None and reader.pip_evidence[0][0].weight.grad is not None
    assert reader.s8[0].pw[0].weight.grad is not None
    assert ReaderNet(16).pip_evidence is None  # off by default: the committed models' shape


def test_mixstyle_gives_each_crop_another_crops_look_in_training_only() -> None:
    from bobing_vision.training.nets import MixStyle

    torch.manual_seed(0)
    mix = MixStyle(p=1.0)
    dark = torch.full((1, 4, 8, 8), 10.0) + torch.randn(1, 4, 8, 8)
    light = torch.full((1, 4, 8, 8), 200.0) + 5 * torch.randn(1, 4, 8, 8)
    batch = torch.cat([dark, light])
    mixed = mix(batch)
    # Each crop's pattern is kept, channel by channel; its mean lies between its own and the other's.
    for k in range(2):
        for c in range(4):
            assert torch.corrcoef(torch.stack([mixed[k, c].flatten(), batch[k, c].flatten()]))[0, 1] > 0.999
    means, own = mixed.mean(dim=(2, 3)), batch.mean(dim=(2, 3))
    assert not torch.allclose(mixed, batch)
    assert bool(((means >= own.amin(0) - 1e-3) & (means <= own.amax(0) + 1e-3)).all())
    mix.eval()
    assert torch.equal(mix(batch), batch)  # the exported graph never mixes
    assert torch.equal(MixStyle(p=0.0)(batch), batch)
