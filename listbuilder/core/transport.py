"""Transport capacity: how many vehicles a formation needs to carry its units."""

from __future__ import annotations

from .datasheet import Datasheet
from .names import name_key


def space_taken(carrier: Datasheet, passenger: Datasheet) -> dict[int, int]:
    """Compartment index -> spaces `passenger` takes in it, for compartments that can hold it."""
    key = name_key(passenger.name)
    return {
        i: spaces
        for i, compartment in enumerate(carrier.transport)
        for cargo, spaces in compartment.carries.items()
        if name_key(cargo.rpartition(":")[2]) == key
    }


def can_carry(carrier: Datasheet, passenger: Datasheet) -> bool:
    return bool(space_taken(carrier, passenger))


def transports_needed(vehicle: Datasheet, passengers: list[Datasheet], carriers: list[Datasheet]) -> int:
    """The fewest `vehicle`s that, with the `carriers` already in the formation, carry every
    passenger a `vehicle` could carry. Passengers no `vehicle` can carry board the other carriers
    first, since they have nowhere else to go; then the largest passengers are placed first."""
    free = [[c.slots for c in carrier.transport] for carrier in carriers]

    def board(passenger: Datasheet) -> bool:
        for carrier, room in zip(carriers, free):
            for i, spaces in space_taken(carrier, passenger).items():
                if room[i] >= spaces:
                    room[i] -= spaces
                    return True
        return False

    riders = [p for p in passengers if can_carry(vehicle, p)]
    for passenger in passengers:
        if passenger not in riders:
            board(passenger)
    riders.sort(key=lambda p: -max(space_taken(vehicle, p).values()))
    opened = 0
    for passenger in riders:
        if board(passenger):
            continue
        carriers = [*carriers, vehicle]
        free.append([c.slots for c in vehicle.transport])
        opened += 1
        board(passenger)
    return opened
