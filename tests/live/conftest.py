"""Fixtures for the live tests; the drawn clips are in live_clipkit.py."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(1234)
