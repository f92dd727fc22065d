"""`listbuilder pack`: the event pack of a folder of the three games' rosters in every form `check`
reads (our YAML, New Recruit's text, a BattleScribe .ros) and a file that is not a roster. Checked
by the text of the PDF (pypdf, and poppler's pdftotext -layout for the contents' rows), its
metadata, and a page rendered with pdftoppm.

The folder, each file named after its player (the roster's own name comes first for `--order
player`; a roster without one goes by its file's stem):
  epic/zoe.yaml     Crimson Fists 3rd Company (illegal)   Epic Armageddon, Codex Astartes, ILLEGAL
  epic/amy.yaml     A Daemon Pool and a Ravager            Epic Armageddon, Black Legion, LEGAL
  er/bob.yaml       Imperial battle group                  Epic Remastered, Core rules samples, LEGAL
  40k/carl.yaml     Ultramarines 3rd Company               40k Space Marines, LEGAL
  40k/dora.yaml     (no name: "dora")                      40k Space Marines, over its 1,000 points
  40k/erin.txt      New Recruit's text
  40k/fred.ros      a BattleScribe roster
  broken/gus.yaml   not a roster: UNREADABLE
"""

import dataclasses
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from listbuilder.cli import main
from listbuilder.games import game_name, known_games
from listbuilder.report.pack import anonymised, checked, ordered, pack_html, submissions
from listbuilder.report.pdf.pack import pack_pdf
from listbuilder.report.stats import field_stats
from listbuilder.report.submissions import Provenance
from listbuilder.rosters.batch import roster_files

TESTS = Path(__file__).resolve().parent
FILES = {
    "epic/zoe.yaml": TESTS / "rosters" / "print" / "illegal-astartes.yaml",
    "epic/amy.yaml": TESTS / "rosters" / "print" / "black-legion-daemons.yaml",
    "er/bob.yaml": TESTS / "epic-remastered-rosters" / "imperium.yaml",
    "40k/carl.yaml": TESTS / "wh40k-rosters" / "space-marines" / "legal-gladius.yaml",
    "40k/dora.yaml": TESTS / "wh40k-rosters" / "space-marines" / "illegal-over-points.yaml",
    "40k/erin.txt": TESTS / "wh40k-lists" / "nr-kauyon-legal.txt",
    "40k/fred.ros": TESTS / "wh40k-lists" / "ros-necrons-legal.ros",
}
EPIC_NAMES = ["Crimson Fists 3rd Company (illegal)", "A Daemon Pool and a Ravager", "Imperial battle group"]


def submitted(folder: Path, only: str = "") -> Path:
    for name, source in FILES.items():
        if name.startswith(only):
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, folder / name)
    (folder / "broken").mkdir()
    (folder / "broken" / "gus.yaml").write_text("game: [not, a roster\n")
    return folder


@pytest.fixture(scope="module")
def pack(catalog, bsdata, tmp_path_factory):
    """The folder, its lists checked (40k against the BSData fixture), in file order."""
    folder = submitted(tmp_path_factory.mktemp("submissions"))
    every = dataclasses.replace(catalog, installed={"wh40k-10e": bsdata.catalog})
    items, _, _ = roster_files([str(folder)])
    return folder, every, checked(items, every, None)


def flat(text: str) -> str:
    return " ".join(text.split())


def pdf_pages(pdf: bytes, tmp_path: Path) -> tuple[list[str], PdfReader]:
    path = tmp_path / "pack.pdf"
    path.write_bytes(pdf)
    reader = PdfReader(path)
    return [flat(page.extract_text()) for page in reader.pages], reader


