"""The `check`, `armies` and `schema` commands as organisers run them: output and exit codes."""

import json
import subprocess
import sys
from pathlib import Path

from listbuilder.cli import main
from listbuilder.schemas import MODELS, schema_text

ROOT = Path(__file__).resolve().parent.parent
ROSTERS = Path(__file__).resolve().parent / "rosters" / "codex-astartes"


def run(capsys, *arguments: str) -> tuple[int, str, str]:
    code = main(list(arguments))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_legal_roster_exits_0_with_derived_values(capsys):
    code, out, _ = run(capsys, "check", str(ROSTERS / "legal-allies.yaml"))
    assert code == 0
    assert "LEGAL" in out
    assert "points: 1,660 / 3,000 (1,340 left)" in out
    assert "Imperial Navy and Titan Legions: 900 / 1,000" in out
    assert "Break Their Spirit: #3 Warhound Titans (500 pts)" in out
    assert "4 Devastators, 1 Land Raider, 1 Razorback (Twin Heavy Bolter), 1 Rhino (transport)" in out


def test_illegal_roster_exits_1_with_located_findings(capsys):
    path = ROSTERS / "illegal-over-points.yaml"
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert f"{path}:3:1: error: the army costs 2,025 points, 25 over the agreed 2,000 [6.1.1 Points]" in out


def test_unreadable_roster_exits_2_without_traceback(capsys, tmp_path):
    broken = tmp_path / "broken.yaml"
    broken.write_text("game: epic-armageddon\narmy: codex-astartes\npoints: 2000\nformations:\n  - tipe: Tactical\n")
    code, out, _ = run(capsys, "check", str(broken), str(ROSTERS / "legal-scouts.yaml"))
    assert code == 2
    assert f"{broken}:5:5: error: unknown key 'tipe' (did you mean 'type'?)" in out
    assert "Traceback" not in out
    missing = tmp_path / "missing.yaml"
    code, out, _ = run(capsys, "check", str(missing))
    assert code == 2 and "cannot read the file" in out


def test_folder_json_report(capsys):
    code, out, _ = run(capsys, "check", str(ROSTERS), "--format", "json")
    assert code == 1
    report = json.loads(out)
    by_file = {Path(r["file"]).name: r for r in report["rosters"]}
    assert len(by_file) == len(list(ROSTERS.glob("*.yaml")))
    allies = by_file["legal-allies.yaml"]
    assert allies["valid"] is True
    assert allies["points"] == {"total": 1660, "limit": 3000}
    assert allies["caps"] == [{"name": "Imperial Navy and Titan Legions", "points": 900, "limit": 1000,
                               "rule": "6.3 Codex Astartes notes"}]
    assert allies["break_their_spirit"] == [{"index": 2, "type": "Warhound Titans", "points": 500}]
    assert allies["activations"] == 5 and allies["strategy_rating"] == 5
    devastator = allies["formations"][1]
    assert {k: devastator[k] for k in ("type", "points", "units", "break_point", "half_strength", "transports")} == \
        {"type": "Devastator", "points": 360, "units": 7, "break_point": 14, "half_strength": 3,
         "transports": {"Rhino": 1}}
    assert devastator["garrison"]["eligible"] is False
    over = by_file["illegal-over-points.yaml"]
    assert over["valid"] is False
    [issue] = over["issues"]
    assert set(issue) >= {"severity", "code", "message", "where", "rule"}
    assert issue["where"].endswith("illegal-over-points.yaml:3:1")


def test_armies_lists_codex_astartes(capsys):
    code, out, _ = run(capsys, "armies", "epic-armageddon")
    assert code == 0
    assert "codex-astartes" in out and "Space Marines – Codex Astartes" in out
    assert run(capsys, "armies", "chess")[0] == 2


def test_committed_json_schemas_are_current():
    for name in MODELS:
        committed = ROOT / "docs" / "schemas" / f"{name}.schema.json"
        assert committed.read_text(encoding="utf-8") == schema_text(name), \
            f"{committed} is stale: run `listbuilder schema --write docs/schemas`"


def test_python_dash_m_runs_the_demo_check():
    done = subprocess.run([sys.executable, "-m", "listbuilder", "check"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Ultramarines 2nd Company" in done.stdout


def as_process(*arguments: str) -> subprocess.CompletedProcess[str]:
    """`listbuilder ARGUMENTS` as its console script runs it (`__main__.main`), with an exit handler
    of its own that says whether the interpreter's exit ran."""
    probe = ("import atexit, sys\nfrom listbuilder.__main__ import main\n"
             "atexit.register(lambda: print('the exit ran', file=sys.stderr))\n"
             f"sys.argv = ['listbuilder', *{list(arguments)!r}]\nsys.exit(main())")
    return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)


def test_a_check_process_ends_at_once_once_its_report_is_out(capsys):
    """docs/speed.md: `check` leaves nothing for the interpreter's exit to do, so its process ends
    without it; its report and exit code are those of the check, whether legal, illegal or not read."""
    for roster, code in (("legal-allies.yaml", 0), ("illegal-over-points.yaml", 1), ("no-such-file.yaml", 2)):
        done = as_process("check", str(ROSTERS / roster), "--format", "json")
        expected = run(capsys, "check", str(ROSTERS / roster), "--format", "json")
        assert (done.returncode, done.stdout, done.stderr) == expected
        assert expected[0] == code


def test_a_process_does_not_look_for_pydantic_plugins():
    """docs/speed.md: looking for them reads every installed package's metadata; listbuilder uses
    none. As a process (`cli.run`) it does not look; called in-process, pydantic's default stands."""
    def checked(call: str) -> subprocess.CompletedProcess[str]:
        probe = ("import importlib.metadata, sys\nfound = importlib.metadata.entry_points\n"
                 "def noted(**group):\n    print('looked for', group, file=sys.stderr)\n    return found(**group)\n"
                 "importlib.metadata.entry_points = noted\nfrom listbuilder.cli import main, run\n"
                 f"sys.argv = ['listbuilder', 'check', {str(ROSTERS / 'legal-allies.yaml')!r}]\nsys.exit({call})")
        return subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)

    process, in_process = checked("run()"), checked("main()")
    assert process.returncode == 0 and "LEGAL" in process.stdout and process.stderr == ""
    assert in_process.returncode == 0 and "looked for {'group': 'pydantic'}" in in_process.stderr


def test_other_commands_take_the_interpreters_exit():
    done = as_process("armies")
    assert done.returncode == 0 and "codex-astartes" in done.stdout
    assert done.stderr == "the exit ran\n"


def test_listbuilder_alone_on_a_terminal_opens_the_editor_on_the_demo_roster(monkeypatch):
    """The README's first command: `listbuilder` with no command, on a terminal, is `edit` of the
    demo roster with every option of `edit` at its default."""
    import io

    import listbuilder.tui

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    opened = []
    monkeypatch.setattr(listbuilder.tui, "run_editor", lambda catalog, roster, **kw: opened.append(roster) or 0)
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(sys, "stdout", Terminal())
    assert main([]) == 0
    assert opened == [None]  # None: the demo roster
