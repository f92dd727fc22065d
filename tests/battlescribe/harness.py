"""Drives the BattleScribe engine through the conformance specs of ../shared (test input only).

A spec sets up data, runs actions and asserts states. We play the New Recruit engine's part: its
per-engine overrides (``engines: newrecruit:``) replace the base expectation, and its skips apply.
The specs themselves are read from ../shared at test time and never copied here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from listbuilder.battlescribe.editor import Editor
from listbuilder.battlescribe.importing.roster_xml import read_roster_xml
from listbuilder.battlescribe.roster import Force, Selection
from listbuilder.battlescribe.validate import RuleError

ENGINE = "newrecruit"
HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SPEC_ROOT = REPO.parent / "shared" / "fixtures" / "battlescribe-spec" / "roster-specs"
NOT_APPLICABLE_FILE = HERE / "not_applicable.yaml"
KNOWN_FAILURES_FILE = HERE / "known_failures.yaml"

_REFERENCE = re.compile(r"\$\{\{\s*steps\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_.:-]+)\s*\}\}")


class SpecFailure(AssertionError):
    """A spec's expectation the engine did not meet."""


@dataclass
class Spec:
    id: str
    path: Path
    body: dict[str, Any]


def _yaml() -> YAML:
    return YAML(typ="safe")


def spec_files() -> list[Path]:
    return sorted(SPEC_ROOT.glob("*/*.yaml")) if SPEC_ROOT.is_dir() else []


def load_spec(path: Path) -> Spec:
    body = _yaml().load(path.read_text(encoding="utf-8"))
    return Spec(str(body["id"]), path, body)


def load_reasons(path: Path) -> dict[str, str]:
    """A spec id -> reason file (not_applicable.yaml, known_failures.yaml)."""
    if not path.is_file():
        return {}
    loaded = _yaml().load(path.read_text(encoding="utf-8")) or {}
    return {str(k): str(v) for k, v in loaded.items()}


# -- running ------------------------------------------------------------------------------------


