"""``python -m web serve ...``."""

import sys

from .cli import main

sys.exit(main())
