"""How much of a file from anyone is read at most: a 3,000-point roster is a few kilobytes."""

MAX_BYTES = 1_000_000
