"""Roster files: reading them as untrusted input, and saving them without losing anything."""
