"""Every BattleScribe conformance spec of ../shared, run against the engine as New Recruit.

Specs that do not apply are skipped (not_applicable.yaml); specs the engine fails are expected
failures (known_failures.yaml, strict: a fix shows up as an unexpected pass).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.battlescribe.harness import (
    KNOWN_FAILURES_FILE,
    NOT_APPLICABLE_FILE,
    SPEC_ROOT,
    load_reasons,
    load_spec,
    run_spec,
    spec_files,
)

NOT_APPLICABLE = load_reasons(NOT_APPLICABLE_FILE)
KNOWN_FAILURES = load_reasons(KNOWN_FAILURES_FILE)


def _params() -> list[object]:
    if not SPEC_ROOT.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"{SPEC_ROOT} is absent"), id="no-specs")]
    params = []
    for path in spec_files():
        spec_id = path.stem
        marks = []
        if spec_id in NOT_APPLICABLE:
            marks.append(pytest.mark.skip(reason=f"not applicable: {NOT_APPLICABLE[spec_id]}"))
        elif spec_id in KNOWN_FAILURES:
            marks.append(pytest.mark.xfail(reason=KNOWN_FAILURES[spec_id], strict=True))
        params.append(pytest.param(path, marks=marks, id=spec_id))
    return params


@pytest.mark.parametrize("path", _params())
def test_spec(path: Path | None) -> None:
    assert path is not None
    run_spec(load_spec(path))


def test_spec_ids_are_file_names() -> None:
    """The parametrisation names each spec by its file name; the spec's own id must agree."""
    for path in spec_files():
        assert load_spec(path).id == path.stem, path