class Runner:
    """Runs one spec's steps against a fresh editor."""

    def __init__(self, spec: Spec):
        self.spec = spec
        setup = spec.body["setup"]
        self.editor = Editor(setup.get("gameSystem") or {}, list(setup.get("catalogues") or []), name=spec.id)
        self.outputs: dict[str, dict[str, Any]] = {}
        self.skipped: list[str] = []  # steps not applicable to this engine

    def run(self) -> None:
        for index, step in enumerate(self.spec.body["steps"]):
            if ENGINE in (step.get("skipEngines") or []):
                continue
            try:
                if "action" in step:
                    self.act(step)
                elif "expectedState" in step:
                    self.check(step["expectedState"])
                elif "expectedFile" in step:
                    # New Recruit's own .ros writer, byte for byte: another program's layout, not
                    # applicable (not_applicable.yaml says so for specs that are nothing else)
                    self.skipped.append(f"step {index + 1}: expectedFile")
            except SpecFailure as failure:
                raise SpecFailure(f"step {index + 1}: {failure}") from None

    # -- actions --------------------------------------------------------------------------------

    def resolve(self, value: Any) -> Any:
        if not isinstance(value, str):
            return value

        def replace(match: re.Match[str]) -> str:
            step_id, field_path = match.group(1), match.group(2)
            current: Any = self.outputs.get(step_id, {})
            for part in field_path.split("."):
                current = current.get(part) if isinstance(current, dict) else None
            if current is None:
                raise SpecFailure(f"no output {field_path} from step {step_id}")
            return str(current)

        return _REFERENCE.sub(replace, value)

    def act(self, step: dict[str, Any]) -> None:
        inputs = {k: self.resolve(v) for k, v in step.items() if k not in ("engines", "skipEngines")}
        override = (step.get("engines") or {}).get(ENGINE) or {}
        inputs.update({k: self.resolve(v) for k, v in override.items()})
        outputs = self.perform(str(step["action"]), inputs)
        if "id" in step:
            self.outputs[str(step["id"])] = outputs

    def _force(self, inputs: dict[str, Any]) -> Force:
        try:
            return self.editor.roster.find_force(str(inputs["forceId"]))
        except KeyError as error:
            raise SpecFailure(str(error)) from None

    def _selection(self, inputs: dict[str, Any]) -> Selection:
        try:
            return self.editor.roster.find_selection(str(inputs["selectionId"]))
        except KeyError as error:
            raise SpecFailure(str(error)) from None

    def perform(self, action: str, inputs: dict[str, Any]) -> dict[str, Any]:
        editor = self.editor
        if action in ("addForce", "addChildForce"):
            parent = self._force(inputs) if action == "addChildForce" else None
            force, auto = editor.add_force(str(inputs["forceEntryId"]), inputs.get("catalogueId"), parent)
            return {"forceId": force.id, "selections": auto}
        if action == "removeForce":
            editor.remove_force(self._force(inputs))
            return {}
        if action == "duplicateForce":
            return {"forceId": editor.duplicate_force(self._force(inputs)).id}
        if action == "selectEntry":
            selection, auto = editor.select_entry(self._force(inputs), str(inputs["entryId"]))
            return {"selectionId": selection.id, "selections": auto}
        if action == "selectChildEntry":
            selection, auto = editor.select_child_entry(self._selection(inputs), str(inputs["entryId"]))
            return {"selectionId": selection.id, "selections": auto}
        if action == "deselectSelection":
            editor.deselect(self._selection(inputs))
            return {}
        if action == "setSelectionCount":
            editor.set_count(self._selection(inputs), int(inputs["count"]))
            return {}
        if action == "duplicateSelection":
            return {"selectionId": editor.duplicate_selection(self._selection(inputs)).id}
        if action == "setCostLimit":
            editor.set_cost_limit(str(inputs["costTypeId"]), float(inputs["value"]))
            return {}
        if action == "setCustomization" and inputs.get("categoryEntryId"):
            editor.set_category_customization(self._force(inputs), str(inputs["categoryEntryId"]),
                                              inputs.get("customName"), inputs.get("customNotes"))
            return {}
        if action == "setCustomization":
            target: Force | Selection = (self._selection(inputs) if inputs.get("selectionId")
                                         else self._force(inputs))
            editor.set_customization(target, inputs.get("customName"), inputs.get("customNotes"))
            return {}
        if action == "reload":
            problems = editor.reload()
            if problems:
                raise SpecFailure(f"reload lost {[p.message for p in problems]}")
            return {}
        if action == "loadRoster":
            problems = editor.load(read_roster_xml(str(inputs["content"]).encode("utf-8")))
            if problems:
                raise SpecFailure(f"loading the roster lost {[p.message for p in problems]}")
            return {}
        if action == "dump":
            return {}
        raise SpecFailure(f"unknown action {action}")

    # -- expectations ---------------------------------------------------------------------------

    def check(self, expected: dict[str, Any]) -> None:
        expected = for_engine(expected)
        state = self.editor.state()
        compare_roster(expected, state, is_data_source="dataSource" in self.spec.body["setup"])


def for_engine(expected: dict[str, Any]) -> dict[str, Any]:
    """The expectation New Recruit is held to: its override's fields replace the base ones."""
    merged = {k: v for k, v in expected.items() if k != "engines"}
    override = (expected.get("engines") or {}).get(ENGINE) or {}
    merged.update({k: v for k, v in override.items() if v is not None})
    return merged


# -- comparing ----------------------------------------------------------------------------------


def _fail(where: str, expected: Any, actual: Any) -> SpecFailure:
    return SpecFailure(f"{where}: expected {expected!r}, got {actual!r}")


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return bool(expected) == bool(actual) if actual is not None else expected is False
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return abs(float(expected) - float(actual)) < 1e-6
    if isinstance(expected, (int, float)) and isinstance(actual, str):
        return actual == str(expected)
    return bool(expected == actual)


def compare_roster(expected: dict[str, Any], state: dict[str, Any], is_data_source: bool = False) -> None:
    for key in ("name", "gameSystemId", "gameSystemName"):
        if key in expected and not _same(expected[key], state.get(key)):
            raise _fail(key, expected[key], state.get(key))
    forces = state["forces"]
    if "forceCount" in expected and expected["forceCount"] != len(forces):
        raise _fail("forceCount", expected["forceCount"], len(forces))
    if "selectionCount" in expected:
        count = sum(len(f["selections"]) for f in forces)
        if expected["selectionCount"] != count:
            raise _fail("selectionCount", expected["selectionCount"], count)
    if "costs" in expected:
        compare_costs("costs", expected["costs"], state["costs"])
    if "costCount" in expected and expected["costCount"] != len(state["costs"]):
        raise _fail("costCount", expected["costCount"], len(state["costs"]))
    if "costLimits" in expected:
        compare_costs("costLimits", expected["costLimits"], state["costLimits"])
    if "costLimitCount" in expected and expected["costLimitCount"] != len(state["costLimits"]):
        raise _fail("costLimitCount", expected["costLimitCount"], len(state["costLimits"]))
    if "forces" in expected:
        compare_list("forces", expected["forces"], forces, compare_force)
    compare_errors(expected, state["errors"], is_data_source)


