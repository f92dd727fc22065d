"""Transport capacity: how many vehicles a formation needs to carry its units."""

from __future__ import annotations

from itertools import groupby
from operator import attrgetter

from ..core.names import name_key
from .datasheet import Datasheet


def space_taken(carrier: Datasheet, passenger: Datasheet) -> dict[int, int]:
    """Compartment index -> spaces `passenger` takes in it, for compartments that can hold it."""
    return carrier.room_by_key.get(name_key(passenger.name), {})


def can_carry(carrier: Datasheet, passenger: Datasheet) -> bool:
    return bool(space_taken(carrier, passenger))


def _most(carrier: Datasheet, compartment: int, passenger: Datasheet) -> int | None:
    """How many units like `passenger` the compartment may hold at most, if it says."""
    return carrier.transport[compartment].most_by_key.get(name_key(passenger.name))


class _Holds:
    """The free spaces of some carriers, filled one passenger at a time."""

    def __init__(self, carriers: list[Datasheet]):
        self.carriers: list[Datasheet] = []
        self.free: list[list[int]] = []
        self.held: list[list[dict[str, int]]] = []  # per carrier and compartment: passenger name -> how many aboard
        # passenger name -> the first carrier that may still have room for one: space only ever
        # fills, so a carrier that once had no room for a passenger never has for its like
        self.first_open: dict[str, int] = {}
        for carrier in carriers:
            self.add(carrier)

    def add(self, carrier: Datasheet) -> None:
        self.carriers.append(carrier)
        self.free.append([c.slots for c in carrier.transport])
        self.held.append([{} for _ in carrier.transport])

    def board(self, passenger: Datasheet, number: int = 1) -> int:
        """Put up to `number` passengers like `passenger` aboard, each in the first carrier and
        compartment with room, as if one at a time: how many found a place."""
        name, key = passenger.name, name_key(passenger.name)
        boarded = 0
        for k in range(self.first_open.get(name, 0), len(self.carriers)):
            carrier, room, held = self.carriers[k], self.free[k], self.held[k]
            for i, spaces in carrier.room_by_key.get(key, {}).items():
                fits = room[i] // spaces if spaces else number
                most = carrier.transport[i].most_by_key.get(key)
                if most is not None:
                    fits = min(fits, most - held[i].get(name, 0))
                taken = min(fits, number - boarded)
                if taken > 0:
                    room[i] -= taken * spaces
                    held[i][name] = held[i].get(name, 0) + taken
                    boarded += taken
                    if boarded == number:
                        self.first_open[name] = k
                        return boarded
        self.first_open[name] = len(self.carriers)
        return boarded

    def add_like_last(self, copies: int, passenger: Datasheet) -> None:
        """`copies` more carriers loaded as the last one is, which `passenger`'s like fills."""
        for _ in range(copies):
            self.carriers.append(self.carriers[-1])
            self.free.append(list(self.free[-1]))
            self.held.append([dict(held) for held in self.held[-1]])
        self.first_open[passenger.name] = len(self.carriers)

    @property
    def spare(self) -> int:
        return sum(sum(room) for room in self.free)


def _largest_first(runs: list[list[Datasheet]], carriers: list[Datasheet]) -> list[list[Datasheet]]:
    """Runs of passengers (_runs), larger passengers first; among equals, those a compartment
    limits (a Big Gun) before the rest. Sorted in order as the passengers one by one would be."""
    def order(run: list[Datasheet]) -> tuple[int, bool]:
        taken = [(c, i, n) for c in carriers for i, n in space_taken(c, run[0]).items()]
        limited = any(_most(c, i, run[0]) is not None for c, i, _ in taken)
        return -max((n for _, _, n in taken), default=0), not limited
    return sorted(runs, key=order)


def transports_needed(vehicle: Datasheet, passengers: list[Datasheet], carriers: list[Datasheet]) -> int:
    """The fewest `vehicle`s that, with the `carriers` already in the formation, carry every
    passenger a `vehicle` could carry. Passengers no `vehicle` can carry board the other carriers
    first, since they have nowhere else to go; then the largest passengers are placed first."""
    holds = _Holds(carriers)
    riders: list[list[Datasheet]] = []
    for run in _runs(passengers):
        if can_carry(vehicle, run[0]):
            riders.append(run)
        else:
            holds.board(run[0], len(run))
    opened = 0
    for run in _largest_first(riders, [vehicle]):
        left = len(run) - holds.board(run[0], len(run))
        while left:
            holds.add(vehicle)
            opened += 1
            boarded = holds.board(run[0], left)
            left -= boarded or 1  # one no vehicle can hold is left behind, and the next opens another
            if boarded and left >= boarded:  # the vehicle is full of them: as many more take as many each
                alike = left // boarded
                holds.add_like_last(alike, run[0])
                opened += alike
                left -= alike * boarded
    return opened


def _runs(passengers: list[Datasheet]) -> list[list[Datasheet]]:
    """`passengers` in runs of the same unit, in order: each run boards at once."""
    return [list(run) for _, run in groupby(passengers, key=attrgetter("name"))]


def board(carriers: list[Datasheet], passengers: list[Datasheet]) -> tuple[list[Datasheet], int]:
    """Put `passengers` (largest first) into `carriers`: those left without a place, and the spaces
    left empty."""
    holds = _Holds(carriers)
    left = [p for run in _largest_first(_runs(passengers), carriers) for p in run[holds.board(run[0], len(run)):]]
    return left, holds.spare


def load_whole(carriers: list[Datasheet], formations: list[list[Datasheet]]) -> list[int]:
    """Put each formation's units, whole, aboard one of the `carriers`; several may share one where
    they fit, but none is split between two. The indexes of the formations left without a place
    (none when every one fits)."""
    order = sorted(range(len(formations)), key=lambda i: -len(formations[i]))
    aboard: list[list[Datasheet]] = [[] for _ in carriers]

    def fits(c: int, units: list[Datasheet]) -> bool:
        return not board([carriers[c]], aboard[c] + units)[0]

    def place(k: int) -> bool:
        if k == len(order):
            return True
        units, tried = formations[order[k]], set()
        for c, carrier in enumerate(carriers):
            state = (carrier.name, tuple(sorted(s.name for s in aboard[c])))
            if state in tried or not fits(c, units):
                continue  # a carrier like one tried already, as loaded, gives the same outcome
            tried.add(state)
            aboard[c] += units
            if place(k + 1):
                return True
            del aboard[c][len(aboard[c]) - len(units):]
        return False

    if place(0):
        return []
    aboard = [[] for _ in carriers]
    left = []
    for i in order:  # no way fits them all: say which the first-fit loading leaves behind
        c = next((c for c in range(len(carriers)) if fits(c, formations[i])), None)
        if c is None:
            left.append(i)
        else:
            aboard[c] += formations[i]
    return sorted(left)
