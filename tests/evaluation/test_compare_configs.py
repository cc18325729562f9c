"""`bench/compare_models.py --configs`: pipeline thresholds measured like models, from a spec string."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

from bobing_vision.vision.config import ReaderConfig


@pytest.fixture
def compare_models(bench_script: Callable[[str], ModuleType]) -> ModuleType:
    return bench_script("compare_models")


def test_a_spec_changes_the_named_fields_nested_ones_and_tuples_included(compare_models: ModuleType) -> None:
    config = compare_models.reader_config("sure_outside_score=0.6, layout.tolerance=0.1,size_band=0.6/1.4")
    assert config.sure_outside_score == 0.6
    assert config.layout.tolerance == 0.1
    assert config.size_band == (0.6, 1.4)
    assert config.bowl == ReaderConfig().bowl and config.min_face_prob == ReaderConfig().min_face_prob


def test_none_turns_an_optional_step_off_and_a_number_turns_it_on(compare_models: ModuleType) -> None:
    assert ReaderConfig().closer_zoom is not None
    assert compare_models.reader_config("closer_zoom=none").closer_zoom is None
    assert compare_models.reader_config("roi_margin=0.2").roi_margin == 0.2


def test_a_tuple_setting_that_is_off_takes_numbers(compare_models: ModuleType) -> None:
    from dataclasses import replace

    off = replace(ReaderConfig(), oblique_scales=())
    assert compare_models.changed(off, ["oblique_scales"], "0.7/0.8").oblique_scales == (0.7, 0.8)


def test_a_switch_is_set_by_its_word_and_a_word_that_is_no_switch_is_refused(compare_models: ModuleType) -> None:
    assert ReaderConfig().one_colour_faces is True
    assert compare_models.reader_config("one_colour_faces=False").one_colour_faces is False
    assert compare_models.reader_config("one_colour_faces=true").one_colour_faces is True
    with pytest.raises(ValueError, match="expected true or false for one_colour_faces, got 'no'"):
        compare_models.reader_config("one_colour_faces=no")


def test_the_empty_spec_is_the_committed_configuration(compare_models: ModuleType) -> None:
    assert compare_models.reader_config("") == ReaderConfig()


@pytest.mark.parametrize(("spec", "message"), [
    ("min_face=0.6", "expected a field of ReaderConfig, got 'min_face'"),
    ("layout.nope=2", "expected a field of LayoutConfig, got 'nope'"),
    # An attribute that is no field (every dataclass has these) is no setting either.
    ("__doc__=x", "expected a field of ReaderConfig, got '__doc__'"),
    ("min_face_prob", "expected key=value, got 'min_face_prob'"),
])
def test_a_spec_naming_no_field_is_refused_not_ignored(compare_models: ModuleType, spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        compare_models.reader_config(spec)


def test_width_bands_are_summed_over_sets_for_all_dice_and_per_kind_of_dice(compare_models: ModuleType) -> None:
    from bobing_vision.evaluation.scoring import Band

    def bands(dice: int, right: int) -> tuple[Band, ...]:  # two bands: under 14 px, 14 px and over
        return (Band(0.0, 14.0, dice, dice, right, 0), Band(14.0, float("inf"), 2 * dice, 2 * dice, right, 0))

    chinese_set = {None: bands(4, 3), "chinese": bands(4, 3)}
    mixed_set = {None: bands(6, 2), "chinese": bands(1, 1), "ordinary": bands(5, 1)}
    real_set = {None: bands(3, 3)}  # a real set names no kind: it counts for all dice only
    summed = compare_models.bands_by_kind([chinese_set, mixed_set, real_set])
    assert list(summed) == [None, "chinese", "ordinary"]
    assert [(b.dice, b.read_right) for b in summed[None]] == [(13, 8), (26, 8)]
    assert [(b.dice, b.read_right) for b in summed["chinese"]] == [(5, 4), (10, 4)]
    assert [(b.dice, b.read_right) for b in summed["ordinary"]] == [(5, 1), (10, 1)]
    # Sets of one kind: the per-kind table would only repeat the first.
    assert list(compare_models.bands_by_kind([chinese_set, real_set])) == [None]
