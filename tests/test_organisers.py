"""An organiser's `check` of a folder of submissions: event rules, folders searched through, every
file left out named, CSV and HTML reports, the pool for large folders; `export`, `import`, `diff`."""

import csv
import io
import json
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from listbuilder import __version__
from listbuilder.cli import main
from listbuilder.data.catalog import data_version
from listbuilder.report.progress import Progress

ROSTERS = Path(__file__).resolve().parent / "rosters"
ASTARTES = ROSTERS / "codex-astartes"
BROKEN = "game: epic-armageddon\narmy: codex-astartes\npoints: 2000\nformations:\n  - tipe: Tactical\n"


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def inbox(tmp_path) -> Path:
    """Mixed submissions: legal, illegal (.YML), nested legal, nested unreadable, not rosters."""
    folder = tmp_path / "inbox"
    (folder / "late" / "resent").mkdir(parents=True)
    shutil.copy(ASTARTES / "legal-allies.yaml", folder / "alice.yaml")
    shutil.copy(ASTARTES / "illegal-over-points.yaml", folder / "bob.YML")
    shutil.copy(ASTARTES / "legal-scouts.yaml", folder / "late" / "carol.yml")
    (folder / "late" / "resent" / "dave.yaml").write_text(BROKEN)
    (folder / "notes.txt").write_text("Dave's list is attached")
    (folder / "alice.yaml.bak").write_text("")
    (folder / ".git").mkdir()
    (folder / ".git" / "config.yaml").write_text("")
    return folder


def test_a_folder_of_mixed_submissions_gives_the_exact_summary(capsys, inbox):
    code, out, _ = run(capsys, "check", str(inbox))
    assert code == 2  # one unreadable file
    summary = out[out.index("\n\n2 of 4 rosters legal"):].strip("\n")
    assert summary == "\n".join([
        "2 of 4 rosters legal; 1 illegal, 1 unreadable, 3 files skipped",
        "illegal:",
        f"  {inbox}/bob.YML — 1 error, first: the army costs 2,025 points, 25 over the agreed 2,000",
        "unreadable:",
        f"  {inbox}/late/resent/dave.yaml — 2 errors, first: 'type' is required here",
        "skipped:",
        f"  {inbox}/.git/ — hidden folder",
        f"  {inbox}/alice.yaml.bak — not a .yaml/.yml file or a list (.ros, .rosz, .txt)",
        f"  {inbox}/notes.txt — text, but not a list another tool wrote",
        "",
        f"checked by listbuilder {__version__} against data {data_version()}"])
    reports = [line.split(": ")[0] for line in out.splitlines() if line.startswith(str(inbox)) and ": " in line
               and line.split(": ")[1].split(" ")[0] in ("LEGAL", "ILLEGAL", "UNREADABLE")]
    assert reports == [f"{inbox}/{name}" for name in ("alice.yaml", "bob.YML", "late/carol.yml",
                                                      "late/resent/dave.yaml")]


def test_csv_has_one_row_per_roster(capsys, inbox):
    code, out, err = run(capsys, "check", str(inbox), "--format", "csv")
    assert code == 2
    header = "file,name,game,army,points,limit,verdict,errors,warnings,first error,listbuilder,data,priced under\r\n"
    assert out.startswith("\ufeff" + header)  # UTF-8 with a byte order mark: Excel then reads it as UTF-8
    rows = list(csv.DictReader(io.StringIO(out.removeprefix("\ufeff"))))
    assert [(Path(r["file"]).name, r["name"], r["points"], r["limit"], r["verdict"], r["errors"], r["first error"])
            for r in rows] == [
        ("alice.yaml", "Titans and aircraft as allies", "1660", "3000", "LEGAL", "0", ""),
        ("bob.YML", "Three heavy Tactical detachments", "2025", "2000", "ILLEGAL", "1",
         "the army costs 2,025 points, 25 over the agreed 2,000"),
        ("carol.yml", "Scouts and Devastators", "990", "2000", "LEGAL", "0", ""),
        ("dave.yaml", "", "", "", "UNREADABLE", "2", "'type' is required here")]
    assert {(r["game"], r["army"], r["warnings"], r["listbuilder"], r["data"]) for r in rows[:3]} == {
        ("epic-armageddon", "Space Marines – Codex Astartes", "0", __version__, data_version())}
    assert rows[3]["game"] == ""  # unreadable: its game is not known
    assert "2 of 4 rosters legal; 1 illegal, 1 unreadable, 3 files skipped" in err  # the summary, off the CSV


