"""`listbuilder stats`: what the field plays, over a folder of checked rosters of any game — lists
per army and detachment, each datasheet (formation, detachment list) with how many lists take it
and how many copies in all, points by the game's categories, and each list's size — as text, JSON,
CSV or one HTML page with bars. Game-neutral: each game fills a FieldFacts (core.system) per roster;
this module only adds them up. Everything from a roster file is escaped, as the check's reports do."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from html import escape
from typing import Any

from ..core.system import FieldFacts
from ..rosters.batch import Skipped
from .html import STYLE
from .safe import printable, printable_lines
from .submissions import Provenance, Submission, csv_cell, surrogates_escaped

Stats = dict[str, Any]  # the statistics as the JSON report holds them; every other form renders it


def _share(part: int, whole: int) -> float:
    return round(100 * part / whole, 1) if whole else 0.0


def _mean(values: list[int]) -> float:
    return round(sum(values) / len(values), 1) if values else 0.0


def _game(game: str, name: str, rows: list[tuple[str, FieldFacts]]) -> Stats:
    """One game's statistics from its rosters' facts (file, facts), in the order of the files."""
    first = rows[0][1]
    armies = Counter(f.army for _, f in rows)
    detachments = Counter((f.army, f.detachment) for _, f in rows if f.detachment)
    taking: Counter[tuple[str, str]] = Counter()
    copies: Counter[tuple[str, str]] = Counter()
    points: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for _, facts in rows:
        for entry, n in facts.entries.items():
            taking[facts.army, entry] += 1
            copies[facts.army, entry] += n
        points.update(facts.points)
        sizes.update(facts.sizes)
    total = sum(points.values())
    sizes_of = [_size(f) for _, f in rows]
    return {
        "game": game, "name": name, "lists": len(rows), "entry_kind": first.entry_kind, "counted": first.counted,
        "armies": [{"army": army, "lists": n,
                    "detachments": [{"detachment": d, "lists": m}
                                    for (a, d), m in sorted(detachments.items(), key=lambda i: (-i[1], i[0]))
                                    if a == army]}
                   for army, n in sorted(armies.items(), key=lambda i: (-i[1], i[0]))],
        "entries": [{"army": army, "entry": entry, "lists": n, "copies": copies[army, entry]}
                    for (army, entry), n in sorted(taking.items(), key=lambda i: (-i[1], -copies[i[0]], i[0]))],
        "categories": [{"category": c, "points": p, "share": _share(p, total), first.counted: sizes[c]}
                       for c, p in points.items()],
        "points_total": total,
        "mean": {what: _mean([size[what] for size in sizes_of]) for what in sizes_of[0]},
        "rosters": [{"file": file, "army": f.army, **({"detachment": f.detachment} if f.detachment else {}), **size}
                    for (file, f), size in zip(rows, sizes_of)],
    }


def _size(facts: FieldFacts) -> dict[str, int]:
    """A list's points and size as its game counts them: models and wounds, or units and activations."""
    size = {"points": sum(facts.points.values()), facts.counted: facts.models}
    if facts.wounds is not None:
        size["wounds"] = facts.wounds
    if facts.activations is not None:
        size["activations"] = facts.activations
    return size


def field_stats(submissions: list[Submission], skipped: list[Skipped], provenance: Provenance,
                names: dict[str, str]) -> Stats:
    """The field's statistics: every roster that could be read (legal or not) counted under its game
    (`names`: game id -> printed name), games in the order of their ids; the files that could not."""
    by_game: dict[str, list[tuple[str, FieldFacts]]] = {}
    for s in submissions:
        if s.facts is not None:
            by_game.setdefault(s.game, []).append((s.file, s.facts))
    stats: Stats = {
        "lists": sum(len(rows) for rows in by_game.values()),
        "games": [_game(game, names.get(game, game), by_game[game]) for game in sorted(by_game)],
        "not_counted": [{"file": s.file, "verdict": s.verdict} for s in submissions if s.facts is None],
        "skipped": [{"file": s.file, "reason": s.reason} for s in skipped],
        "listbuilder": provenance.version, "data_version": provenance.data,
    }
    if provenance.event:
        stats["event"] = provenance.event
    return stats


def stats_report(form: str, stats: Stats, heading: str = "Field statistics") -> str:
    """The statistics in `form`: text, json, csv or html."""
    if form == "json":
        return json.dumps(stats, indent=2, ensure_ascii=False) + "\n"
    if form == "csv":
        return surrogates_escaped(stats_csv(stats))
    if form == "html":
        return surrogates_escaped(stats_html(stats, heading))
    return stats_text(stats) + "\n"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _provenance(stats: Stats) -> str:
    return f"counted by listbuilder {stats['listbuilder']} against data {stats['data_version']}" + (
        f"; {stats['event']}" if "event" in stats else "")


def _left_out(stats: Stats) -> list[str]:
    """Files not counted: unreadable ones (as the check reports them) and files skipped."""
    return ([f"not counted: {n['file']} ({n['verdict']})" for n in stats["not_counted"]]
            + [f"skipped: {s['file']} ({s['reason']})" for s in stats["skipped"]])


