"""Fuzzing every reader and every output (issue 30, "a stranger's worst file"): mutants of the real
files each reader meets (the editor's round-trip reader on every game's example rosters; Epic
Armageddon list text as `export` writes it; the official app's text, New Recruit's four layouts,
BattleScribe .ros and .rosz, the .rosz both re-zipped and as mutated bytes) read as `import` and
`check` read them. Whatever the input, reading ends in a roster or a located LoadFailure; every
roster read is then written as every output: the text, JSON, CSV and HTML reports, `stats` in its
four forms, `export`, `diff` against the unmutated original, `import`'s YAML and (a few cases) the
PDF. Each is UTF-8; what reaches a terminal holds no raw control character or bidi mark
(report/safe.py); JSON and CSV parse; a name holding `<x-evil>` is escaped in HTML. A few dozen
cases of each run with the suite; `pytest -m fuzz` runs THOROUGH of each."""

import csv
import io
import json
import re
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from listbuilder import __version__
from listbuilder.core.findings import Finding, LoadFailure, Location
from listbuilder.games import game_name, known_games, system_for, validate
from listbuilder.report.diff import diff_lines
from listbuilder.report.pdf import roster_pdf
from listbuilder.report.safe import UNSAFE, printable, printable_lines
from listbuilder.report.stats import field_stats, stats_report
from listbuilder.report.submissions import Provenance, render_result, report
from listbuilder.rosters.batch import check_file
from listbuilder.rosters.files import dump, locate_all, parse_roster
from listbuilder.rosters.lists import read_list_data

from .test_fuzz import HOSTILE_TEXT, THOROUGH, all_games  # noqa: F401 (a fixture)

TESTS = Path(__file__).parent
LISTS = TESTS / "wh40k-lists"
REAL = LISTS / "real"
EVIL = "<x-evil>"  # inserted into names: never raw in an HTML page
INSERTS = st.one_of(st.sampled_from([
    *HOSTILE_TEXT, EVIL, "\x9b31m", "\x9d0;t\x07", "\u2066", '="1+1"', "＝1", " \t=1", "\x85", "\u2028",  # escapes
    "!!int abc", "!!int 0x1F", "!!bool", "!!timestamp", "!!float", "!!binary", "!!set", "!!str", "!!null",  # YAML tags
    "NaN", "1e400", "²", "-0", "inf", "9" * 5000,  # numbers where XML attributes and list text hold counts
    "&amp;", "]]>", "<!--", "&#27;", "&#x9b;", "&lt;", "<", "&inj;", '<!DOCTYPE roster [<!ENTITY inj "x">]>',
    "<!-- <x -->"]), st.text(max_size=12))
PDF_FAST = 2
UNSAFE_CHARACTER = re.compile(UNSAFE)


def _mutant(text: str, cut: int, length: int, insert: str) -> str:
    where = cut % (len(text) + 1)
    return text[:where] + insert + text[where + length:]


# Where a name begins: a YAML value, an XML name attribute, a line of list text. Text put there
# keeps most files readable, so that what is in a name reaches every output.
NAME_STARTS = {"yaml": re.compile(r": (?=\S)"), "xml": re.compile(r'name="'), "text": re.compile(r"^(?=\S)", re.M)}
IN_NAMES = [EVIL, "\x9b31m", "\x9d0;t\x07", "\x1b]52;c;aGk=\x07", "\u202e", "\u2066", "=1+1 ", "＝1 ", " \t=1 "]
IN_XML_NAMES = ["&lt;x-evil&gt;", "&#x9b;31m", "&#x9d;0;t&#x7;", "&#x202e;", "&#x2066;", "=1+1 ", "&#xff1d;1 "]
IN_YAML_NAMES = [EVIL, "\u202e", "\u2066", "=1+1 ", "＝1 ", "x\\e]0;t "]  # YAML refuses raw controls in plain text


def _text_mutants(examples: list[tuple[str, str]], names: str = "text"):
    """(name, original, mutant): a cut of up to 40 characters anywhere, something hostile in its
    place; or something hostile put at the start of a name (`names`: how the files write them)."""
    starts = NAME_STARTS[names]
    in_names = {"xml": IN_XML_NAMES, "yaml": IN_YAML_NAMES}.get(names, IN_NAMES)

    def in_a_name(example: tuple[str, str], which: int, insert: str) -> tuple[str, str, str]:
        places = [m.end() for m in starts.finditer(example[1])] or [0]
        return (*example, _mutant(example[1], places[which % len(places)], 0, insert))

    return st.sampled_from(examples).flatmap(lambda example: st.one_of(
        st.builds(lambda cut, length, insert: (*example, _mutant(example[1], cut, length, insert)),
                  st.integers(0, 100_000), st.integers(0, 40), INSERTS),
        st.builds(in_a_name, st.just(example), st.integers(0, 10_000), st.sampled_from(in_names))))


