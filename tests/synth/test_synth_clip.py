"""Throw clips: moving, then settled for at least a second; labels of the still end; hand and jump-out."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bobing_vision.errors import InvalidInput
from bobing_vision.synth import ClipSpec, render_clip

SMALL = ClipSpec(size=(160, 120), fps=15.0, clean=True)


@pytest.mark.parametrize("seed", range(3))
def test_clip_moves_then_stays_settled_for_a_second(seed: int) -> None:
    clip = render_clip(np.random.default_rng(seed), replace(SMALL, hand_rest_p=0.0))
    n = len(clip.frames)
    assert len(clip.settled) == len(clip.hand_in_bowl) == n
    assert 2.0 <= n / clip.fps <= 6.0
    assert not clip.settled[0]
    first = clip.first_settled
    assert first is not None and n - first >= clip.fps, "still for at least one second at the end"
    assert all(clip.settled[first:]) and not clip.settled[first - 1]
    # once settled, a clean clip does not change; before that, the dice move
    assert all(np.array_equal(clip.frames[first], f) for f in clip.frames[first:])
    assert any(not np.array_equal(a, b) for a, b in zip(clip.frames[:first], clip.frames[1:first]))
    assert clip.final_faces == tuple(d.face for d in clip.final_label.dice)
    assert len(clip.final_faces) == 6


def test_a_resting_hand_unsettles_the_bowl_until_it_leaves() -> None:
    clip = render_clip(np.random.default_rng(5), replace(SMALL, hand_rest_p=1.0))
    hand_frames = [i for i, h in enumerate(clip.hand_in_bowl) if h]
    late = [i for i in hand_frames if i > 10]  # not the throwing hand at the start
    assert late, "the resting hand shows"
    assert not any(clip.settled[i] for i in hand_frames)
    assert clip.first_settled is not None and clip.first_settled > max(late)


def test_a_die_that_jumps_out_ends_on_the_table() -> None:
    clip = render_clip(np.random.default_rng(2), replace(SMALL, jump_out_p=1.0, hand_rest_p=0.0))
    assert clip.jumped_out
    assert any(d.in_bowl is False for d in clip.final_label.dice)


def test_bad_clip_spec_is_invalid_input() -> None:
    with pytest.raises(InvalidInput, match="frames per second"):
        ClipSpec(fps=200)
    with pytest.raises(InvalidInput, match="still tail"):
        ClipSpec(still_s=(0.5, 1.0))
