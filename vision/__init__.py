"""hotdice vision: read the top faces of real dice in a photo or camera frame.

>>> import numpy as np, vision
>>> vision.read(np.full((480, 640, 3), 200, np.uint8)).values
[]

Depends on NumPy and OpenCV only; knows nothing of the rules of any game.
"""

from .annotate import annotate
from .detections import ASK_BELOW, Detections, DieDetection
from .io import ImageTooLarge, decode_image, format_problem, image_size_wh, load_image
from .model import warm_up
from .photo import PhotoReading, read_photo_data
from .reader import read

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
]
