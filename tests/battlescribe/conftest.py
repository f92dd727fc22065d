"""Reports how many BattleScribe conformance specs were skipped, and why."""

from __future__ import annotations

from typing import Any

from tests.battlescribe.harness import NOT_APPLICABLE_FILE, SPEC_ROOT, load_reasons, spec_files


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not SPEC_ROOT.is_dir():
        terminalreporter.write_line(
            f"battlescribe conformance: all specs skipped, {SPEC_ROOT} is absent (../shared not checked out)")
        return
    total = len(spec_files())
    not_applicable = len(load_reasons(NOT_APPLICABLE_FILE))
    terminalreporter.write_line(
        f"battlescribe conformance: {total} specs, {not_applicable} skipped as not applicable "
        f"(tests/battlescribe/not_applicable.yaml)")
