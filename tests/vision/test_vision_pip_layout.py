"""Telling the top face's pips from a side face's and a neighbour's by the face's pip layout."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from bobing_vision.die_faces import PIP_LAYOUT
from bobing_vision.vision.config import LayoutConfig, ReaderConfig
from bobing_vision.vision.detector import DieCandidate, Pip
from bobing_vision.vision.reading import Bowl
from bobing_vision.vision.pip_layout import face_aspect, layout_pips
from bobing_vision.vision.judging import ChineseSet, top_face_pips

SIDE = 40.0  # the top face's side in pixels
CENTER = (200.0, 150.0)
CONFIG = LayoutConfig()


def face_pips(face: int, turn_deg: float = 0.0, red: bool = False, side: float = SIDE) -> list[Pip]:
    """The pips of `face` turned by `turn_deg`, as the pip reader would find them, in frame pixels."""
    c, s = math.cos(math.radians(turn_deg)), math.sin(math.radians(turn_deg))
    return [Pip(center=(CENTER[0] + (c * u - s * v) * side / 2, CENTER[1] + (s * u + c * v) * side / 2), red=red)
            for u, v in PIP_LAYOUT[face]]


def box_side(turn_deg: float, side: float = SIDE) -> float:
    """The axis-aligned box the detector draws around a face turned by `turn_deg`."""
    t = math.radians(turn_deg)
    return side * (abs(math.cos(t)) + abs(math.sin(t)))


def stray(dx: float, dy: float) -> Pip:
    """A pip found `dx`, `dy` face sides from the centre: a side face's or a neighbour's."""
    return Pip(center=(CENTER[0] + dx * SIDE, CENTER[1] + dy * SIDE), red=False)


# A 1 is taken square to its box (see the test of the 1 below), so it is not turned here.
@pytest.mark.parametrize("face, turn", [(f, t) for f in range(1, 7) for t in (0.0, 20.0, 45.0, 70.0) if f > 1 or t == 0])
def test_a_face_with_a_side_face_s_pips_beside_it_keeps_only_its_own(face: int, turn: float) -> None:
    c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    # two pips of the side face just past the top face's lower edge, in the face's own frame
    side_pips = [stray(c * u - s * 0.62, s * u + c * 0.62) for u in (-0.25, 0.25)]
    own = face_pips(face, turn)
    shown = layout_pips(own + side_pips, CENTER, box_side(turn), face, CONFIG)
    assert shown is not None and set(shown) == set(own)


@pytest.mark.parametrize("face, read_as", [(3, 2), (5, 4), (6, 4), (5, 1), (3, 1), (6, 2)])
def test_a_face_does_not_show_a_face_whose_layout_is_part_of_it(face: int, read_as: int) -> None:
    # a 3 holds a 2's diagonal and a 5 a 4's corners, but the other pips lie on the face
    assert layout_pips(face_pips(face, 10.0), CENTER, box_side(10.0), read_as, CONFIG) is None


@pytest.mark.parametrize("face, read_as", [(4, 6), (2, 3), (4, 5), (5, 6)])
def test_too_few_pips_in_the_layout_show_no_bigger_face(face: int, read_as: int) -> None:
    found = face_pips(face) + [stray(0.0, 0.65), stray(0.6, 0.6)]
    assert layout_pips(found, CENTER, SIDE, read_as, CONFIG) is None


def test_a_layout_far_from_the_box_centre_does_not_fit() -> None:
    # a neighbour's 2 reaching into the box is not this die's face, though it has the layout
    off = [Pip(center=(p.center[0] + 0.3 * SIDE, p.center[1]), red=False) for p in face_pips(2)]
    assert layout_pips(off, CENTER, SIDE, 2, CONFIG) is None
    near = [Pip(center=(p.center[0] + 0.1 * SIDE, p.center[1]), red=False) for p in face_pips(2)]
    assert layout_pips(near, CENTER, SIDE, 2, CONFIG) is not None


def test_a_one_takes_the_biggest_face_its_box_allows() -> None:
    # beside the centre pip, a pip 0.42 sides off both axes lies on a square face but off a turned one
    found = [Pip(center=CENTER, red=True), stray(0.42, 0.42)]
    assert layout_pips(found, CENTER, SIDE, 1, CONFIG) is None
    assert layout_pips([Pip(center=CENTER, red=True), stray(0.0, 0.7)], CENTER, SIDE, 1, CONFIG) is not None


def test_a_bigger_or_smaller_face_than_the_box_still_fits_within_the_sizes_tried() -> None:
    for scale in CONFIG.scales:
        found = face_pips(6, 30.0, side=SIDE * scale) + [stray(0.0, -0.75)]
        assert layout_pips(found, CENTER, box_side(30.0), 6, CONFIG) is not None


def candidate(face: int, prob: float, pips: list[Pip]) -> DieCandidate:
    probs = [(1 - prob) / 5] * 6
    probs[face - 1] = prob
    half = SIDE / 2
    return DieCandidate(center=CENTER, box=(CENTER[0] - half, CENTER[1] - half, CENTER[0] + half, CENTER[1] + half),
                        score=0.9, face_probs=tuple(probs), pips=tuple(pips))  # type: ignore[arg-type]


def test_the_pipeline_keeps_the_top_face_pips_of_a_fairly_sure_face() -> None:
    own = face_pips(3, 0.0)
    narrowed = top_face_pips(candidate(3, 0.85, own + [stray(-0.1, 0.62), stray(0.15, 0.62)]), ReaderConfig())
    assert narrowed.pips == tuple(own)


@pytest.mark.parametrize("case, face, prob, extra", [
    ("face not sure enough to be read", 3, 0.6, [stray(0.0, 0.62)]),
    ("pips already count the face", 3, 0.85, []),
])
def test_the_pipeline_leaves_other_pips_as_found(case: str, face: int, prob: float, extra: list[Pip]) -> None:
    found = face_pips(3, 0.0) + extra
    assert top_face_pips(candidate(face, prob, found), ReaderConfig()).pips == tuple(found)


def squeezed(pips: list[Pip], along_deg: float, factor: float) -> list[Pip]:
    """The pips as a camera sees them when their face is foreshortened by `factor` along `along_deg`."""
    c, s = math.cos(math.radians(along_deg)), math.sin(math.radians(along_deg))
    out = []
    for p in pips:
        dx, dy = p.center[0] - CENTER[0], p.center[1] - CENTER[1]
        u, v = (dx * c + dy * s) * factor, -dx * s + dy * c
        out.append(Pip(center=(CENTER[0] + u * c - v * s, CENTER[1] + u * s + v * c), red=p.red))
    return out


@pytest.mark.parametrize("face", [4, 5])
@pytest.mark.parametrize("rim_deg", [0.0, 30.0, 90.0])
def test_a_face_lying_flat_is_square_once_the_rims_tilt_is_undone(face: int, rim_deg: float) -> None:
    # A camera 40 degrees off vertical sees the rim (a circle) and a flat top face squeezed alike.
    tilt = math.cos(math.radians(40))
    bowl = Bowl(cx=320.0, cy=240.0, rx=200.0, ry=200.0 * tilt, angle_deg=rim_deg)
    seen = squeezed(face_pips(face, turn_deg=25.0), rim_deg + 90.0, tilt)
    assert face_aspect(seen, bowl) == pytest.approx(1.0, abs=1e-6)
    assert face_aspect(seen, Bowl(cx=320.0, cy=240.0, rx=200.0, ry=200.0)) == pytest.approx(tilt, abs=1e-6)


def test_a_leaning_dies_side_is_squeezed_across_the_rims_tilt() -> None:
    tilt = math.cos(math.radians(30))
    bowl = Bowl(cx=320.0, cy=240.0, rx=200.0, ry=200.0 * tilt)
    side = squeezed(squeezed(face_pips(4), 90.0, tilt), 0.0, 0.55)  # turned 57 degrees towards the camera
    assert face_aspect(side, bowl) == pytest.approx(0.55, abs=1e-6)


@pytest.mark.parametrize("face", [1, 2, 3])
def test_a_face_of_fewer_than_four_pips_has_no_aspect(face: int) -> None:
    assert face_aspect(face_pips(face), Bowl(cx=320.0, cy=240.0, rx=200.0, ry=200.0)) is None


def oblique_two(box: float) -> tuple[DieCandidate, list[Pip]]:
    """A 2 read 0.9 sure whose top face is 0.58 of its box: the camera sees the die's side below it, with
    two of that side's pips, inside the box (the box's centre lies between top and side)."""
    top = 0.58 * box
    top_centre = (CENTER[0], CENTER[1] - 0.12 * box)
    own = [Pip(center=(top_centre[0] + u * top / 2, top_centre[1] + v * top / 2), red=False)
           for u, v in PIP_LAYOUT[2]]
    side = [Pip(center=(CENTER[0] + u * top, CENTER[1] + 0.34 * box), red=False) for u in (-0.25, 0.25)]
    probs = [0.02] * 6
    probs[1] = 0.9
    half = box / 2
    die = DieCandidate(center=CENTER, box=(CENTER[0] - half, CENTER[1] - half, CENTER[0] + half, CENTER[1] + half),
                       score=0.9, face_probs=tuple(probs), pips=tuple(own + side))  # type: ignore[arg-type]
    return die, own


def test_a_die_seen_obliquely_keeps_its_top_face_pips_when_the_lean_check_can_guard_it() -> None:
    """Its top face is smaller than the box than the layout's usual sizes: fitted at the oblique sizes
    too, for dice at least `lean_min_width` wide; smaller ones, or with the oblique sizes off, keep every
    pip found (and are refused for the count)."""
    config = ReaderConfig()
    die, own = oblique_two(SIDE)
    assert top_face_pips(die, config).pips == tuple(own)
    assert top_face_pips(die, replace(config, oblique_scales=())).pips == die.pips
    small, _ = oblique_two(0.9 * config.lean_min_width)
    assert top_face_pips(small, config).pips == small.pips


def red_stray(dx: float, dy: float) -> Pip:
    """A red pip found `dx`, `dy` face sides from the centre: a neighbouring Chinese 1's or 4's."""
    return replace(stray(dx, dy), red=True)


@pytest.mark.parametrize("case, face, own, others", [
    # The big red pip of a 1 leaves room in its box for a touching neighbour's black pips.
    ("a red 1 and a neighbour's black pips", 1, [Pip(center=CENTER, red=True)], [stray(0.3, 0.25), stray(0.3, -0.05)]),
    ("a red 4 and a black pip between its own", 4, face_pips(4, red=True), [stray(0.0, 0.3)]),
    ("a black 3 and a neighbour's red pip in its empty corner", 3, face_pips(3), [red_stray(0.25, -0.25)]),
])
def test_a_chinese_face_is_fitted_to_the_pips_of_its_own_colour(case: str, face: int, own: list[Pip],
                                                                 others: list[Pip]) -> None:
    """Where the other colour's pips lie on the face, no layout fits them all: in a Chinese set (red on
    the 1 and the 4 only) they are someone else's. Otherwise, or with the rule off, every pip is kept
    (and the pipeline refuses the count)."""
    die = candidate(face, 0.85, own + others)
    config = ReaderConfig()
    for chinese in (ChineseSet.LIKELY, ChineseSet.SURE):
        assert top_face_pips(die, config, chinese).pips == tuple(own), case
    assert top_face_pips(die, config, ChineseSet.NO).pips == die.pips, case
    assert top_face_pips(die, replace(config, one_colour_faces=False), ChineseSet.SURE).pips == die.pips, case


def test_a_chinese_face_whose_own_colour_does_not_show_it_keeps_the_colour_blind_fit() -> None:
    """A 3 read with one pip taken for red: its own colour has two pips, too few for a 3; fitted with
    every colour, the three are its layout and the stray off its face goes."""
    own = face_pips(3)
    own[0] = replace(own[0], red=True)
    die = candidate(3, 0.85, own + [stray(0.0, 0.62)])
    assert top_face_pips(die, ReaderConfig(), ChineseSet.SURE).pips == tuple(own)


def test_a_small_chinese_die_keeps_every_colour_as_the_lean_check_cannot_guard_it() -> None:
    """Under `lean_min_width` a 4 read from a leaning 5's red side would be scored: the colours are not
    told apart there, and the red 1 beside black pips keeps them all (the pipeline refuses the count)."""
    config = ReaderConfig()
    k = 0.9 * config.lean_min_width / SIDE  # the same die, seen smaller

    def shrunk(pip: Pip) -> Pip:
        (x, y), (cx, cy) = pip.center, CENTER
        return replace(pip, center=(cx + k * (x - cx), cy + k * (y - cy)))

    big = candidate(1, 0.85, [Pip(center=CENTER, red=True), stray(0.3, 0.25), stray(0.3, -0.05)])
    half = k * SIDE / 2
    small = replace(big, box=(CENTER[0] - half, CENTER[1] - half, CENTER[0] + half, CENTER[1] + half),
                    pips=tuple(shrunk(p) for p in big.pips))
    assert len(top_face_pips(big, config, ChineseSet.SURE).pips) == 1
    assert top_face_pips(small, config, ChineseSet.SURE).pips == small.pips


def off_centre_three(prob: float, side: float = SIDE) -> tuple[DieCandidate, list[Pip]]:
    """A 3 read `prob` sure whose top face (`side` wide, as its box) lies 0.2 of the box's side below the
    box's centre: the box also took in the side above it, whose two pips were found too."""
    own = [replace(p, center=(p.center[0], p.center[1] + 0.2 * side)) for p in face_pips(3, 20.0, side=side)]
    side_pips = [Pip(center=(CENTER[0] + dx * side, CENTER[1] - 0.45 * side), red=False) for dx in (-0.2, 0.2)]
    half = side / 2
    die = replace(candidate(3, prob, own + side_pips),
                  box=(CENTER[0] - half, CENTER[1] - half, CENTER[0] + half, CENTER[1] + half))
    return die, own


