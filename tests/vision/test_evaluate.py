"""Scoring helpers of `hotdice eval` that need no networks."""

import numpy as np
import pytest

from vision.evaluate import close_up


@pytest.mark.parametrize("fraction", [0.3, 0.9])
def test_close_up_centres_the_die_at_the_asked_size(fraction):
    photo = np.zeros((200, 300, 3), np.uint8)
    photo[60:100, 50:90] = 255  # the "die": box [50, 60, 40, 40]
    frame = close_up(photo, [50, 60, 40, 40], fraction)
    assert frame.shape == (480, 640, 3)
    ys, xs = np.nonzero(frame[..., 0] > 127)
    side = fraction * 480
    # within half a photo pixel (boxes are continuous, pixels sampled at their centres)
    tol = 0.5 * side / 40 + 2
    assert abs(xs.mean() - 320) < tol and abs(ys.mean() - 240) < tol
    assert abs((xs.max() - xs.min() + 1) - side) < tol
    assert abs((ys.max() - ys.min() + 1) - side) < tol