def test_csv_cells_from_a_roster_are_not_formulas(capsys, tmp_path):
    roster = tmp_path / "sneaky.yaml"
    roster.write_text((ASTARTES / "legal-scouts.yaml").read_text().replace("name: Scouts and Devastators",
                                                                            "name: =HYPERLINK(\"x\")"))
    _, out, _ = run(capsys, "check", str(roster), "--format", "csv")
    [row] = list(csv.DictReader(io.StringIO(out.removeprefix("\ufeff"))))
    assert row["name"] == "'=HYPERLINK(\"x\")"


def test_a_folder_with_no_roster_exits_2_with_a_message(capsys, tmp_path):
    (tmp_path / "readme.txt").write_text("lists go here")
    code, out, err = run(capsys, "check", str(tmp_path))
    assert code == 2
    assert f"{tmp_path}: no roster file (.yaml or .yml) in this folder or below it" in err
    assert f"{tmp_path}/readme.txt — text, but not a list another tool wrote" in out


def test_points_override_the_rosters_own_limit_for_caps_too(capsys):
    code, out, _ = run(capsys, "check", str(ASTARTES / "legal-allies.yaml"), "--points", "1500")
    assert code == 1
    assert "points: 1,660 / 1,500" in out
    assert "error: the roster's limit is 3,000 points; the event is played at 1,500 (set points: 1500) " \
           "[event rules]" in out
    assert "error: Imperial Navy and Titan Legions cost 900 points; at most 500 (1/3 of 1,500) are allowed" in out
    assert "error: the army costs 1,660 points, 160 over the agreed 1,500" in out


def test_per_points_allowances_use_the_events_figure(capsys):
    commissars = str(ROSTERS / "steel-legion" / "illegal-commissars.yaml")
    assert "Commissars: 5 in the army, at most 4 allowed" in run(capsys, "check", commissars)[1]
    _, out, _ = run(capsys, "check", commissars, "--points", "2500", "--format", "json")
    [roster] = json.loads(out)["rosters"]
    assert "points-limit-differs" in [i["code"] for i in roster["issues"]]
    assert not any(i["message"].startswith("Commissars:") for i in roster["issues"])  # 5 per 2,500 points


def test_a_roster_that_raises_its_own_limit_is_not_legal(capsys, tmp_path):
    inflated = tmp_path / "inflated.yaml"
    inflated.write_text((ASTARTES / "legal-allies.yaml").read_text().replace("points: 3000", "points: 4500"))
    code, out, _ = run(capsys, "check", str(inflated), "--points", "3000", "--format", "json")
    report = json.loads(out)
    [roster] = report["rosters"]
    assert code == 1 and roster["valid"] is False and roster["points"] == {"total": 1660, "limit": 3000}
    [issue] = roster["issues"]
    assert issue["code"] == "points-limit-differs" and issue["where"] == f"{inflated}:3:1"
    assert issue["message"] == "the roster's limit is 4,500 points; the event is played at 3,000"


def test_event_file_restricts_game_and_armies_and_is_not_a_submission(capsys, inbox):
    event = inbox / "event.yaml"
    event.write_text("name: Autumn Open\ngame: epic-armageddon\npoints: 2000\narmies: [tau, Steel Legion]\n")
    code, out, _ = run(capsys, "check", str(inbox), "--event", str(event), "--format", "json")
    report = json.loads(out)
    assert code == 2
    assert report["event"] == "Autumn Open: Epic Armageddon, 2,000 points, armies: tau, Steel Legion"
    assert {"file": str(event), "reason": "the event file"} in report["skipped"]
    bob = next(r for r in report["rosters"] if r["file"].endswith("bob.YML"))
    assert [i["code"] for i in bob["issues"]] == ["army-not-allowed", "points-over-limit"]
    assert bob["issues"][0]["message"] == ("Space Marines – Codex Astartes may not be played at Autumn Open "
                                           "(allowed: Tau – Third Phase Expansion Force, "
                                           "Imperial Guard – Steel Legion)")
    assert bob["issues"][0]["rule"] == "event rules: Autumn Open"
    # the command line overrides the file
    code, out, _ = run(capsys, "check", str(inbox / "bob.YML"), "--event", str(event), "--army", "codex-astartes",
                       "--points", "2500")
    assert code == 1 and "played at 2,500" in out and "may not be played" not in out


