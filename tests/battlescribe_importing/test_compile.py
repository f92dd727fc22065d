"""compile_data: a game system and its catalogues, any forms, into one bundle; files that do not
belong are refused naming the file."""

from __future__ import annotations

import orjson
import pytest

from listbuilder.battlescribe.importing import UnreadableFile, compile_data
from listbuilder.battlescribe.importing.zipped import zip_single

SYSTEM = b'<gameSystem id="gs" name="Game" revision="2">\n' \
         b'<costTypes><costType id="pts" name="pts"/></costTypes>\n</gameSystem>'
CATALOGUE = b'<catalogue id="c1" name="One" revision="5" gameSystemId="gs">\n<selectionEntries>\n' \
            b'<selectionEntry id="e1" name="Unit" type="unit"/>\n</selectionEntries>\n</catalogue>'
JSON_CATALOGUE = orjson.dumps({"catalogue": {"id": "c2", "name": "Two", "gameSystemId": "gs", "revision": 1}})


def refusal(files: dict[str, bytes]) -> UnreadableFile:
    with pytest.raises(UnreadableFile) as caught:
        compile_data(files)
    return caught.value


def test_a_bundle_of_every_form() -> None:
    bundle = compile_data({"Game.gstz": zip_single("Game.gst", SYSTEM), "One.cat": CATALOGUE,
                           "Two.json": JSON_CATALOGUE})
    assert bundle["gameSystem"]["id"] == "gs" and bundle["gameSystem"]["sourceLine"] == 1
    assert [root["id"] for root in bundle["catalogues"]] == ["c1", "c2"]
    assert bundle["catalogues"][0]["selectionEntries"][0]["sourceLine"] == 3
    assert bundle["sources"] == {"gs": {"file": "Game.gstz", "revision": 2}, "c1": {"file": "One.cat", "revision": 5},
                                 "c2": {"file": "Two.json", "revision": 1}}


def test_an_unreadable_file_is_named_with_its_line() -> None:
    error = refusal({"Game.gst": SYSTEM, "Broken.cat": b"<catalogue id='x' gameSystemId='gs'>\n<oops>"})
    assert error.file == "Broken.cat" and error.line == 2 and str(error).startswith("Broken.cat:2: ")


@pytest.mark.parametrize("files, words", [
    ({"One.cat": CATALOGUE}, "exactly one game system"),
    ({"Game.gst": SYSTEM, "Again.gst": SYSTEM.replace(b'"gs"', b'"gs2"')}, "exactly one game system"),
    ({"Game.gst": SYSTEM, "Other.cat": CATALOGUE.replace(b'gameSystemId="gs"', b'gameSystemId="zz"')}, "'zz'"),
    ({"Game.gst": SYSTEM, "One.cat": CATALOGUE, "Copy.cat": CATALOGUE}, "also the id of"),
    ({"Game.gst": SYSTEM, "notes.txt": b"hello"}, "should end .gst"),
])
def test_files_that_do_not_belong_are_refused(files: dict[str, bytes], words: str) -> None:
    assert words in str(refusal(files))
