"""Shapes shared by the labels, the generator and the reader (no I/O, no OpenCV)."""

from __future__ import annotations

# A bowl's rim: centre cx, cy, semi-axes rx, ry in pixels, and rx's angle in degrees (OpenCV's rotated rectangle).
Ellipse = tuple[float, float, float, float, float]
