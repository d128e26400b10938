"""hotdice vision: read the top faces of real dice in a photo or camera frame.

>>> import numpy as np, vision
>>> vision.read(np.full((480, 640, 3), 200, np.uint8)).values
[]

Depends on NumPy and OpenCV only; knows nothing of the rules of any game.
"""

import os

# OpenCV refuses, from its header, to decode an image of more pixels than this; it reads the
# setting once, as it loads, so it is set before any module here imports it. The size check
# in `io.decode_image` reads JPEG and PNG headers only: a 1 KB BMP or a 35-byte GIF that
# says 30000x30000 took 5-7 GB and 11-12 s to decode before the limit could refuse it.
# (Where OpenCV was loaded before this package, the limit is OpenCV's own, a gigapixel.)
from .limits import MAX_PIXELS

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))

from .annotate import annotate
from .detections import ASK_BELOW, Detections, DieDetection
from .io import ImageTooLarge, decode_image, format_problem, image_size_wh, load_image
from .model import warm_up
from .photo import PhotoReading, read_photo_data
from .reader import read
from .small import too_small
from .smear import smeared

__all__ = [
    "read",
    "read_photo_data",
    "PhotoReading",
    "Detections",
    "DieDetection",
    "ASK_BELOW",
    "annotate",
    "decode_image",
    "ImageTooLarge",
    "image_size_wh",
    "format_problem",
    "load_image",
    "warm_up",
    "smeared",
    "too_small",
    "MAX_PIXELS",
]