def _bytes_mutants(name: str, data: bytes):
    """(name, original, mutant) of raw bytes: a few bytes cut, others put in their place."""
    return st.builds(lambda cut, length, insert: (name, data, data[:cut % (len(data) + 1)] + insert
                                                  + data[cut % (len(data) + 1) + length:]),
                     st.integers(0, len(data)), st.integers(0, 16), st.binary(max_size=16))


def _rezipped(name: str, original: bytes, ros: str) -> tuple[str, bytes, bytes]:
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(name.removesuffix("z"), ros.encode("utf-8", "surrogatepass"))
    return name, original, stream.getvalue()


def _files(*patterns: str, folder: Path = REAL) -> list[tuple[str, str]]:
    return [(p.name, p.read_text()) for pattern in patterns for p in sorted(folder.glob(pattern))]


# ------------------------------------------------------------- the outputs


def _terminal(text: str) -> str:
    """Shown on a terminal as the command line shows it: UTF-8, no raw control or bidi mark."""
    text.encode()
    assert not UNSAFE_CHARACTER.search(text.replace("\n", "")), repr(text)
    return text


def _csv(document: str) -> None:
    document.encode()
    for row in csv.reader(io.StringIO(document.removeprefix("\ufeff"))):
        for cell in row:
            assert not UNSAFE_CHARACTER.search(cell), repr(cell)
            assert cell.lstrip(" \t\r\n")[:1] not in ("=", "+", "@", "\uff1d") or cell.startswith("'"), cell


def _html(document: str) -> None:
    _terminal(document)
    assert EVIL not in document and "<x-" not in document


def _checked_forms(name: str, result, catalog) -> None:
    """`check` in its four forms and `stats` in its four, on this one roster."""
    submissions = {form: render_result(name, result, form) for form in ("text", "json", "csv", "html", "stats")}
    provenance = Provenance.of(__version__, catalog.data_version, [submissions["text"]])
    _terminal(printable_lines(report("text", [submissions["text"]], [], provenance, "Roster check")))
    json.loads(_terminal(printable_lines(report("json", [submissions["json"]], [], provenance, "Roster check"))))
    _csv(report("csv", [submissions["csv"]], [], provenance, "Roster check"))
    _html(report("html", [submissions["html"]], [], provenance, "Roster check"))
    names = {game: game_name(catalog, game) for game in known_games(catalog)}
    stats = field_stats([submissions["stats"]], [], provenance, names)
    _terminal(printable_lines(stats_report("text", stats)))
    json.loads(_terminal(printable_lines(stats_report("json", stats))))
    _csv(stats_report("csv", stats))
    _html(stats_report("html", stats))


def _outputs(name: str, result, original, catalog) -> None:
    """Every output of a checked roster; `original`: the checked roster it is a mutant of (or None)."""
    _checked_forms(name, result, catalog)
    write = system_for(result.roster.game).list_text
    if write is not None:
        for markdown in (False, True):
            _terminal(printable_lines(write(result, catalog, markdown)))
    if original is not None:
        for line in diff_lines("original", original, name, result, catalog):
            _terminal(printable(line))


def _pdf(name: str, result, original, catalog) -> None:
    assert roster_pdf(result, catalog, source=name).startswith(b"%PDF")


# ------------------------------------------------------------- the readers


def _refused(failure: LoadFailure, name: str) -> None:
    assert failure.findings and all(f.location is not None and f.location.file == name for f in failure.findings)


def _editor_read(catalog, text: str, name: str):
    """The editor's reader (ruamel's round trip, which keeps comments), checked and located: it opens
    every roster `check` reads, but where a tab, a YAML 1.1 line break or an explicit tag stands
    (libyaml takes some tabs that ruamel refuses, ruamel breaks lines at NEL, U+2028 and U+2029;
    `check` reads a tagged value as its text, the editor runs the tag or keeps it), and the editor
    then says where."""
    try:
        roster_file = parse_roster(text, name, catalog, round_trip=True)
    except LoadFailure:
        if not any(c in text for c in "\t\x85\u2028\u2029!"):
            with pytest.raises(LoadFailure):
                parse_roster(text, name, catalog)
        raise
    result = validate(roster_file.roster, catalog)
    result.findings = locate_all(roster_file, result.findings)
    return result


def _list_read(catalog, data: bytes, name: str):
    """As `import` reads a list (its YAML shown on the terminal), then as `check` reads the file."""
    try:
        imported = read_list_data(data, name, catalog, fallback=True)
    except UnicodeDecodeError:  # `import` says it cannot read the file
        imported = None
    except LoadFailure as failure:
        _refused(failure, name)
        imported = None
    written = None
    if imported is not None and imported.roster is not None:
        for finding in validate(imported.roster, catalog).findings:
            assert imported.locate(finding.path).file == name
        written = dump(imported.roster)
        _terminal(printable_lines(written))
    try:
        return check_file(Path(name), catalog, name, data=data)
    except LoadFailure as failure:
        _refused(failure, name)
    if written is None:
        raise LoadFailure([Finding("fuzz", "neither imported nor checked", location=Location(name))])
    return _editor_read(catalog, written, name)  # the roster `import` wrote, as the editor opens it