def stats_text(stats: Stats) -> str:
    lines = [f"{_plural(stats['lists'], 'list')} counted"]
    for game in stats["games"]:
        kind, counted = game["entry_kind"], game["counted"]
        lines += ["", f"{game['name']}: {_plural(game['lists'], 'list')}", "  armies:"]
        for army in game["armies"]:
            lines.append(f"    {army['lists']:>5}  {army['army']}")
            lines += [f"    {d['lists']:>5}    {d['detachment']}" for d in army["detachments"]]
        lines.append(f"  {kind}s (lists taking it, copies in all):")
        lines += [f"    {e['lists']:>5} {e['copies']:>6}  {e['entry']} ({e['army']})" for e in game["entries"]]
        lines.append(f"  by category: points ({game['points_total']:,} in all), share, {counted}:")
        lines += [f"    {c['points']:>9,}  {c['share']:5.1f}%  {c[counted]:>7,}  {c['category']}"
                  for c in game["categories"]]
        lines.append("  per list (mean): " + ", ".join(f"{value:,} {what}" for what, value in game["mean"].items()))
        for r in game["rosters"]:
            size = ", ".join(_plural(r[what], what[:-1]) for what in (counted, "wounds", "activations") if what in r)
            lines.append(f"    {r['file']}: {r['army']}, {r['points']:,} points, {size}")
    left = _left_out(stats)
    if left:
        lines += ["", *left]
    lines += ["", _provenance(stats)]
    return printable_lines("\n".join(lines))


CSV_COLUMNS = ["table", "game", "army", "name", "lists", "copies", "points", "share", "models or units", "wounds",
               "activations"]


def stats_csv(stats: Stats) -> str:
    """One table of every figure, a column `table` telling which: army, detachment, the entries
    (datasheet, formation or detachment list), category and roster (one list: its file in
    `name`); a category's row holds its points and its models or units. UTF-8 with a byte order
    mark, names made inert for spreadsheets, as `check`'s CSV."""
    stream = io.StringIO()
    stream.write("\ufeff")
    writer = csv.writer(stream)
    writer.writerow(CSV_COLUMNS)

    def row(table: str, game: Stats, army: str = "", name: str = "", lists: int | None = None,
            copies: int | None = None, points: int | None = None, share: float | None = None,
            models: int | None = None, wounds: int | None = None, activations: int | None = None) -> None:
        writer.writerow([csv_cell(v) for v in (table, game["game"], army, name, lists, copies, points, share, models,
                                            wounds, activations)])

    for game in stats["games"]:
        for army in game["armies"]:
            row("army", game, army["army"], lists=army["lists"])
            for d in army["detachments"]:
                row("detachment", game, army["army"], d["detachment"], d["lists"])
        for e in game["entries"]:
            row(game["entry_kind"], game, e["army"], e["entry"], e["lists"], e["copies"])
        for c in game["categories"]:
            row("category", game, name=c["category"], lists=game["lists"], points=c["points"], share=c["share"],
                models=c[game["counted"]])
        for r in game["rosters"]:
            row("roster", game, r["army"], r["file"], points=r["points"], models=r[game["counted"]],
                wounds=r.get("wounds"), activations=r.get("activations"))
    return stream.getvalue()


BAR_STYLE = """
.bar { display: inline-block; height: 0.8em; background: #4a7ab5; vertical-align: middle;
       print-color-adjust: exact; -webkit-print-color-adjust: exact; }
td.chart { width: 16em; }
"""


def _bar(value: int | float, most: int | float) -> str:
    """A bar as wide as `value` is of `most` (no script, no image: a styled span)."""
    width = round(100 * value / most, 1) if most else 0
    return f'<td class="chart"><span class="bar" style="width: {width}%"></span></td>'


def _table(headings: list[str], rows: list[list[Any]], bar_of: int) -> str:
    """A table whose column `bar_of` (a number) is drawn as a bar too; every cell escaped."""
    most = max((r[bar_of] for r in rows), default=0)

    def cell(value: Any) -> str:
        if isinstance(value, (int, float)):
            return f'<td class="number">{value:,}</td>'
        return f"<td>{escape(printable(str(value)))}</td>"

    head = "".join(f"<th>{escape(h)}</th>" for h in headings)
    body = "".join("<tr>" + "".join(cell(v) for v in r) + _bar(r[bar_of], most) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}<th></th></tr></thead><tbody>{body}</tbody></table>"


def stats_html(stats: Stats, heading: str) -> str:
    parts = [f"<p>{_plural(stats['lists'], 'list')} counted</p>"]
    for game in stats["games"]:
        kind, counted = game["entry_kind"], game["counted"]
        armies = []
        for army in game["armies"]:
            armies.append([army["army"], army["lists"]])
            armies += [[f"— {d['detachment']}", d["lists"]] for d in army["detachments"]]
        sizes = [w for w in (counted, "wounds", "activations") if w in game["mean"]]
        parts += [f"<h2>{escape(game['name'])}: {_plural(game['lists'], 'list')}</h2>",
                  "<h3>Armies and detachments</h3>", _table(["army, detachment", "lists"], armies, 1),
                  f"<h3>{escape(kind.capitalize())}s</h3>",
                  _table([kind, "army", "lists", "copies"],
                         [[e["entry"], e["army"], e["lists"], e["copies"]] for e in game["entries"]], 2),
                  f"<h3>By category: points ({game['points_total']:,} in all) and {escape(counted)}</h3>",
                  _table(["category", "points", "share %", counted],
                         [[c["category"], c["points"], c["share"], c[counted]] for c in game["categories"]],
                         1 if game["points_total"] else 3),
                  "<h3>Each list</h3>",
                  _table(["file", "army", "points", *sizes],
                         [[r["file"], r["army"], r["points"], *(r[w] for w in sizes)] for r in game["rosters"]], 2)]
    left = _left_out(stats)
    if left:
        parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in left) + "</ul>")
    page = ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(heading)}</title><style>{STYLE}{BAR_STYLE}</style></head><body>"
            f"<h1>{escape(heading)}</h1><p class=\"meta\">{escape(_provenance(stats))}</p>{''.join(parts)}"
            "</body></html>\n")
    return printable_lines(page)  # as the check's page: control characters and bidi marks escaped
