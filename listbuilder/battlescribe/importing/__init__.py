"""Reading BattleScribe files: bytes in, the engine's dict form out (and rosters back to bytes).

The only part of the engine that parses files (with lxml, hardened); it opens none itself."""

from .compile import compile_data, faction_catalogues
from .data_json import read_data_json
from .data_xml import DataRoot, read_data_xml
from .errors import UnreadableFile
from .roster_xml import RosterWriteError, read_roster_xml, write_roster_rosz, write_roster_xml

__all__ = ["DataRoot", "RosterWriteError", "UnreadableFile", "compile_data", "faction_catalogues", "read_data_json",
           "read_data_xml", "read_roster_xml", "write_roster_rosz", "write_roster_xml"]