def test_bad_event_rules_exit_2_with_where(capsys, tmp_path):
    event = tmp_path / "event.yaml"
    event.write_text("name: Open\ngame: epic-armageddon\narmies: [codex-astartez]\n")
    code, _, err = run(capsys, "check", str(ASTARTES / "legal-allies.yaml"), "--event", str(event))
    assert code == 2
    assert f"{event}:3:10: error: unknown army 'codex-astartez'" in err and "did you mean 'codex-astartes'?" in err
    code, _, err = run(capsys, "check", "--game", "chess")
    assert code == 2 and "--game: error: unknown game 'chess'" in err


def test_html_report_parses_and_has_one_row_per_roster(capsys, inbox):
    code, out, _ = run(capsys, "check", str(inbox), "--format", "html")
    assert code == 2

    class Page(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.links, self.ids, self.tables, self.external = [], [], set(), [], []
            self.in_submissions = False

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "table":
                self.in_submissions = attrs.get("class") == "submissions"
            if tag == "tr" and self.in_submissions and attrs.get("class"):
                self.rows.append(attrs["class"])
            if tag == "a" and self.in_submissions:
                self.links.append(attrs["href"])
            if "id" in attrs:
                self.ids.add(attrs["id"])
            if "src" in attrs or tag == "link" or tag == "script":
                self.external.append(tag)

        def handle_endtag(self, tag):
            if tag == "table":
                self.in_submissions = False

    page = Page()
    page.feed(out)
    page.close()
    assert page.rows == ["LEGAL", "ILLEGAL", "LEGAL", "UNREADABLE"]
    assert [link.lstrip("#") in page.ids for link in page.links] == [True] * 4
    assert page.external == []  # self-contained
    assert "@media print" in out and f"listbuilder {__version__} against data {data_version()}" in out
    assert "Break Their Spirit: #3 Warhound Titans (500 pts)" in out  # the army's derived values
    assert "break point 14" in out and "notes.txt: text, but not a list another tool wrote" in out


def test_html_escapes_what_rosters_say(capsys, tmp_path):
    roster = tmp_path / "x.yaml"
    roster.write_text((ASTARTES / "legal-scouts.yaml").read_text().replace("name: Scouts and Devastators",
                                                                            "name: <script>alert(1)</script>"))
    _, out, _ = run(capsys, "check", str(roster), "--format", "html")
    assert "<script>" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out


def test_json_report_is_valid_json_as_json_dumps_writes_it(capsys, inbox):
    _, out, _ = run(capsys, "check", str(inbox), "--format", "json")
    report = json.loads(out)
    assert out == json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    assert report["listbuilder"] == __version__ and report["data_version"] == data_version()
    _, out, _ = run(capsys, "check", str(inbox / "notes.txt"), "--format", "json")
    assert out == json.dumps(json.loads(out), indent=2, ensure_ascii=False) + "\n"


def test_the_pool_gives_the_same_report_in_the_same_order(capsys, tmp_path):
    examples = sorted(p for p in ROSTERS.rglob("*.yaml"))[:40]
    for i, path in enumerate(examples):
        shutil.copy(path, tmp_path / f"{i:02d}-{path.name}")
    for form in ("json", "text", "csv"):
        alone = run(capsys, "check", str(tmp_path), "--format", form, "--jobs", "1")
        pooled = run(capsys, "check", str(tmp_path), "--format", form, "--jobs", "2")
        assert pooled == alone


class FakeTerminal(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


def test_progress_bar_on_a_terminal_only():
    for tty in (True, False):
        stream = FakeTerminal(tty)
        progress = Progress(200, stream, after=0)
        progress.step(100)
        progress.close()
        assert ("[###############...............] 100/200 rosters checked" in stream.getvalue()) is tty
        assert stream.getvalue().endswith("\r\x1b[2K") is tty


def test_export_import_round_trip_through_the_command_line(capsys, tmp_path):
    source = ROSTERS / "black-legion" / sorted(p.name for p in (ROSTERS / "black-legion").glob("legal*.yaml"))[0]
    code, text, _ = run(capsys, "export", str(source), "--format", "markdown")
    assert code == 0 and text.startswith("# ")
    posted = tmp_path / "post.md"
    posted.write_text(text)
    code, _, err = run(capsys, "import", str(posted), "-o", str(tmp_path / "back.yaml"))
    assert code == 0, err
    before = json.loads(run(capsys, "check", str(source), "--format", "json")[1])["rosters"][0]
    after = json.loads(run(capsys, "check", str(tmp_path / "back.yaml"), "--format", "json")[1])["rosters"][0]
    for report in (before, after):
        report.pop("file"), report.pop("issues")
    assert after == before


def test_import_writes_nothing_when_a_line_cannot_be_placed(capsys, tmp_path):
    posted = tmp_path / "post.txt"
    posted.write_text("Epic Armageddon — Codex Astartes — 3,000 points\nTactical\nand a pony\n")
    code, _, err = run(capsys, "import", str(posted), "-o", str(tmp_path / "out.yaml"))
    assert code == 2 and not (tmp_path / "out.yaml").exists()
    assert f"{posted}:3: error: cannot place 'and a pony'" in err and "nothing was written" in err


def test_diff_names_what_changed(capsys, tmp_path):
    old = ASTARTES / "legal-allies.yaml"
    new = tmp_path / "resubmitted.yaml"
    new.write_text(old.read_text().replace("      Razorbacks: 1\n", "      Razorbacks: 2\n")
                   .replace("  - type: Marauder Bombers\n", "  - type: Scout\n"))
    code, out, _ = run(capsys, "diff", str(old), str(new))
    assert code == 1
    assert out.splitlines() == [
        f"{old} → {new}",
        "~ #2 Devastator: 360 pts → 385 pts (+25)",
        "    Razorbacks ×1 → Razorbacks ×2",
        "− #5 Marauder Bombers removed (250 pts)",
        "+ #5 Scout added (150 pts)",
        "total: 1,660 → 1,585 points (-75); LEGAL → LEGAL"]
    assert run(capsys, "diff", str(old), str(old))[0] == 0


def test_json_text_is_what_json_dumps_writes(check):
    from listbuilder.games import summarise
    from listbuilder.report.submissions import json_text, result_json

    records = [result_json(str(path), summarise(check(str(path.relative_to(ROSTERS)))))
               for path in sorted(ROSTERS.rglob("legal*.yaml"))]
    records.append({"file": "odd\x00\x1f\x7f\u2028\U0001F600\ud800.yaml", "n": [2 ** 70, None, True], "e": {}})
    for record in records:
        assert json_text(record) == json.dumps(record, indent=2, ensure_ascii=False)


def test_links_to_folders_are_listed_not_followed(tmp_path):
    from listbuilder.rosters.batch import roster_files

    (tmp_path / "inbox").mkdir()
    shutil.copy(ASTARTES / "legal-scouts.yaml", tmp_path / "inbox" / "a.yaml")
    (tmp_path / "inbox" / "loop").symlink_to(tmp_path / "inbox")  # followed, it would never end
    found, skipped, empty = roster_files([str(tmp_path / "inbox")])
    assert [item.shown for item in found] == [f"{tmp_path}/inbox/a.yaml"] and empty == []
    assert [(s.file, s.reason) for s in skipped] == [(f"{tmp_path}/inbox/loop/", "link to a folder (not followed)")]


def test_an_internal_error_names_its_file_and_exits_3(capsys, inbox, monkeypatch):
    import listbuilder.report.folder as batch

    read = batch.read_file

    def broken_on_bob(path, catalog, shown, data=None):
        if path.name == "bob.YML":
            raise ZeroDivisionError("a bug")
        return read(path, catalog, shown, data)

    monkeypatch.setattr(batch, "read_file", broken_on_bob)
    code, out, _ = run(capsys, "check", str(inbox))
    assert code == 3
    assert f"{inbox}/bob.YML: INTERNAL ERROR\n  {inbox}/bob.YML: error: internal error while checking this file: " \
           "ZeroDivisionError: a bug (please report it, with the file)" in out
    assert "2 of 4 rosters legal; 1 unreadable, 1 internal error, 3 files skipped" in out  # the others still checked
    code, out, _ = run(capsys, "check", str(inbox), "--format", "json")
    bob = next(r for r in json.loads(out)["rosters"] if r["file"].endswith("bob.YML"))
    assert code == 3 and bob["internal_error"] is True and bob["readable"] is False


def test_each_file_is_checked_with_the_collector_paused_and_on_again_after(capsys, inbox, monkeypatch):
    """docs/speed.md: a roster's check builds many objects that collections would trace again and
    again; it runs with the collector off, which is on again for the next file (and its cycles then
    collected), also when the file cannot be read."""
    import gc

    import listbuilder.report.folder as batch

    read, seen = batch.read_file, []

    def noting(path, catalog, shown, data=None):
        seen.append((path.name, gc.isenabled()))
        return read(path, catalog, shown, data)

    monkeypatch.setattr(batch, "read_file", noting)
    code, _, _ = run(capsys, "check", str(inbox))
    assert code == 2 and gc.isenabled()
    assert sorted(seen) == [("alice.yaml", False), ("bob.YML", False), ("carol.yml", False), ("dave.yaml", False)]
