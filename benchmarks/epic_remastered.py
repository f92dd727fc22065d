"""Timings of Epic Remastered checks: validating a large roster (goal: well under a 60 Hz frame,
as every keystroke in the editor checks again), and what `check` and `print` add (summary, PDF).

Run: python benchmarks/epic_remastered.py [--runs N]. Prints medians in milliseconds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from run import FRAME_MS, median_ms

from listbuilder.data.catalog import load_catalog
from listbuilder.games import summarise, validate
from listbuilder.report.pdf import roster_pdf
from listbuilder.rosters.files import read_roster

ROSTERS = Path(__file__).resolve().parent.parent / "tests" / "epic-remastered-rosters"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=50)
    runs = parser.parse_args().runs
    catalog = load_catalog()
    sample = read_roster(ROSTERS / "sample-detachments.yaml", catalog).roster
    # twenty detachments: the three of Example 2 and the Imperial battle group's four, three times over
    imperium = read_roster(ROSTERS / "imperium.yaml", catalog).roster
    large = sample.model_copy(update={"detachments": ([*sample.detachments, *imperium.detachments] * 3)[:20]})
    assert len(large.detachments) == 20
    check = median_ms(lambda: validate(large, catalog), runs * 4)
    result = validate(large, catalog)
    summary = median_ms(lambda: summarise(result), runs)
    pdf = median_ms(lambda: roster_pdf(result, catalog), max(3, runs // 10))
    print(f"validate a 20-detachment roster ({result.derived['units']} units): {check:8.3f} ms  "
          f"({check / FRAME_MS:.3f} of a 60 Hz frame; goal: under 0.25)")
    print(f"its summary (what check, print and the editor show):    {summary:8.3f} ms")
    print(f"its PDF (roster sheet and data sheets):                  {pdf:8.1f} ms")


if __name__ == "__main__":
    main()
