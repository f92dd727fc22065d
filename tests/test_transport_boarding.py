"""Boarding a run of like passengers at once (core.transport) places them exactly as boarding them
one at a time, first carrier and compartment first, would: checked against that plain loop."""

from hypothesis import given, settings
from hypothesis import strategies as st

from listbuilder.core.names import name_key
from listbuilder.listengine.datasheet import Compartment, Datasheet
from listbuilder.listengine.transport import _largest_first, board, can_carry, transports_needed

PASSENGERS = ["Infantry", "Dreadnought", "Big Gun"]


def _sheet(name: str, transport: list[Compartment] | None = None) -> Datasheet:
    return Datasheet(name=name, type="AV" if transport else "INF", transport=transport or [], lines=[1])


compartments = st.builds(
    lambda slots, carries, most: Compartment(slots=slots, carries=carries, most=most),
    st.integers(1, 6),
    st.dictionaries(st.sampled_from(PASSENGERS), st.integers(1, 3), min_size=1),
    st.dictionaries(st.sampled_from(PASSENGERS), st.integers(0, 2), max_size=1))
carriers = st.lists(compartments, min_size=1, max_size=3).map(lambda c: _sheet("Carrier", c))
passengers = st.lists(st.sampled_from(PASSENGERS), max_size=30).map(lambda names: [_sheet(n) for n in names])


def _one_at_a_time(holds: list[tuple[Datasheet, list[int], list[dict[str, int]]]], passenger: Datasheet) -> bool:
    """The plain first-fit loop the batched boarding must agree with."""
    key = name_key(passenger.name)
    for carrier, room, held in holds:
        for i, spaces in carrier.room_by_key.get(key, {}).items():
            most = carrier.transport[i].most_by_key.get(key)
            if room[i] >= spaces and (most is None or held[i].get(passenger.name, 0) < most):
                room[i] -= spaces
                held[i][passenger.name] = held[i].get(passenger.name, 0) + 1
                return True
    return False


def _one_by_one(passengers: list[Datasheet], carriers: list[Datasheet]) -> list[Datasheet]:
    """The passengers in the order they board, each sorted on its own."""
    return [run[0] for run in _largest_first([[p] for p in passengers], carriers)]


def _hold(carrier: Datasheet) -> tuple[Datasheet, list[int], list[dict[str, int]]]:
    return carrier, [c.slots for c in carrier.transport], [{} for _ in carrier.transport]


@settings(max_examples=200, deadline=None)
@given(st.lists(carriers, max_size=3), passengers)
def test_board_places_a_run_as_one_at_a_time_would(fleet, riders):
    holds = [_hold(c) for c in fleet]
    expected = [p.name for p in _one_by_one(riders, fleet) if not _one_at_a_time(holds, p)]
    left, spare = board(fleet, riders)
    assert [p.name for p in left] == expected
    assert spare == sum(sum(room) for _, room, _ in holds)


@settings(max_examples=200, deadline=None)
@given(carriers, st.lists(carriers, max_size=2), passengers)
def test_transports_needed_opens_as_many_as_one_at_a_time_would(vehicle, fleet, riders):
    holds = [_hold(c) for c in fleet]
    for p in riders:
        if not can_carry(vehicle, p):
            _one_at_a_time(holds, p)
    opened = 0
    for p in _one_by_one([p for p in riders if can_carry(vehicle, p)], [vehicle]):
        if not _one_at_a_time(holds, p):
            holds.append(_hold(vehicle))
            opened += 1
            _one_at_a_time(holds, p)
    assert transports_needed(vehicle, riders, fleet) == opened


def test_room_left_in_vehicles_opened_together_takes_the_next_passengers():
    # each vehicle takes two of the big passengers (2 spaces each) and has a space left over: the
    # three opened for six of them carry the three small ones too, as one at a time would
    vehicle = _sheet("Carrier", [Compartment(slots=5, carries={"Dreadnought": 2, "Infantry": 1})])
    riders = [_sheet("Dreadnought")] * 6 + [_sheet("Infantry")] * 3
    assert transports_needed(vehicle, riders, []) == 3
    assert transports_needed(vehicle, riders + [_sheet("Infantry")], []) == 4
