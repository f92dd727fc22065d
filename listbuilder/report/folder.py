"""An organiser's folder checked on every core for large folders, each result rendered in the
worker that checked it, and the results in the order of the files."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..core.findings import Finding, LoadFailure, Location
from ..core.longlived import collector_paused
from ..data.catalog import data_versions, with_data
from ..listengine.catalog import Catalog
from ..rosters.batch import RosterItem, check_read, priced_under, read_file
from ..rosters.files import RosterFile
from .submissions import INTERNAL, UNREADABLE, Submission, render_failure, render_result

if TYPE_CHECKING:
    from ..core.event import Event

POOL_FROM = 32  # fewer files are checked in this process: starting workers would cost more


# What a worker checks with: set before the pool starts (inherited by forked workers) or by its
# initializer (where workers are spawned).
_job: tuple[Catalog, Event | None, str, bool] | None = None
# The versions of the imported data (label -> its revision and the catalog with it), where there are
# several: looked up on the first list that states a total, so that a folder of Epic rosters never reads them
_versions: dict[str, tuple[str, Catalog]] | None = None


def _start(catalog: Catalog, event: Event | None, form: str, priced: bool) -> None:
    global _job, _versions
    _job, _versions = (catalog, event, form, priced), None


def _priced_under(roster_file: RosterFile, result: Any, catalog: Catalog) -> str:
    global _versions
    if getattr(roster_file.document, "stated_total", None) is None:
        return ""
    if _versions is None:
        _versions = {label: (revision, with_data(catalog, label)) for label, revision in data_versions()}
    return priced_under(roster_file, result, _versions)


def _check(item: RosterItem) -> Submission:
    with collector_paused():
        return _checked(item)


def _checked(item: RosterItem) -> Submission:
    assert _job is not None
    catalog, event, form, priced = _job
    path, shown, data = item
    try:
        roster_file = read_file(path, catalog, shown, data)
        result = check_read(roster_file, catalog, event)
        priced_as = _priced_under(roster_file, result, catalog) if priced else ""
    except Exception as error:  # one bad file never hides the report of the others
        verdict, findings = failure(error, shown)
        return Submission.of_failure(shown, findings, render_failure(shown, findings, form, verdict), verdict)
    return render_result(shown, result, form, priced_as)


def failure(error: Exception, shown: str) -> tuple[str, list[Finding]]:
    """The verdict and the findings of a file whose check raised `error`: unreadable, or a bug."""
    if isinstance(error, LoadFailure):
        return UNREADABLE, error.findings
    return INTERNAL, [Finding("internal-error", f"internal error while checking this file: {type(error).__name__}: "
                              f"{error} (please report it, with the file)", location=Location(shown))]


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def check_all(items: list[RosterItem], catalog: Catalog, event: Event | None, form: str,
              jobs: int | None = None, priced: bool = False) -> Iterator[Submission]:
    """Each file checked and rendered in `form`, in the order given; on `jobs` processes (default:
    every core) when there are enough files to be worth it. `priced`: each list that states a total
    says which installed version of the data it was priced under (`priced_under`), where there are several."""
    jobs = min(jobs or cores(), len(items) // (POOL_FROM // 2) or 1)
    _start(catalog, event, form, priced)
    if jobs <= 1 or len(items) < POOL_FROM:
        yield from map(_check, items)
        return
    import multiprocessing  # loaded only for a pool: a few files are checked without one
    from concurrent.futures import ProcessPoolExecutor

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_start,
                             initargs=(catalog, event, form, priced)) as pool:
        yield from pool.map(_check, items, chunksize=max(1, min(64, len(items) // (jobs * 8))))
