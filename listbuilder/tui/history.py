"""Undo and redo over roster values: every edit is a new immutable Roster (no textual here)."""

from __future__ import annotations

from dataclasses import dataclass

from ..listengine.roster import Roster


@dataclass(frozen=True)
class State:
    roster: Roster
    what: str  # the edit that led here, e.g. "add Tactical", shown when it is undone or redone
    focus: int | None  # the formation the edit touched, selected again on undo and redo


class History:
    """The rosters of a session, oldest first; an edit after an undo drops the undone states. A run
    of edits of one setting (seven presses of → on Chimeras) is one state: undone at once."""

    def __init__(self, roster: Roster):
        self.reset(roster)

    @property
    def current(self) -> Roster:
        return self._states[self._position].roster

    @property
    def can_undo(self) -> bool:
        return self._position > 0

    @property
    def can_redo(self) -> bool:
        return self._position < len(self._states) - 1

    def push(self, roster: Roster, what: str, focus: int | None = None, run: object = None) -> bool:
        """Record an edit; False (nothing recorded) when it changes nothing. `run`: what the edit
        turns (a formation's setting); edits of the same `run` one after another, with no undo
        between, replace each other, and a run back where it started leaves no state behind."""
        if roster == self.current:
            return False
        if run is not None and run == self._run and not self.can_redo:
            self._states.pop()
            self._position -= 1
            if roster == self.current:
                self._run = None
                return True
        del self._states[self._position + 1:]
        self._states.append(State(roster, what, focus))
        self._position += 1
        self._run = run
        return True

    def undo(self) -> State | None:
        """Step back; returns the undone state (its `what` and `focus`), or None at the start."""
        if not self.can_undo:
            return None
        undone = self._states[self._position]
        self._position -= 1
        self._run = None
        return undone

    def redo(self) -> State | None:
        if not self.can_redo:
            return None
        self._position += 1
        self._run = None
        return self._states[self._position]

    def reset(self, roster: Roster) -> None:
        """Start over from `roster` (a file opened or a new roster started)."""
        self._states = [State(roster, "open", None)]
        self._position = 0
        self._run: object = None  # the run the last state was pushed in
