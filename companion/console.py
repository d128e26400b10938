"""The ``hotdice`` console script's entry point: ``companion.cli`` imported inside it.

The command's modules take about 70 ms to import; a Ctrl+C in that time, before
``cli.main``'s own guard, printed a traceback. Imported here, it ends
as any Ctrl+C does: status 130, nothing on standard error.
"""

from __future__ import annotations


def main() -> int:
    """`hotdice`: `companion.cli.main`, with a Ctrl+C while it loads ending quietly."""
    try:
        from companion import cli
    except KeyboardInterrupt:
        return 130
    return cli.main()


if __name__ == "__main__":  # (``python -m companion.console``, as ``python -m companion``)
    raise SystemExit(main())