def test_a_sure_face_lying_off_its_box_centre_keeps_its_own_pips() -> None:
    """A face at least `sure_face_prob` sure is fitted up to `sure_face_shift` off the box's centre;
    otherwise (less sure, or the rule off) its five pips are kept, and the pipeline refuses the count."""
    config = ReaderConfig()
    sure, own = off_centre_three(config.sure_face_prob + 0.05)
    assert top_face_pips(sure, config).pips == tuple(own)
    assert top_face_pips(sure, replace(config, sure_face_shift=None)).pips == sure.pips
    unsure, _ = off_centre_three(config.sure_face_prob - 0.05)
    assert top_face_pips(unsure, config).pips == unsure.pips
    small, own = off_centre_three(config.sure_face_prob + 0.05, side=12.0)  # at any size
    assert top_face_pips(small, config).pips == tuple(own)


def test_a_sure_chinese_face_off_its_box_centre_is_fitted_to_its_own_colour() -> None:
    """A red 4 read 0.85 sure, 0.2 of its box below the box's centre, a black pip on its face (a touching
    die's) and two of its side's above it: no fit of every pip can pass over the black one, so in a
    Chinese set its own colour is fitted, at the wider shift too."""
    own = [replace(p, center=(p.center[0], p.center[1] + 0.2 * SIDE)) for p in face_pips(4, red=True)]
    others = [stray(0.0, 0.2), stray(-0.2, -0.45), stray(0.2, -0.45)]
    die = candidate(4, 0.85, own + others)
    config = ReaderConfig()
    assert top_face_pips(die, config, ChineseSet.SURE).pips == tuple(own)
    assert top_face_pips(die, replace(config, sure_face_shift=None), ChineseSet.SURE).pips == die.pips
    assert top_face_pips(die, config, ChineseSet.NO).pips == die.pips