def compare_list(where: str, expected: list[Any], actual: list[Any], compare: Any) -> None:
    """Forces, child forces and selections are compared whole and in order."""
    if len(expected) != len(actual):
        names = [a.get("name") for a in actual]
        raise _fail(f"{where} count", len(expected), f"{len(actual)} {names}")
    for index, (e, a) in enumerate(zip(expected, actual, strict=True)):
        compare(f"{where}[{index}]", e, a)


def compare_keyed(where: str, expected: list[dict[str, Any]], actual: list[dict[str, Any]],
                  keys: tuple[str, ...], compare: Any) -> None:
    """Profiles, rules, categories and publications: each expected item is found by its first
    key present (by position when it names none), and there may be no more actual items than
    expected ones. Their order is not asserted, as the suite's own runner does not assert it."""
    if len(actual) > len(expected):
        raise _fail(f"{where} count", len(expected), [a.get("name") for a in actual])
    for index, item in enumerate(expected):
        key = next((k for k in keys if k in item), None)
        if key is None:
            match = actual[index] if index < len(actual) else None
        else:
            match = next((a for a in actual if a.get(key) == item[key]), None)
        if match is None:
            raise _fail(f"{where}[{index}]", item, [a.get("name") for a in actual])
        compare(f"{where}[{item.get(key) if key else index}]", item, match)


