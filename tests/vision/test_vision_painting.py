"""Whether a thing in the bowl is the bowl's painting: its look recurs around its ring."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from bobing_vision.vision.painting import ring_repeats
from bobing_vision.vision.reading import Bowl

BOWL = Bowl(cx=320.0, cy=240.0, rx=200.0, ry=170.0, angle_deg=15.0)  # a camera leaning: the rim an ellipse
DIE = 24.0
RED, BLACK, WHITE, IVORY = (40, 40, 200), (20, 20, 20), (250, 250, 250), (215, 225, 232)


def at(rho: float, degrees: float) -> tuple[float, float]:
    """The frame point `rho` of the rim's radius out from its centre, `degrees` round."""
    t, a = math.radians(BOWL.angle_deg), math.radians(degrees)
    u, v = rho * BOWL.rx * math.cos(a), rho * BOWL.ry * math.sin(a)
    return BOWL.cx + u * math.cos(t) - v * math.sin(t), BOWL.cy + u * math.sin(t) + v * math.cos(t)


def porcelain() -> np.ndarray:
    frame = np.full((480, 640, 3), IVORY, np.uint8)
    noise = np.random.default_rng(0).normal(0, 2, frame.shape)
    return np.clip(frame + noise, 0, 255).astype(np.uint8)


def dot(frame: np.ndarray, point: tuple[float, float], colour: tuple[int, int, int], radius: int = 5) -> None:
    cv2.circle(frame, (round(point[0]), round(point[1])), radius, colour, -1, cv2.LINE_AA)


def dotted_ring(frame: np.ndarray, rho: float, count: int = 12, colour: tuple[int, int, int] = RED,
                skip: tuple[int, ...] = ()) -> None:
    """A painted ring of `count` dots, the `skip`-th left out (where a die lies on the ring)."""
    for k in range(count):
        if k not in skip:
            dot(frame, at(rho, 360 * k / count), colour)


def draw_die(frame: np.ndarray, point: tuple[float, float], face: int = 3, turn: float = 0.0) -> None:
    """A white die `DIE` wide showing `face`, turned `turn` degrees."""
    corners = cv2.boxPoints(((point[0], point[1]), (DIE, DIE), turn))
    cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), WHITE, cv2.LINE_AA)
    cv2.polylines(frame, [np.round(corners).astype(np.int32)], True, (150, 150, 150), 1, cv2.LINE_AA)
    cos, sin = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    offsets = {1: [(0, 0)], 3: [(-1, -1), (0, 0), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]}[face]
    for dx, dy in offsets:
        u, v = dx * DIE * 0.28, dy * DIE * 0.28
        dot(frame, (point[0] + u * cos - v * sin, point[1] + u * sin + v * cos), RED if face == 1 else BLACK, 3)


def repeat(frame: np.ndarray, *points: tuple[float, float]) -> list[float | None]:
    return ring_repeats(frame, BOWL, list(points), [DIE] * len(points))


def test_a_dot_of_a_painted_ring_recurs_all_round() -> None:
    frame = porcelain()
    dotted_ring(frame, 0.65)
    [score] = repeat(frame, at(0.65, 90))
    assert score is not None and score > 0.9


def test_a_die_lying_on_a_painted_ring_does_not_recur() -> None:
    frame = porcelain()
    dotted_ring(frame, 0.65)
    draw_die(frame, at(0.65, 45))  # between two dots
    [score] = repeat(frame, at(0.65, 45))
    assert score is not None and score < 0.5


def test_a_red_one_on_a_plain_floor_does_not_recur() -> None:
    frame = porcelain()
    dotted_ring(frame, 0.8)  # painting elsewhere, on another ring
    draw_die(frame, at(0.45, 200), face=1)
    [score] = repeat(frame, at(0.45, 200))
    assert score is not None and score < 0.5


def test_a_painted_circle_through_a_faint_thing_is_the_same_all_round_and_does_not_count() -> None:
    frame = porcelain()
    axes = (round(0.5 * BOWL.rx), round(0.5 * BOWL.ry))
    cv2.ellipse(frame, (round(BOWL.cx), round(BOWL.cy)), axes, BOWL.angle_deg, 0, 360, (160, 90, 30), 8)
    dot(frame, at(0.5, 120), (120, 120, 200), 3)  # a washed-out pip on the blue line: the line is most of its look
    [score] = repeat(frame, at(0.5, 120))
    assert score is not None and score < 0.5


def test_dice_alike_on_one_ring_are_not_each_others_recurrence() -> None:
    """Three dice showing 5, each turned as the ring turns there: alike in the ring's own frame, as
    painting is, but each a candidate, so none is matched on another."""
    frame = porcelain()
    angles = (30, 150, 270)
    for degrees in angles:
        draw_die(frame, at(0.5, degrees), face=5, turn=degrees)
    scores = repeat(frame, *(at(0.5, degrees) for degrees in angles))
    assert all(s is not None and s < 0.5 for s in scores)


def test_a_faint_pattern_shaped_alike_is_no_recurrence_of_a_strong_dot() -> None:
    frame = porcelain()
    dotted_ring(frame, 0.65, colour=(200, 210, 222), skip=(3,))  # barely darker than the porcelain
    dot(frame, at(0.65, 90), RED)
    [score] = repeat(frame, at(0.65, 90))
    assert score is not None and score < 0.5


@pytest.mark.parametrize("case, rho", [("near the centre: a ring too short", 0.1), ("at the rim", 0.97)])
def test_nothing_is_said_near_the_centre_or_at_the_rim(case: str, rho: float) -> None:
    frame = porcelain()
    dot(frame, at(rho, 60), RED)
    assert repeat(frame, at(rho, 60)) == [None]


def test_nothing_is_said_of_a_plain_patch() -> None:
    frame = np.full((480, 640, 3), 128, np.uint8)
    assert repeat(frame, at(0.5, 0)) == [None]


def test_one_look_alike_on_the_ring_is_chance_not_painting() -> None:
    frame = porcelain()
    draw_die(frame, at(0.5, 100), face=1)
    draw_die(frame, at(0.5, 280), face=1)  # a die alike that the detector missed: no candidate there
    [score] = repeat(frame, at(0.5, 100))
    assert score is not None and score < 0.5
