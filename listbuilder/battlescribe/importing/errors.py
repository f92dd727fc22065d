"""The one error the readers raise: a file that cannot be read, said so a player understands it."""

from __future__ import annotations


class UnreadableFile(ValueError):
    """Bytes that are not a BattleScribe file we can read, or that break a bound.

    `reason` names no file (the readers see only bytes); `in_file` returns a copy that does.
    `line` is the line in the XML where the trouble is, when known."""

    def __init__(self, reason: str, line: int | None = None, file: str | None = None):
        self.reason = reason
        self.line = line
        self.file = file
        super().__init__(self._message())

    def _message(self) -> str:
        where = f"{self.file}:{self.line}: " if self.file and self.line else (
            f"{self.file}: " if self.file else (f"line {self.line}: " if self.line else ""))
        return where + self.reason

    def in_file(self, file: str) -> UnreadableFile:
        """The same error, naming the file it came from."""
        return UnreadableFile(self.reason, self.line, file)
