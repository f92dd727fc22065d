"""Parsing a stranger's XML with lxml: no DTD, no entities, no network, bounded.

A BattleScribe file never declares a DOCTYPE, so any that does (the carrier of entity bombs and
external entities) is refused before parsing; lxml is also told never to load a DTD, resolve an
entity or touch the network, and keeps its own limits on depth and text size (no huge_tree).
Comments and processing instructions are left out, and so is the blank text between elements."""

from __future__ import annotations

import re

from lxml import etree

from .bounds import check_size, too_deep
from .errors import UnreadableFile
from .zipped import is_zip, unzip_single

ROOT_START = re.compile(rb"<[A-Za-z_]")
DECLARATION = re.compile(rb"<!(?:DOCTYPE|ENTITY)", re.IGNORECASE)
UTF16_OR_32_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


def _parser() -> etree.XMLParser:
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
                           huge_tree=False, remove_comments=True, remove_pis=True, remove_blank_text=True)


def xml_bytes(data: bytes) -> bytes:
    """The XML of a file given plain or zipped, its size checked."""
    check_size(len(data))
    return unzip_single(data) if is_zip(data) else data


def parse(data: bytes) -> etree._Element:
    """The root element of XML bytes, or UnreadableFile saying why not."""
    check_size(len(data))
    _refuse_declarations(data)
    try:
        root = etree.fromstring(data, _parser())
    except etree.XMLSyntaxError as error:
        raise _syntax_refusal(error) from None
    except ValueError as error:  # e.g. an encoding lxml does not know
        raise UnreadableFile(f"this is not readable XML ({error})") from None
    if root.getroottree().docinfo.doctype:  # declared in an encoding the byte scan cannot see
        raise _declaration_refusal(None)
    return root


def _syntax_refusal(error: etree.XMLSyntaxError) -> UnreadableFile:
    """lxml's complaint as a refusal: a bound of its own it met (too deep, a text too long), or
    XML that is not well-formed."""
    line = error.position[0] if error.position else None
    message = str(error.msg)
    if "Excessive depth" in message:
        return UnreadableFile(too_deep().reason, line)
    if "XML_PARSE_HUGE" in message or "Resource limit" in message:
        return UnreadableFile(f"the file holds more than an XML parser is allowed to read ({message}); "
                              "it is refused", line)
    return UnreadableFile(f"this is not well-formed XML ({message}); is the file truncated or not a "
                          "BattleScribe file?", line)


def _refuse_declarations(data: bytes) -> None:
    if data.startswith(UTF16_OR_32_BOMS) or b"\x00" in data[:64]:
        raise UnreadableFile("the file is not UTF-8 (BattleScribe files always are)")
    root_at = ROOT_START.search(data)
    prolog = data[:root_at.start()] if root_at else data
    declared = DECLARATION.search(prolog)
    if declared:
        raise _declaration_refusal(prolog.count(b"\n", 0, declared.start()) + 1)


def _declaration_refusal(line: int | None) -> UnreadableFile:
    return UnreadableFile("the file declares a DOCTYPE or entities (the way XML bombs and external "
                          "entities are carried); BattleScribe files never do, so it is refused", line)