def contents_rows(pdf: bytes, tmp_path: Path) -> dict[int, tuple[str, int]]:
    """Each contents row's list number -> (the row's text, the page it gives), read from the page laid
    out as printed (the page numbers are drawn apart from the rows' text)."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler) is not installed")
    path = tmp_path / "contents.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-layout", "-f", "1", "-l", "1", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    rows = {}
    for line in text.splitlines():
        match = re.fullmatch(r"\s*(\d+) (.*\S)\s+(\d+)", line)
        if match:
            rows[int(match[1])] = (match[2], int(match[3]))
    return rows


def first_pages(pages: list[str], count: int) -> dict[int, int]:
    """List number -> the first page (1-based) whose header names it."""
    found: dict[int, int] = {}
    for number in range(1, count + 1):
        found[number] = next(i for i, page in enumerate(pages, 1) if re.search(rf"(^| ){number}\. ", page)
                             and "Contents" not in page)
    return found


def test_the_contents_give_each_list_its_first_page_and_each_list_starts_a_page(pack, tmp_path):
    _, catalog, lists = pack
    assert len(lists) == 8
    pdf = pack_pdf(lists, catalog, "Event pack", "checked")
    pages, _ = pdf_pages(pdf, tmp_path)
    rows = contents_rows(pdf, tmp_path)
    assert sorted(rows) == list(range(1, 9))
    starts = first_pages(pages, 8)
    for number, packed in enumerate(lists, 1):
        row, page = rows[number]
        assert page == starts[number], f"list {number} ({packed.file}) starts on page {starts[number]}, not {page}"
        assert (packed.name[:20] or Path(packed.file).name) in row and packed.verdict in row
        title = packed.name or ("Unnamed roster" if packed.summary else packed.file)
        # a long title (an unreadable file's whole path) wraps, within a word too: compared without spaces
        assert pages[page - 1].replace(" ", "").startswith(title.replace(" ", "")), "a list starts its page"
        assert f"Page {page} of {len(pages)}" in pages[page - 1]
    assert list(starts.values()) == sorted(set(starts.values())) and starts[1] == 2  # the contents on page 1


def test_each_list_shows_its_layout_verdict_and_findings(pack, tmp_path):
    _, catalog, lists = pack
    pages, _ = pdf_pages(pack_pdf(lists, catalog, "Event pack", "checked"), tmp_path)
    starts = first_pages(pages, len(lists))
    by_file = {Path(p.file).name: n for n, p in enumerate(lists, 1)}

    def text_of(name: str) -> str:
        number = by_file[name]
        return " ".join(pages[starts[number] - 1:starts.get(number + 1, len(pages) + 1) - 1])

    zoe = text_of("zoe.yaml")
    assert "ILLEGAL: this roster breaks its army list" in zoe and "Findings" in zoe
    zoe_list = lists[by_file["zoe.yaml"] - 1]
    for finding in zoe_list.result.findings:  # every finding of the illegal list, with its rule
        assert flat(finding.message)[:40] in zoe
    amy = text_of("amy.yaml")  # Epic Armageddon: formations, break points, activations
    assert "LEGAL: no rule of the army list is broken." in amy
    assert "Break point" in amy and "Activations 2" in amy and "Ravager Titan" in amy
    bob = text_of("bob.yaml")  # Epic Remastered: its detachments
    assert "Imperial battle group" in bob and "Detachments" in bob
    carl = text_of("carl.yaml")  # 40k: detachment, units with their loadouts and points
    assert "Gladius Task Force" in carl and "Captain" in carl and "1,195" in carl
    dora = text_of("dora.yaml")
    assert "ILLEGAL" in dora and "1,015" in dora
    gus = text_of("gus.yaml")
    assert "UNREADABLE" in gus and "could not be read" in gus
    assert "Army rule" not in carl and "Enhancements" not in carl  # the pack is the lists: `print` has the rules


def test_the_orders(pack, tmp_path):
    _, catalog, lists = pack
    files = [Path(p.file).name for p in lists]
    assert files == ["carl.yaml", "dora.yaml", "erin.txt", "fred.ros", "gus.yaml", "amy.yaml", "zoe.yaml", "bob.yaml"]
    by_player = [p.name or Path(p.file).stem for p in ordered(lists, "player")]
    readable = [p.name or Path(p.file).stem for p in lists if p.summary]
    assert by_player == sorted(readable, key=str.casefold) + ["gus"]  # the unreadable file last
    assert by_player.index("A Daemon Pool and a Ravager") < by_player.index("dora") < by_player.index(
        "Imperial battle group") < by_player.index("Ultramarines 3rd Company")
    by_faction = [(p.summary.game, p.army) if p.summary else None for p in ordered(lists, "faction")]
    assert by_faction[-1] is None and by_faction[:-1] == sorted(by_faction[:-1], key=lambda g: (g[0].casefold(),
                                                                                                 g[1].casefold()))
    black_legion = [i for i, p in enumerate(ordered(lists, "faction")) if p.army == "Chaos – Black Legion"]
    codex = [i for i, p in enumerate(ordered(lists, "faction")) if p.army == "Space Marines – Codex Astartes"]
    assert black_legion[0] < codex[0]
    rows = contents_rows(pack_pdf(ordered(lists, "player"), catalog, "Event pack", "checked"), tmp_path)
    assert rows[1][0].startswith("A Daemon Pool and a Ravager") and "gus.yaml" in rows[8][0]


def test_anonymised_the_pack_holds_no_file_or_roster_name(pack, catalog, bsdata, tmp_path):
    folder, every, _ = pack
    items, _, _ = roster_files([str(folder)])
    lists = checked(items, every, None)  # afresh: anonymising rewrites the results' findings
    names = {p.name for p in lists if p.name}
    assert {"Crimson Fists 3rd Company (illegal)", "Ultramarines 3rd Company"} <= names
    hidden = anonymised(ordered(lists, "faction"))
    stats = field_stats(submissions(hidden), [], Provenance("test", "data"),
                        {g: game_name(every, g) for g in known_games(every)})
    pdf = pack_pdf(hidden, every, "Winter GT: event pack", "checked", stats=stats)
    pages, reader = pdf_pages(pdf, tmp_path)
    html = pack_html(hidden, "Winter GT: event pack", "checked", stats)
    assert "Field statistics" in pages[-1] and "Field statistics" in html  # the statistics too
    text = " ".join(pages)
    metadata = " ".join(str(value) for value in (reader.metadata or {}).values())
    assert str(folder) not in text + html + metadata
    for name in [*names, *(Path(f).name for f in FILES), *(Path(f).stem for f in FILES), "gus.yaml"]:
        for where, shown in (("PDF text", text), ("HTML", html), ("PDF metadata", metadata), ("PDF bytes", "")):
            assert name not in (shown or pdf.decode("latin-1")), f"{name!r} is in the anonymised {where}"
    rows = contents_rows(pdf, tmp_path)
    assert [rows[n][0].split()[:2] for n in range(1, 9)] == [["List", str(n)] for n in range(1, 9)]
    assert "List 1" in pages[1] and "Winter GT: event pack" in metadata
    assert "Findings" in text and "ILLEGAL: this roster breaks its army list" in text  # the findings stay


def test_the_html_pack_links_each_list_and_escapes_what_the_files_say(pack, tmp_path):
    _, _, lists = pack
    marked = [dataclasses.replace(lists[0], summary=dataclasses.replace(lists[0].summary, name="<b>Carl</b> & co")),
              *lists[1:]]
    page = pack_html(marked, "Winter <GT>", "checked by listbuilder")
    assert "<title>Winter &lt;GT&gt;</title>" in page and "<b>Carl</b>" not in page
    assert "&lt;b&gt;Carl&lt;/b&gt; &amp; co" in page
    for number in range(1, 9):
        assert f'<a href="#list-{number}">' in page and f'<section class="roster" id="list-{number}">' in page
    assert page.count('<section class="roster"') == 8 and "UNREADABLE" in page


def test_the_command_writes_pdf_and_html_and_says_the_verdicts(tmp_path, capsys):
    folder = submitted(tmp_path / "in", only="e")  # the Epic rosters and the broken file: no 40k data needed
    assert main(["pack", str(folder), "-o", str(tmp_path / "pack.pdf"), "--order", "player"]) == 2
    said = capsys.readouterr().out
    assert "4 lists, 2 legal, 1 illegal, 1 unreadable" in said
    pages, reader = pdf_pages((tmp_path / "pack.pdf").read_bytes(), tmp_path)
    assert reader.metadata.title == "Event pack" and len(pages) >= 6
    statistics = pages[-1]  # the field's statistics close the pack: the three lists that could be read
    assert statistics.startswith("Field statistics 3 lists counted") and "Epic Armageddon: 2 lists" in statistics
    assert "Tactical (Space Marines – Codex Astartes)" in statistics and "Epic Remastered: 1 list " in statistics
    assert main(["pack", str(folder / "epic"), str(folder / "er"), "-o", str(tmp_path / "pack.html")]) == 1
    page = (tmp_path / "pack.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and all(name in page for name in EPIC_NAMES)
    assert main(["pack", str(folder / "er"), "-o", str(tmp_path / "x.out"), "--format", "html"]) == 0
    assert (tmp_path / "x.out").read_text().startswith("<!DOCTYPE html>")
    (tmp_path / "empty").mkdir()
    assert main(["pack", str(tmp_path / "empty"), "-o", str(tmp_path / "empty.pdf")]) == 2
    assert "no roster to pack" in capsys.readouterr().err and not (tmp_path / "empty.pdf").exists()


def test_the_event_names_the_pack_and_its_rules_check_the_lists(tmp_path, capsys):
    folder = submitted(tmp_path / "in", only="epic")
    event = folder / "event.yaml"  # in the folder, as organisers keep it: left out of the lists
    event.write_text("name: Autumn Open\ngame: epic-armageddon\npoints: 3000\n")
    assert main(["pack", str(folder), "--event", str(event), "-o", str(tmp_path / "pack.pdf")]) == 2
    assert "3 lists, 1 legal, 1 illegal, 1 unreadable; 1 file skipped" in capsys.readouterr().out
    pages, reader = pdf_pages((tmp_path / "pack.pdf").read_bytes(), tmp_path)
    assert reader.metadata.title == "Autumn Open: event pack" and pages[0].startswith("Autumn Open: event pack")
    assert "3 lists, 1 legal" in pages[0] and "event.yaml" not in pages[0]
    zoe = next(page for page in pages if page.startswith("Crimson Fists 3rd Company"))  # its own 2,000 points
    assert "the roster's limit is 2,000 points; Autumn Open is played at 3,000" in zoe


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) is not installed")
def test_a_page_of_the_pack_renders(pack, tmp_path):
    Image = pytest.importorskip("PIL.Image")
    _, catalog, lists = pack
    pdf = tmp_path / "pack.pdf"
    pdf.write_bytes(pack_pdf(lists, catalog, "Event pack", "checked"))
    for page in (1, 2):  # the contents, and a 40k list
        subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", str(page), "-l", str(page), str(pdf),
                        str(tmp_path / f"page{page}")], check=True)
    for png in sorted(tmp_path.glob("page*.png")):
        with Image.open(png) as image:
            grey = image.convert("L")
            assert abs(grey.size[0] - 496) <= 1 and abs(grey.size[1] - 702) <= 1  # A4 at 60 dpi
            histogram = grey.histogram()
        assert 0.005 < sum(histogram[:128]) / sum(histogram) < 0.5