def compare_costs(where: str, expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> None:
    """Costs are an exact set keyed by cost type (or name)."""
    compare_keyed(where, expected, actual, ("typeId", "name"),
                  lambda w, e, a: _scalars(w, e, a, ("name", "value", "hidden")))


def _scalars(where: str, expected: dict[str, Any], actual: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        if key in expected and not _same(expected[key], actual.get(key)):
            raise _fail(f"{where}.{key}", expected[key], actual.get(key))


def _not_hidden_unless_said(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    """A force, selection, profile or rule must not be hidden unless the spec says it is."""
    if not _same(expected.get("hidden", False), bool(actual.get("hidden"))):
        raise _fail(f"{where}.hidden", expected.get("hidden", False), actual.get("hidden"))


def compare_force(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    _scalars(where, expected, actual, ("name", "publicationId", "page", "entryId", "catalogueId",
                                       "catalogueName", "customName", "customNotes"))
    _not_hidden_unless_said(where, expected, actual)
    if "selectionCount" in expected and expected["selectionCount"] != len(actual["selections"]):
        raise _fail(f"{where}.selectionCount", expected["selectionCount"],
                    [s["name"] for s in actual["selections"]])
    if "childForceCount" in expected and expected["childForceCount"] != len(actual["childForces"]):
        raise _fail(f"{where}.childForceCount", expected["childForceCount"], len(actual["childForces"]))
    if "categoryCount" in expected and expected["categoryCount"] != len(actual["categories"]):
        raise _fail(f"{where}.categoryCount", expected["categoryCount"], len(actual["categories"]))
    if "childForces" in expected:
        compare_list(f"{where}.childForces", expected["childForces"], actual["childForces"], compare_force)
    if "selections" in expected:
        compare_list(f"{where}.selections", expected["selections"], actual["selections"], compare_selection)
    _infos(where, expected, actual)
    if "categories" in expected:
        compare_keyed(f"{where}.categories", expected["categories"], actual["categories"], ("entryId", "name"),
                      compare_category)
    if "publications" in expected:
        compare_keyed(f"{where}.publications", expected["publications"], actual["publications"], ("id", "name"),
                      lambda w, e, a: _scalars(w, e, a, ("id", "name")))


def _infos(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    if "profiles" in expected:
        compare_keyed(f"{where}.profiles", expected["profiles"], actual["profiles"], ("name",), compare_profile)
    if "rules" in expected:
        compare_keyed(f"{where}.rules", expected["rules"], actual["rules"], ("name",), compare_rule)


def compare_selection(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    _scalars(where, expected, actual, ("name", "type", "number", "page", "publicationId",
                                       "publicationName", "entryGroupId", "entryId", "customName", "customNotes"))
    _not_hidden_unless_said(where, expected, actual)
    if "costs" in expected:
        compare_costs(f"{where}.costs", expected["costs"], actual["costs"])
    if "childCount" in expected and expected["childCount"] != len(actual["children"]):
        raise _fail(f"{where}.childCount", expected["childCount"], len(actual["children"]))
    if "children" in expected:
        compare_list(f"{where}.children", expected["children"], actual["children"], compare_selection)
    _infos(where, expected, actual)
    if "categories" in expected:
        compare_keyed(f"{where}.categories", expected["categories"], actual["categories"], ("entryId", "name"),
                      compare_category)


def compare_category(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    _scalars(where, expected, actual, ("name", "entryId", "primary", "publicationId", "page",
                                       "customName", "customNotes"))
    _infos(where, expected, actual)


def compare_rule(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    _scalars(where, expected, actual, ("name", "description", "page", "publicationId"))
    _not_hidden_unless_said(where, expected, actual)


def compare_profile(where: str, expected: dict[str, Any], actual: dict[str, Any]) -> None:
    _scalars(where, expected, actual, ("name", "typeId", "typeName", "page", "publicationId"))
    _not_hidden_unless_said(where, expected, actual)
    for characteristic in expected.get("characteristics") or []:
        match = next((c for c in actual["characteristics"] if c["name"] == characteristic.get("name")), None)
        if match is None:
            raise _fail(f"{where}.characteristics", characteristic, actual["characteristics"])
        _scalars(f"{where}.characteristics", characteristic, match, ("typeId", "value"))


# -- errors ---------------------------------------------------------------------------------------


def error_matches(assertion: dict[str, Any], error: RuleError) -> bool:
    """Whether an 'on'/'from' assertion names this error."""
    owner_type, _, owner_id = str(assertion.get("on", "")).partition(" ")
    if owner_type != error.owner_type or (owner_id and owner_id not in error.owner_ids):
        return False
    source = assertion.get("from")
    if source:
        entry_id, _, constraint_id = str(source).rpartition("/")
        if not entry_id:
            entry_id, constraint_id = constraint_id, ""
        if entry_id == "costLimits":
            if "costLimits" not in error.source_ids or error.constraint_id != constraint_id:
                return False
        elif entry_id not in error.source_ids or (constraint_id and constraint_id != error.constraint_id):
            return False
    text = assertion.get("messageContains")
    return not text or str(text).lower() in error.message.lower()


def _describe(errors: list[RuleError]) -> list[str]:
    return [f"{e.owner_type} {sorted(e.owner_ids)} from {sorted(e.source_ids)}/{e.constraint_id}" for e in errors]


def _exact_match(assertions: list[dict[str, Any]], errors: list[RuleError]) -> bool:
    """A one-to-one pairing of assertions and errors (small lists: plain backtracking)."""
    if len(assertions) != len(errors):
        return False

    def pair(index: int, used: set[int]) -> bool:
        if index == len(assertions):
            return True
        for j, error in enumerate(errors):
            if j not in used and error_matches(assertions[index], error) and pair(index + 1, used | {j}):
                return True
        return False

    return pair(0, set())


def compare_errors(expected: dict[str, Any], errors: list[RuleError], is_data_source: bool) -> None:
    if "errorCount" in expected:
        if expected["errorCount"] != len(errors):
            raise _fail("errorCount", expected["errorCount"], _describe(errors))
        return
    if "errorsContain" in expected:
        for assertion in expected["errorsContain"]:
            if not any(error_matches(assertion, e) for e in errors):
                raise _fail("errorsContain", assertion, _describe(errors))
        return
    if "errors" in expected:
        if not _exact_match(list(expected["errors"] or []), errors):
            raise _fail("errors", expected["errors"], _describe(errors))
        return
    if not is_data_source and errors:
        raise _fail("errors (none expected)", [], _describe(errors))


# -- the whole suite ---------------------------------------------------------------------------------


def applicability(spec: Spec, not_applicable: dict[str, str]) -> str | None:
    """Why a spec does not apply to this engine, or None."""
    return not_applicable.get(spec.id)


def run_spec(spec: Spec) -> None:
    Runner(spec).run()


def run_all() -> dict[str, str | None]:
    """Every applicable spec's outcome: None for a pass, else the failure."""
    not_applicable = load_reasons(NOT_APPLICABLE_FILE)
    outcomes: dict[str, str | None] = {}
    for path in spec_files():
        spec = load_spec(path)
        if applicability(spec, not_applicable):
            continue
        try:
            run_spec(spec)
            outcomes[spec.id] = None
        except Exception as error:  # noqa: BLE001 - a crash is a failure to report, not to hide
            outcomes[spec.id] = f"{type(error).__name__}: {error}"
    return outcomes
