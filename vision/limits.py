"""The most pixels a photo may have to be decoded, for every way one comes in.

A module of its own, importing nothing: `vision/__init__.py` hands the limit to OpenCV,
which reads it once as it loads, before any module that imports OpenCV is imported.
"""

MAX_PIXELS = 50_000_000
"""Pixels in the largest photo decoded (a 12 MP phone photo is a quarter of it): `hotdice
read`, `hotdice eval` and the web's uploads (its `MAX_PIXELS` setting) refuse more."""
