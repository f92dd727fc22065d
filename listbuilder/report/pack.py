"""`listbuilder pack`: the event pack, every list of an organiser's folder in one normalised layout
(game, army, detachment, units with their loadouts and points, the values that matter at the table,
the verdict and the findings), a contents list first, in the order the organiser chooses, optionally
anonymised. The lists are read and checked as `listbuilder check` reads them (rosters.batch); what
each shows is its game's summary (core.system.RosterSummary), so this module knows no game. The PDF
is report/pdf/pack.py's; the HTML page is here."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from pathlib import PurePath
from typing import Any

from ..core.event import Event
from ..core.findings import Finding, Location
from ..core.system import RosterSummary
from ..games import field_facts, summarise
from ..listengine.catalog import Catalog
from ..rosters.batch import RosterItem, check_file
from .folder import failure
from .html import STYLE, failure_html, roster_html
from .safe import printable_lines
from .stats import Stats, stats_text
from .submissions import ILLEGAL, LEGAL, Submission, surrogates_escaped

ORDERS = ("file", "player", "faction")
SHORTEST_NAME_REPLACED = 3  # anonymising: a shorter roster name is too likely a part of other words


@dataclass
class PackedList:
    """One file of the folder as the pack shows it: checked (`result`, its `summary`) or not
    readable (`findings` say why, `verdict` UNREADABLE or INTERNAL ERROR)."""

    file: str  # the file's name as given, or "List 7" when anonymised
    verdict: str
    result: Any = None
    summary: RosterSummary | None = None
    findings: list[Finding] = dataclasses.field(default_factory=list)

    @property
    def name(self) -> str:
        return self.summary.name if self.summary else ""

    @property
    def army(self) -> str:
        return self.summary.army if self.summary else ""

    @property
    def player(self) -> str:
        """Who brought the list: the roster's own name, else its file's name without the suffix
        (organisers name submissions by player; most list tools put the player in the list's name)."""
        return self.name or PurePath(self.file).stem


def checked(items: Iterable[RosterItem], catalog: Catalog, event: Event | None) -> list[PackedList]:
    """Each file read and checked as `listbuilder check` does (by the event's rules, if any), in order."""
    lists = []
    for path, shown, data in items:
        try:
            result = check_file(path, catalog, shown, event, data)
        except Exception as error:  # one bad file is a page of the pack saying why, as in check's report
            verdict, findings = failure(error, shown)
            lists.append(PackedList(shown, verdict, findings=findings))
            continue
        summary = summarise(result)
        lists.append(PackedList(shown, LEGAL if summary.valid else ILLEGAL, result, summary))
    return lists


def ordered(lists: list[PackedList], order: str) -> list[PackedList]:
    """By file (the order `check` reports them in), player, or faction (game, army, then player);
    files that could not be read last, by file, in the two orders that need what a list holds."""
    if order == "file":
        return list(lists)
    if order not in ORDERS:
        raise ValueError(f"unknown order '{order}' (known: {', '.join(ORDERS)})")

    def key(packed: PackedList) -> tuple[Any, ...]:
        if packed.summary is None:
            return (1, packed.file)
        player = packed.player.casefold()
        if order == "player":
            return (0, player, packed.file)
        return (0, packed.summary.game.casefold(), packed.army.casefold(), player, packed.file)

    return sorted(lists, key=key)


def anonymised(lists: list[PackedList]) -> list[PackedList]:
    """Each list as 'List n' (n its place in the pack): its file's name and its roster's name gone
    from its title, its findings' places and their words."""
    return [_anonymised(packed, f"List {number}") for number, packed in enumerate(lists, start=1)]


def _anonymised(packed: PackedList, label: str) -> PackedList:
    names = [packed.file, PurePath(packed.file).name]
    if len(packed.name) >= SHORTEST_NAME_REPLACED:
        names.append(packed.name)
    names.sort(key=len, reverse=True)  # the path before the file's name within it

    def hidden(text: str) -> str:
        for name in names:
            text = text.replace(name, label)
        return text

    def finding(f: Finding) -> Finding:
        location = f.location and Location(label, f.location.line, f.location.column)
        return dataclasses.replace(f, message=hidden(f.message), location=location,
                                   suggestion=f.suggestion and hidden(f.suggestion))

    if packed.result is None:
        return dataclasses.replace(packed, file=label, findings=[finding(f) for f in packed.findings])
    packed.result.findings = [finding(f) for f in packed.result.findings]
    summary = dataclasses.replace(summarise(packed.result), name=label)
    return dataclasses.replace(packed, file=label, summary=summary)


def submissions(lists: list[PackedList]) -> list[Submission]:
    """The lists as `check` and `stats` report them, each under its name in the pack: what says which
    data checked them (Provenance.of) and what the field's statistics count (stats.field_stats)."""
    found = []
    for packed in lists:
        if packed.result is None or packed.summary is None:
            found.append(Submission.of_failure(packed.file, packed.findings, verdict=packed.verdict))
            continue
        submission = Submission.of_summary(packed.file, packed.summary, game=packed.result.roster.game)
        submission.facts = field_facts(packed.result)
        found.append(submission)
    return found


# ------------------------------------------------------------- the HTML pack


def pack_html(lists: list[PackedList], heading: str, provenance: str, stats: Stats | None = None) -> str:
    """One self-contained page: the contents, linking to each list's section (a page of its own
    when printed), then the field's statistics. Everything from a roster file is escaped."""
    contents = "".join(
        f'<li><a href="#list-{n}">{escape(p.file)}</a>'
        + (f" — {escape(p.name)}" if p.name and p.name != p.file else "")
        + (f" — {escape(p.army)} ({escape(p.summary.game)})" if p.summary else "")
        + f" — {p.verdict}</li>" for n, p in enumerate(lists, start=1))
    sections = "".join(
        f'<section class="roster" id="list-{n}">'
        + (roster_html(p.file, p.summary) if p.summary else failure_html(p.file, p.findings, p.verdict))
        + "</section>" for n, p in enumerate(lists, start=1))
    statistics = "" if stats is None else "<p><a href=\"#statistics\">Field statistics</a></p>"
    if stats is not None:
        sections += (f'<section class="roster" id="statistics"><h2>Field statistics</h2>'
                     f"<pre>{escape(stats_text(stats))}</pre></section>")
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(heading)}</title><style>{STYLE}</style></head><body>"
            f"<h1>{escape(heading)}</h1><p class=\"meta\">{escape(provenance)}</p>"
            f"<h2>Contents</h2><ol class=\"contents\">{contents}</ol>{statistics}{sections}</body></html>\n")
    return surrogates_escaped(printable_lines(page))