def _encoded(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")


_ORIGINALS: dict[tuple, object] = {}


def _original(reader, catalog, name: str, data: str | bytes):
    """The unmutated file checked (once), or None when it does not read."""
    key = (reader, id(catalog), name, data)
    if key not in _ORIGINALS:
        try:
            _ORIGINALS[key] = reader(catalog, data, name)
        except LoadFailure:
            _ORIGINALS[key] = None
    return _ORIGINALS[key]


def _case(reader, output):
    """Read a (name, original, mutant) through `reader`, then write what it read with `output`."""

    def check(catalog, drawn) -> None:
        name, original, mutant = drawn
        try:
            result = reader(catalog, mutant if reader is _editor_read else _encoded(mutant), name)
        except LoadFailure as failure:
            _refused(failure, name)
            return
        output(name, result, _original(reader, catalog, name, original if reader is _editor_read
                                       else _encoded(original)), catalog)

    return check


def _examples(folder: str) -> list[tuple[str, str]]:
    return [(str(p.relative_to(TESTS)), p.read_text()) for p in sorted((TESTS / folder).rglob("*.yaml"))]


def _exported(catalog, folder: str) -> list[tuple[str, str]]:
    """Each example roster that reads, as `export` writes it (plain and Markdown)."""
    texts = []
    for path in sorted((TESTS / folder).rglob("*.yaml")):
        try:
            result = check_file(path, catalog)
        except LoadFailure:
            continue
        write = system_for(result.roster.game).list_text
        texts += [(path.stem + ".txt", write(result, catalog, markdown)) for markdown in (False, True)]
    return texts


@pytest.fixture(scope="session")
def editor_epic(catalog):
    return catalog, _text_mutants(_examples("rosters") + _examples("epic-remastered-rosters"), "yaml")


@pytest.fixture(scope="session")
def editor_wh40k(all_games):  # noqa: F811 (the fixture imported above)
    return all_games, _text_mutants(_examples("wh40k-rosters"), "yaml")


@pytest.fixture(scope="session")
def epic_list_text(catalog):
    return catalog, _text_mutants(_exported(catalog, "rosters"))


@pytest.fixture(scope="session")
def app_text(all_games):  # noqa: F811
    return all_games, _text_mutants(_files("app/*.txt") + _files("app-*.txt", folder=LISTS))


@pytest.fixture(scope="session")
def new_recruit_text(all_games):  # noqa: F811
    return all_games, _text_mutants(_files("new-recruit/*/*.txt") + _files("nr-*.txt", folder=LISTS))


@pytest.fixture(scope="session")
def battlescribe_ros(all_games):  # noqa: F811
    return all_games, _text_mutants(_files("battlescribe/*.ros") + _files("*.ros", folder=LISTS), "xml")


@pytest.fixture(scope="session")
def battlescribe_rosz(all_games):  # noqa: F811
    """Each .rosz's inner .ros mutated and zipped again, or the .rosz's own bytes mutated."""
    zipped = [(p.name, p.read_bytes()) for p in sorted((REAL / "battlescribe").glob("*.rosz"))]
    inner = [(name, data, zipfile.ZipFile(io.BytesIO(data)).read(zipfile.ZipFile(io.BytesIO(data)).namelist()[0])
              .decode()) for name, data in zipped]
    rezipped = st.sampled_from(inner).flatmap(lambda one: _text_mutants([(one[0], one[2])], "xml").map(
        lambda drawn: _rezipped(one[0], one[1], drawn[2])))
    return all_games, st.one_of(rezipped, *(_bytes_mutants(name, data) for name, data in zipped))


# Each kind of case: its reader, and its cases in the suite's run (a 40k list of text is read in a
# tenth of a second: fewer of those).
READERS = {"editor_epic": (_editor_read, 30), "editor_wh40k": (_editor_read, 20), "epic_list_text": (_list_read, 30),
           "app_text": (_list_read, 8), "new_recruit_text": (_list_read, 8), "battlescribe_ros": (_list_read, 12),
           "battlescribe_rosz": (_list_read, 8)}
CASES = [(reader, "outputs", fast) for reader, (_, fast) in READERS.items()] + [
    (reader, "pdf", PDF_FAST) for reader in READERS]


def _fuzz(cases: int):
    return settings(max_examples=cases, deadline=None, database=None, derandomize=cases < THOROUGH,
                    suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("reader, output, cases", [
    *CASES, *(pytest.param(reader, output, THOROUGH, marks=pytest.mark.fuzz) for reader, output, _ in CASES)])
def test_fuzz_reader(request, reader, output, cases):
    catalog, mutants = request.getfixturevalue(reader)
    check = _case(READERS[reader][0], _outputs if output == "outputs" else _pdf)

    @_fuzz(cases)
    @given(drawn=mutants)
    def run(drawn):
        check(catalog, drawn)

    run()
