"""How much of the BattleScribe conformance suite (../shared/fixtures/battlescribe-spec) the engine
passes, run as New Recruit, against the goal of 95% of the specs that apply.

Run: python benchmarks/battlescribe_conformance.py [--verbose]. The harness lives with the tests
(tests/battlescribe/harness.py); the specs are read from ../shared and never copied.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.battlescribe.harness import (  # noqa: E402 - the repository root must be importable first
    NOT_APPLICABLE_FILE,
    SPEC_ROOT,
    load_reasons,
    run_all,
    spec_files,
)

GOAL = 0.95


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print each failing spec and why")
    args = parser.parse_args()
    if not SPEC_ROOT.is_dir():
        print(f"conformance: no specs, {SPEC_ROOT} is absent")
        return 0
    started = time.perf_counter()
    outcomes = run_all()
    seconds = time.perf_counter() - started
    passed = sum(1 for failure in outcomes.values() if failure is None)
    applicable = len(outcomes)
    not_applicable = len(load_reasons(NOT_APPLICABLE_FILE))
    if args.verbose:
        for spec_id, failure in sorted(outcomes.items()):
            if failure is not None:
                print(f"FAIL {spec_id}: {failure}")
    share = passed / applicable if applicable else 1.0
    print(f"conformance: {passed} passed of {applicable} applicable ({share:.1%}), goal >= {GOAL:.0%}; "
          f"{not_applicable} not applicable of {len(spec_files())} specs; {seconds:.1f} s")
    return 0 if share >= GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
