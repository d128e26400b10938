"""The live loop reads each roll once, after the dice stop moving."""

import numpy as np

from vision.camera import settled_rolls
from vision.detections import Detections


def _frames():
    rng = np.random.default_rng(3)
    still_a = np.full((120, 160, 3), 90, np.uint8)
    still_b = still_a.copy()
    still_b[40:80, 60:100] = 230
    frames = []
    for _ in range(10):  # dice tumbling: big changes every frame
        frames.append(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    frames += [still_a] * 20
    for _ in range(5):
        frames.append(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8))
    frames += [still_b] * 20
    return frames, still_a, still_b


def test_one_reading_per_settled_roll():
    frames, a, b = _frames()
    seen = []

    def reader(frame):
        seen.append(frame)
        return Detections.empty((frame.shape[1], frame.shape[0]))

    rolls = list(settled_rolls(frames, reader, still_frames=5))
    assert len(rolls) == 2
    assert seen[0] is a and seen[1] is b
    assert 10 < rolls[0].frame_index < 30 < rolls[1].frame_index
