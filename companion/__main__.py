"""``python -m companion ...``: the ``hotdice`` command, where its script is not installed."""

from companion.console import main

raise SystemExit(main())
