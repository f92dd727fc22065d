"""What every front end shares: the exit codes scripts rely on, and the demo roster the editor opens
without a file. Its own module, so that the editor does not import the command line, nor it the editor."""

from pathlib import Path

DEMO_ROSTER = Path(__file__).parent / "demo" / "ultramarines.yaml"
EXIT_LEGAL, EXIT_ILLEGAL, EXIT_UNREADABLE, EXIT_INTERNAL = 0, 1, 2, 3
EXIT_OK = EXIT_LEGAL  # success, for the commands that check no roster
