"""Printing Epic Remastered rosters: the roster sheet, then every data sheet used, derived ones with
their derivation (Table 9, seed 004 L2331-2338), war engines with mounts and damage tables."""

import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth

from listbuilder.cli import main
from listbuilder.games import validate
from listbuilder.report.pdf.document import CELL_PADDING, Text
from listbuilder.report.pdf.epic_remastered import ErDocument
from listbuilder.rosters.files import read_roster

ROSTERS = Path(__file__).resolve().parent / "epic-remastered-rosters"


def printed(name: str, tmp_path: Path) -> list[str]:
    pdf = tmp_path / "roster.pdf"
    assert main(["print", str(ROSTERS / name), "-o", str(pdf)]) == 0
    return [" ".join(page.extract_text().split()) for page in PdfReader(pdf).pages]


def test_the_sample_detachments_print_with_every_data_sheet(tmp_path):
    pages = printed("sample-detachments.yaml", tmp_path)
    first, text = pages[0], " ".join(pages)
    assert "LEGAL" in first and "pts" not in first  # the seed's lists have no points
    assert "Detachments # Detachment 1 Force Gadrel (Space Marines detachment)" in first
    assert "HQ Space Marine Librarian; no unit can take over command" in first
    assert "15 units, Infantry and Vehicle detachment; Leadership +1 (15 or more units)" in first
    assert "Main Force: 6 x Space Marines, with 3 x Space Marine Rhino (Transport (2): room for 6)" in first
    for unit in ("Space Marine Captain", "Space Marine Razorback", "Space Marine Rhino", "Space Marine Whirlwind",
                 "Space Marine Librarian", "Space Marine Scouts", "Space Marine Dreadnought",
                 "Space Marine Support Weapon", "Space Marine Land Raider", "Space Marine Predator",
                 "Space Marine Vindicator", "Space Marine Terminators", "Space Marine Assault", "Space Marine Hunter"):
        assert f"{unit} " in text.split("Datasheets", 1)[1], unit
    assert "Space Marines INF 10/20 cm 30 cm 1 3 5+ Notes: Rapid Fire; Stubborn" in text
    # the Devastators derived from Space Marines with Heavy Weapons, row by row
    assert ("Base unit: Space Marines INF 10/20 cm 30 cm 1 3 5+ + Heavy Weapons 45 cm 2 2 = Space Marine Devastators "
            "INF 10/20 cm 45 cm 2 2 5+") in text
    assert "Notes: Transport (__)" in text  # the Razorback's capacity, to fill in


def test_derived_data_sheets_and_war_engines_print(tmp_path):
    text = " ".join(printed("imperium.yaml", tmp_path))
    assert ("Base unit: Imperial Guard INF 10/20 cm 30 cm 1 1 3+ + Cavalry VEH 20/30 cm + Armour +1 4+ "
            "+ Assault 15 cm 2 = Imperial Guard Rough Riders VEH 20/30 cm 15 cm 1 2 4+ "
            "Notes: Cavalry; Armour +1; Assault") in text
    assert "Notes: Psyker" in text  # the Command Squad's Primaris Psyker
    assert "Main Weapons Volcano Cannon Death Ray 60 cm Front 90°" in text
    assert "Secondary Weapons Sponson Turrets 2 30 cm All Around" in text
    assert "Left Arm Weapon Battery 6 Front 90°" in text
    assert "Left Carapace Front 90°" in text  # the Warlord's chosen weapon system: empty boxes
    # Baneblade, Shadowsword, Warlord, Warhound
    assert text.count("2D6 Critical damage 2 3 4 5 6 7 8 9 10 11 12 D6 Catastrophic damage 1 2 3 4 5 6") == 4
    assert "Baneblade WE Damage Capacity Shields 4 not given" in text


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) is not installed")
def test_a_war_engine_page_renders_with_its_empty_boxes(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    pdf = tmp_path / "roster.pdf"
    assert main(["print", str(ROSTERS / "imperium.yaml"), "-o", str(pdf)]) == 0
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-f", "3", "-l", "3", str(pdf), str(tmp_path / "page")], check=True)
    with Image.open(next(tmp_path.glob("page*.png"))) as image:
        grey = image.convert("L")
        histogram = grey.histogram()
    ink = sum(histogram[:128]) / sum(histogram)
    assert 0.01 < ink < 0.3, f"{ink:.1%} of the page is dark"



def test_data_sheet_columns_hold_their_words_and_no_empty_column(catalog, tmp_path):
    """Headings and values split mid-word ('Assau/lt', 'Armo/ur', 'Macro-/weap/on') where six narrow
    columns had an even share of two thirds; the unit's name took a third; an unpriced roster's
    Detachments table had an empty, unlabelled points column."""
    pages = printed("sample-detachments.yaml", tmp_path)
    sheets = " ".join(pages[1:])
    assert sheets.count("Unit Type Speed Range FP Assault Armour") == 16  # every data sheet's headings whole
    assert "Space Marine Land Raider VEH Macro-weapon 6+" in sheets
    assert "Space Marine Whirlwind VEH Barrage" in sheets
    result = validate(read_roster(ROSTERS / "sample-detachments.yaml", catalog).roster, catalog)
    document = ErDocument(result, catalog, A4, None)
    [_, table] = document.entries()
    assert len(table._colWidths) == 2  # '#' and 'Detachment'
    assert len(document.summary.sheets) == 16
    for sheet in document.summary.sheets:
        for headings, rows in sheet.tables:
            data = [[Text(h, document.styles["CellHead"]) for h in headings]]
            data += [[Text(value, document.styles["Cell"]) for value in row] for row in rows]
            widths = document.sheet_widths(data)
            assert sum(widths) == pytest.approx(document.column)
            for row in data:
                for cell, width in zip(row, widths):
                    for word in cell.text.split():
                        assert stringWidth(word, cell.style.fontName, cell.style.fontSize) + 2 * CELL_PADDING < width
