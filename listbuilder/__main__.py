import sys

from .core.longlived import long_lived

with long_lived():  # the command line's modules live as long as the process: imported out of the collector's way
    from .cli import run

sys.exit(run())
