"""The printed roster: everything a player or organiser needs is in the text of the PDF, nothing
runs off the page, an illegal roster says so on every page, and the output is repeatable."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import SimpleDocTemplate

from listbuilder.cli import main
from listbuilder.core.findings import LoadFailure
from listbuilder.data.catalog import data_version
from listbuilder.exits import DEMO_ROSTER
from listbuilder.games import validate
from listbuilder.listengine.lines import character_text, title, unit_line
from listbuilder.report.pdf import roster_pdf
from listbuilder.report.pdf.document import HEADER, MARGIN, Paragraph, Text, _grid, _table, clean, stylesheet
from listbuilder.rosters.files import locate_all, parse_roster, read_roster

from .sampling import one_in

ROSTERS = Path(__file__).resolve().parent / "rosters"
EVERY_ROSTER = [DEMO_ROSTER, *sorted(ROSTERS.rglob("*.yaml"))]
WAR_ENGINES = ROSTERS / "print" / "war-engines-5000.yaml"
ILLEGAL = ROSTERS / "print" / "illegal-astartes.yaml"


def checked(path: Path, catalog):
    roster_file = read_roster(path, catalog, str(path))
    result = validate(roster_file.roster, catalog)
    result.findings = locate_all(roster_file, result.findings)
    return result


def flat(text: str) -> str:
    """Extracted text with every run of white space as one space (cells wrap their lines)."""
    return " ".join(text.split())


def pages_text(pdf: bytes, tmp_path: Path) -> list[str]:
    path = tmp_path / "roster.pdf"
    path.write_bytes(pdf)
    return [flat(page.extract_text()) for page in PdfReader(path).pages]


@pytest.mark.parametrize("path", one_in(4, EVERY_ROSTER), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_unit_weapon_value_and_finding_is_printed(path, catalog, tmp_path):
    try:
        result = checked(path, catalog)
    except LoadFailure:
        pytest.skip("an unreadable roster is not printed (the command exits 2)")
    pages = pages_text(roster_pdf(result, catalog, source=str(path)), tmp_path)
    text, roster_part = " ".join(pages), roster_pages(pages)
    for number, page in enumerate(pages, 1):
        assert f"Page {number} of {len(pages)}" in page
        assert f"{result.total:,} / {result.roster.points:,} pts" in page
        assert ("ILLEGAL ROSTER" in page) == (not result.valid)
    assert ("ILLEGAL: this roster breaks its army list" in pages[0]) == (not result.valid)
    for built in result.formations:
        d = built.derived
        values = [f"{built.points:,}", d["units"], d["break_point"], d["half_strength"], d["initiative"]]
        row = " ".join("—" if v is None else str(v) for v in values)
        assert row in roster_part, f"formation {built.index + 1}: {row}"
        sheets = [g.sheet for g in built.units] + [c.sheet for c in built.characters]
        for sheet in sheets:
            assert sheet.name in text
            for weapon in sheet.weapons:
                assert f"{weapon.name} {weapon.range} {flat(weapon.firepower)}" in text, (sheet.name, weapon.name)
            for ability in sheet.abilities:
                assert ability in text
        for character in built.characters:
            assert character_text(character) in text
    for finding in result.findings:
        assert flat(finding.message) in roster_part, finding.message
    if result.findings:
        assert flat(result.findings[0].message) in pages[0]


def roster_pages(pages: list[str]) -> str:
    """The pages before the datasheets begin (the roster table may run over several)."""
    roster_pages = []
    heading = re.compile(r"(?<!5 )Datasheets")  # not the rule "5 Datasheets" a finding may cite
    for page in pages:
        roster_pages.append(heading.split(page)[0])
        if heading.search(page):
            break
    return " ".join(roster_pages)


def test_demo_roster_values_worked_out_by_hand(catalog, tmp_path):
    # Tactical 300 + Supreme Commander 100 + Dreadnought 50 + two Razorbacks 50 = 500 points; 6 Tactical,
    # 1 Dreadnought, 2 Razorbacks and 2 Rhinos are 11 units, broken at 22 Blast markers (two per unit, 5.1.1).
    pages = pages_text(roster_pdf(checked(DEMO_ROSTER, catalog), catalog), tmp_path)
    assert "LEGAL: no rule of the army list is broken." in pages[0]
    assert "500 11 22 5 1+" in pages[0]
    assert "Supreme Commander with a Tactical" in pages[0]
    assert "Break Their Spirit #1 Tactical “Sergeant Hale's detachment” (500 pts)" in pages[0]
    assert "Imperial Navy and Titan Legions 425 of at most 1,000 (575 left)" in pages[0]
    text = " ".join(pages)
    assert ("In formation 1, one Tactical carries a Supreme Commander and gains: "
            "Power Weapon (b/c, Assault, MW, +1A)") in text
    assert "Reinforced Armour (2.1.12 Reinforced Armour):" in text
    assert "Findings" not in pages[0]
    assert f"data {data_version()}" in pages[0]  # the shipped data's version, as the catalog loaded holds it


def test_illegal_roster_prints_its_findings_first(catalog, tmp_path):
    result = checked(ILLEGAL, catalog)
    assert not result.valid
    pages = pages_text(roster_pdf(result, catalog, source=str(ILLEGAL)), tmp_path)
    first = pages[0]
    assert (first.index("ILLEGAL: this roster breaks its army list (7 errors") < first.index("Findings")
            < first.index("Army"))
    assert ("'Tactcal' is not a formation of Space Marines – Codex Astartes or its allies "
            "(did you mean 'Tactical'?)") in first
    assert "Tactcal Not a formation of this army; not counted (see finding 4)" in first
    assert "line 16:5" in first
    assert "850 of at most 666 (184 over)" in first


def fragments(pdf: bytes, tmp_path: Path):
    """Every piece of text drawn: (page, text, x, y, width, page width, page height)."""
    path = tmp_path / "layout.pdf"
    path.write_bytes(pdf)
    for number, page in enumerate(PdfReader(path).pages, 1):
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        found = []

        def visit(text, cm, tm, font, size, found=found, number=number, width=width, height=height):
            if not text.strip() or font is None:
                return
            x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            scale = (tm[0] * cm[0] + tm[1] * cm[2]) or 1
            drawn = stringWidth(text.strip(), str(font["/BaseFont"]).lstrip("/"), size * scale)
            found.append((number, text.strip(), x, y, drawn, width, height))

        page.extract_text(visitor_text=visit)
        yield from found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_big_war_engine_roster_keeps_every_line_on_the_page(paper, catalog, tmp_path):
    result = checked(WAR_ENGINES, catalog)
    assert result.roster.points == 5000 and any(f.derived["units"] for f in result.formations)
    assert sum(1 for f in result.formations for g in f.units if g.sheet.is_war_engine) >= 5
    drawn = list(fragments(roster_pdf(result, catalog, paper=paper, source=str(WAR_ENGINES)), tmp_path))
    assert len(drawn) > 300
    # reportlab may squeeze a line that is a point too long by narrowing its word spaces (Tw),
    # which the width measured here does not see: allow 2 points of the 12mm margin for it.
    slack = 2.0
    for page, text, x, y, width, page_width, page_height in drawn:
        assert x >= 0 and x + width <= page_width and 0 <= y <= page_height, (page, text, x, y, width)
        assert MARGIN - slack <= x and x + width <= page_width - MARGIN + slack, (page, text, x, width)
        assert MARGIN - slack <= y <= page_height - MARGIN + slack, (page, text, y)


def test_output_is_deterministic(catalog):
    result = checked(WAR_ENGINES, catalog)
    assert roster_pdf(result, catalog) == roster_pdf(result, catalog)


def test_unsafe_text_in_a_roster_is_printed_literally(catalog, tmp_path):
    text = ("game: epic-armageddon\narmy: codex-astartes\npoints: 2000\n"
            "name: 'Fists & <b>Friends</b> ☠ Ω'\nformations:\n  - type: Scout\n    label: '<i>x</i>'\n")
    roster_file = parse_roster(text, "unsafe.yaml", catalog)
    pages = pages_text(roster_pdf(validate(roster_file.roster, catalog), catalog), tmp_path)
    assert "Fists & <b>Friends</b> ? ?" in pages[0]
    assert "Scout “<i>x</i>”" in pages[0]


def test_unknown_paper_is_refused(catalog):
    with pytest.raises(ValueError, match="unknown paper 'a5'"):
        roster_pdf(checked(DEMO_ROSTER, catalog), catalog, paper="a5")


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) is not installed")
def test_first_page_renders_to_a_png_with_ink_on_it(catalog, tmp_path):
    Image = pytest.importorskip("PIL.Image")
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(roster_pdf(checked(ILLEGAL, catalog), catalog))
    subprocess.run(["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")], check=True)
    png = next(tmp_path.glob("page*.png"))
    with Image.open(png) as image:
        grey = image.convert("L")
        width, height = grey.size
        assert abs(width - 662) <= 1 and abs(height - 935) <= 1  # A4 at 80 dpi
        histogram = grey.histogram()
    ink = sum(histogram[:128]) / sum(histogram)
    assert 0.01 < ink < 0.5, f"{ink:.1%} of the page is dark"


def test_header_fits_a_very_long_roster_name(catalog, tmp_path):
    result = checked(DEMO_ROSTER, catalog)
    result.roster = result.roster.model_copy(update={"name": "Ultramarines " * 20})
    drawn = list(fragments(roster_pdf(result, catalog), tmp_path))
    header = [d for d in drawn if d[1].startswith("Ultramarines Ultramarines") and d[3] > d[6] - MARGIN - HEADER]
    assert header and all(x + width <= page_width - MARGIN for _, _, x, _, width, page_width, _ in header)
    assert re.search(r"…$", header[0][1])


def test_print_command_writes_the_pdf_and_exits_by_legality(tmp_path, capsys):
    legal = tmp_path / "demo.pdf"
    assert main(["print", str(DEMO_ROSTER), "-o", str(legal)]) == 0
    assert legal.read_bytes().startswith(b"%PDF-")
    illegal = tmp_path / "illegal.pdf"
    assert main(["print", str(ILLEGAL), "-o", str(illegal), "--paper", "letter"]) == 1
    page = PdfReader(illegal).pages[0]
    assert (float(page.mediabox.width), float(page.mediabox.height)) == (612, 792)
    assert "ILLEGAL ROSTER" in page.extract_text()
    assert main(["print", str(tmp_path / "missing.yaml")]) == 2
    assert not (tmp_path / "missing.pdf").exists()
    out = capsys.readouterr()
    assert "ILLEGAL roster, 7 errors printed on page 1" in out.out and "missing.yaml: UNREADABLE" in out.err


def test_a_long_roster_table_repeats_its_headings_and_keeps_each_formation_whole(catalog, tmp_path):
    entries = "".join(f"  - type: Tactical\n    label: Detachment {n}\n"
                      "    upgrades: {Dreadnought: 1, Razorbacks: 1}\n"
                      for n in range(1, 31))
    text = f"game: epic-armageddon\narmy: codex-astartes\npoints: 5000\nname: Thirty\nformations:\n{entries}"
    result = validate(parse_roster(text, "thirty.yaml", catalog).roster, catalog)
    roster = roster_pages_list(pages_text(roster_pdf(result, catalog), tmp_path))
    assert len(roster) >= 2
    for page in roster:
        assert "# Formation and units Points Units Break point Half strength Initiative" in page
    for built in result.formations:
        d = built.derived
        assert built.index in result.derived["break_their_spirit"]  # all cost the same
        whole = (f"{title(built)} (Break Their Spirit target) {unit_line(built)} "
                 f"base 300 + upgrades: Dreadnought 50, Razorbacks 25; transport: Rhino")
        assert sum(whole in page for page in roster) == 1, whole
        assert f"{built.points} {d['units']} {d['break_point']} {d['half_strength']} 1+" in " ".join(roster)


def roster_pages_list(pages: list[str]) -> list[str]:
    """The pages the roster table spans (up to the datasheets)."""
    spanned = [page for page in pages if "Formation and units" in page]
    return [page.split("Datasheets")[0] for page in spanned]


def test_a_roster_with_only_warnings_prints_as_legal_with_them(catalog, tmp_path):
    text = "game: epic-armageddon\narmy: codex-astartes\npoints: 1500\nformations:\n  - type: Scout\n"
    result = validate(parse_roster(text, "small.yaml", catalog).roster, catalog)
    assert result.valid and result.findings
    pages = pages_text(roster_pdf(result, catalog), tmp_path)
    assert f"LEGAL, with {len(result.findings)} warning" in pages[0]
    assert "WARNING" in pages[0] and flat(result.findings[0].message) in pages[0]
    assert not any("ILLEGAL" in page for page in pages)
    assert "Unnamed roster" in pages[0]


DAEMONS = ROSTERS / "print" / "black-legion-daemons.yaml"


def test_what_the_army_buys_is_a_row_of_the_table_and_its_datasheets_are_printed(catalog, tmp_path):
    # Nurgle Retinue 350 + Ravager Titan 650 + 2 Lesser Daemons 40 + a Greater Daemon 100 = 1,140
    result = checked(DAEMONS, catalog)
    assert result.valid and result.total == 1140
    pages = pages_text(roster_pdf(result, catalog), tmp_path)
    roster, text = roster_pages(pages), " ".join(pages)
    assert "Lesser Daemon ×2 (bought for the army) 40 Greater Daemon ×1 (bought for the army) 100 Total 1,140" in roster
    sheets = text[text.index("Datasheets"):]
    # the Nurgle Retinue has the Daemonic Pact: its daemons, and Daemonic Beasts, which any faction
    # summons (L6990-7012); the Khorne Titan summons nothing
    for name in ("Plague Bearer INF · Chaos Daemons", "Great Unclean One WE · Chaos Daemons",
                 "Daemonic Beasts INF · Chaos Daemons"):
        assert name in sheets
    assert "Bloodletter" not in text and "Bloodthirster" not in text
    assert "Ravager Titan WE · Chaos Titan Legion" in sheets
    assert "1 Daemon Prince (Wings)" in roster


def test_every_choice_made_is_printed_and_one_not_made_says_so(catalog, tmp_path):
    hunters = checked(ROSTERS / "tau" / "legal-air-caste.yaml", catalog)
    roster = roster_pages(pages_text(roster_pdf(hunters, catalog), tmp_path))
    assert "4 Hammerhead Gunships (Railgun)" in roster
    text = ("game: epic-armageddon\narmy: ghazghkull-warhorde\npoints: 2000\nformations:\n  - type: Gargant\n"
            "    upgrades: {Warlord: {character: Warlord, joins: Ork Gargant}}\n")
    gargant = validate(parse_roster(text, "gargant.yaml", catalog).roster, catalog)
    roster = roster_pages(pages_text(roster_pdf(gargant, catalog), tmp_path))
    assert "1 Ork Gargant (wargear not chosen)" in roster
    assert "choose the wargear of the Ork Gargant in Gargant" in roster


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) is not installed")
def test_the_datasheet_pages_render(catalog, tmp_path):
    Image = pytest.importorskip("PIL.Image")
    pdf = tmp_path / "roster.pdf"
    pdf.write_bytes(roster_pdf(checked(DAEMONS, catalog), catalog))
    pages = len(PdfReader(pdf).pages)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "2", "-l", str(pages), str(pdf), str(tmp_path / "page")],
                   check=True)
    for png in sorted(tmp_path.glob("page*.png")):
        with Image.open(png) as image:
            histogram = image.convert("L").histogram()
        assert 0.01 < sum(histogram[:128]) / sum(histogram) < 0.5, png.name


STYLES = stylesheet()
ONE_LINERS = [("500", "CellRight"), ("Missile Launcher", "Cell"), ("WARNING", "CellBold"), ("Points", "CellHeadRight")]


def drawn_at(story, tmp_path: Path) -> list[tuple[str, float, float]]:
    """(text, x, y) of every piece of text of a one-page document of `story`."""
    path = tmp_path / "story.pdf"
    SimpleDocTemplate(str(path), invariant=1).build(story)
    return [(text, round(x, 2), round(y, 2)) for _, text, x, y, *_ in fragments(path.read_bytes(), tmp_path)]


@pytest.mark.parametrize("text, style", ONE_LINERS)
def test_text_that_fits_a_cell_is_drawn_where_its_paragraph_was(text, style, tmp_path):
    """Plain text is drawn as a string (alone in a cell) or a Line (in a cell's list), not parsed
    and broken into lines as a Paragraph: it must land exactly where that Paragraph put it."""
    widths, cell = [80.0, 120.0], STYLES[style]
    fast = _table([[Text(text, cell), [Text(text, cell), Text("", cell), Text("x", cell)]]], widths, _grid())
    assert isinstance(fast._cellvalues[0][0], str)
    slow = _table([[Paragraph(clean(text), cell),
                    [Paragraph(clean(text), cell), Paragraph("", cell), Paragraph("x", cell)]]],
                  widths, _grid())  # the empty line takes no room
    assert drawn_at([fast], tmp_path) == drawn_at([slow], tmp_path)


def test_text_that_does_not_fit_as_it_is_wraps_as_a_paragraph():
    cell = STYLES["Cell"]
    long = "Missile Launcher and Twin Lascannon and Power Fist"
    table = _table([[Text(long, cell), Text("a  b", cell), Text("", cell), Text("ok", cell)]],
                   [40.0, 60.0, 20.0, 20.0], _grid())
    wrapped, spaced, empty, fits = table._cellvalues[0]
    assert isinstance(wrapped, Paragraph) and wrapped.wrap(35.0, 1000)[1] > cell.leading  # several lines
    assert isinstance(spaced, Paragraph)  # its two spaces collapse to one, as they always did
    assert empty == [] and fits == "ok"
    spanned = _table([[Text(long, cell), "", ""]], [40.0, 200.0, 60.0], _grid() + [("SPAN", (0, 0), (-1, 0))])
    assert spanned._cellvalues[0][0] == long  # the width of all three columns


def test_a_paragraph_breaks_its_lines_again_for_another_width():
    paragraph = Paragraph("Missile Launcher and Twin Lascannon and Power Fist", STYLES["Cell"])
    wide = paragraph.wrap(300, 1000)
    assert paragraph.wrap(60, 1000)[1] > wide[1]
    assert paragraph.wrap(300, 1000) == wide
    del paragraph.blPara  # as reportlab's split does when the paragraph does not fit
    assert paragraph.wrap(300, 1000) == wide and paragraph.blPara.lines
