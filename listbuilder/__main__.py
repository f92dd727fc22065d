"""`python -m listbuilder` and the `listbuilder` console script."""

import sys

from .core.longlived import long_lived


def main() -> int:
    with long_lived():  # the command line's modules live as long as the process: imported out of the collector's way
        from .cli import run
    return run()


if __name__ == "__main__":
    sys.exit(main())
