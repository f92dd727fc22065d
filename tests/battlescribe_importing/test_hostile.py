"""Hostile or broken input is refused with a clear UnreadableFile, never parsed at length."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from listbuilder.battlescribe.importing import UnreadableFile, bounds, read_data_json, read_data_xml, read_roster_xml
from listbuilder.battlescribe.importing.zipped import zip_single

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>
<catalogue id="c" name="&lol2;" gameSystemId="g"/>"""
EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE catalogue [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<catalogue id="c" name="&secret;" gameSystemId="g"/>"""
EXTERNAL_DTD = b'<?xml version="1.0"?>\n<!DOCTYPE catalogue SYSTEM "http://example.com/x.dtd">\n<catalogue id="c"/>'


def refusal(read: Callable[[bytes], object], data: bytes) -> UnreadableFile:
    with pytest.raises(UnreadableFile) as caught:
        read(data)
    return caught.value


@pytest.mark.parametrize("data", [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_DTD])
def test_a_doctype_or_entities_are_refused_before_parsing(data: bytes) -> None:
    error = refusal(read_data_xml, data)
    assert "DOCTYPE" in error.reason and error.line == 2


def test_a_doctype_in_utf16_is_refused_too() -> None:
    error = refusal(read_data_xml,
                    BILLION_LAUGHS.replace(b'"1.0"', b'"1.0" encoding="UTF-16"').decode().encode("utf-16"))
    assert "UTF-8" in error.reason


def test_an_undeclared_entity_is_not_well_formed() -> None:
    error = refusal(read_data_xml, b'<catalogue id="c" name="&nope;" gameSystemId="g"/>')
    assert "not well-formed" in error.reason and error.line == 1


@pytest.mark.parametrize("data", [b"", b"hello", b"{\"catalogue\": {}}", b"<catalogue id='c'>", b"\x89PNG\r\n"])
def test_not_xml_says_so(data: bytes) -> None:
    assert "XML" in refusal(read_data_xml, data).reason


def test_the_wrong_root_says_what_was_expected() -> None:
    error = refusal(read_data_xml, b'<roster id="r" name="R" gameSystemId="g"/>')
    assert "<roster>" in error.reason and "<gameSystem> or <catalogue>" in error.reason
    assert "<roster>" in refusal(read_roster_xml, b'<catalogue id="c"/>').reason


def test_a_bad_number_or_boolean_names_the_attribute_and_line() -> None:
    error = refusal(read_data_xml, b'<catalogue id="c">\n<costs><cost name="pts" value="lots"/></costs></catalogue>')
    assert 'value="lots"' in error.reason and error.line == 2
    assert "true or false" in refusal(read_data_xml, b'<catalogue id="c" library="maybe"/>').reason


def test_too_big_is_refused_before_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "MAX_FILE_BYTES", 100)
    error = refusal(read_data_xml, b"<catalogue>" + b" " * 200 + b"</catalogue>")
    assert "bytes" in error.reason


def test_too_deep_is_refused() -> None:
    depth = bounds.MAX_DEPTH + 1
    error = refusal(read_data_xml, b"<catalogue>" + b"<x a='1'>" * depth + b"</x>" * depth + b"</catalogue>")
    assert "nested" in error.reason


def test_too_many_elements_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "MAX_ELEMENTS", 50)
    error = refusal(read_data_xml, b"<catalogue><costs>" + b'<cost value="1"/>' * 60 + b"</costs></catalogue>")
    assert "elements" in error.reason


def test_a_zip_bomb_is_read_no_further_than_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "MAX_FILE_BYTES", 1_000_000)
    bomb = zip_single("bomb.cat", b"<catalogue>" + b" " * 5_000_000 + b"</catalogue>")
    assert len(bomb) < 20_000
    assert "bytes" in refusal(read_data_xml, bomb).reason


def test_a_zip_whose_header_understates_its_content_is_still_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "MAX_FILE_BYTES", 1_000_000)
    bomb = bytearray(zip_single("bomb.cat", b"<catalogue>" + b" " * 5_000_000 + b"</catalogue>"))
    for header, size_at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):  # uncompressed size, twice
        at = bomb.find(header) + size_at
        bomb[at:at + 4] = (100).to_bytes(4, "little")
    error = refusal(read_data_xml, bytes(bomb))
    assert "bytes" in error.reason or "damaged" in error.reason


def test_a_zip_with_more_than_one_file_or_a_damaged_zip_is_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.cat", "<catalogue/>")
        archive.writestr("b.cat", "<catalogue/>")
    assert "exactly one" in refusal(read_data_xml, buffer.getvalue()).reason
    assert "damaged" in refusal(read_data_xml, zip_single("a.cat", b"<catalogue/>")[:30]).reason


@pytest.mark.parametrize("data, words", [(b"[1, 2]", "not an object"), (b"{\"catalogue\": ", "not well-formed"),
                                         (b"{\"roster\": {}}", "neither"), (b"\xff\xfe", "not well-formed")])
def test_bad_json_says_why(data: bytes, words: str) -> None:
    assert words in refusal(read_data_json, data).reason


def test_json_too_deep_is_refused() -> None:
    deep: dict[str, Any] = {"id": "c", "gameSystemId": "g"}
    node = deep
    for _ in range(bounds.MAX_DEPTH + 1):
        node["child"] = {"a": 1}
        node = node["child"]
    assert "nested" in refusal(read_data_json, orjson.dumps({"catalogue": deep})).reason


def test_the_message_names_the_file_only_when_told() -> None:
    error = refusal(read_data_xml, b"<catalogue>")
    assert str(error).startswith("line 1: ")
    assert str(error.in_file("Orks.cat")).startswith("Orks.cat:1: ")


def test_a_doctype_hidden_behind_a_comment_is_still_refused() -> None:
    data = b'<!-- <a --><!DOCTYPE c [<!ENTITY e "x">]><catalogue id="c" name="&e;"/>'
    assert "DOCTYPE" in refusal(read_data_xml, data).reason


def test_lxmls_own_bounds_are_refusals_too() -> None:
    deep = 300  # beyond libxml2's 256 (ours is checked after parsing)
    error = refusal(read_data_xml, b"<catalogue>" + b"<x a='1'>" * deep + b"</x>" * deep + b"</catalogue>")
    assert "nested" in error.reason
    long_text = refusal(read_data_xml, b"<catalogue><d>" + b"x" * 11_000_000 + b"</d></catalogue>")
    assert "more than an XML parser is allowed" in long_text.reason
