"""One result type for every problem: a YAML typo, a missing datasheet or an illegal roster."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

Severity = Literal["error", "warning"]
Path = tuple[str | int, ...]
DATA_RULE = "data:"  # how a finding from the players' data (not the project's rules) begins its rule


@dataclass(frozen=True)
class Location:
    """Where in a file: its name as shown, and a 1-based line and column where known."""

    file: str
    line: int | None = None  # 1-based
    column: int | None = None  # 1-based

    def __str__(self) -> str:
        parts = [self.file] + [str(n) for n in (self.line, self.column) if n is not None]
        return ":".join(parts)


@dataclass(frozen=True)
class Finding:
    """One problem: a stable code, a sentence with its numbers, the rule it rests on, and where it is."""

    code: str  # stable, e.g. "points-over-limit"
    message: str  # a plain sentence with the numbers in it
    rule: str = ""  # the section it rests on, e.g. "6.3 Codex Astartes notes"
    severity: Severity = "error"
    path: Path = ()  # where in the roster: ("formations", 2, "upgrades", "Hunter")
    location: Location | None = None
    suggestion: str | None = None

    def located(self, location: Location | None) -> Finding:
        return replace(self, location=location)

    def moved(self, path: Path) -> Finding:
        """The same finding at another place: dataclasses.replace(self, path=path) at half its cost
        (a twin formation's findings are moved on every check)."""
        return Finding(self.code, self.message, self.rule, self.severity, path, self.location, self.suggestion)

    @property
    def where(self) -> str:
        if self.location is not None:
            return str(self.location)
        return ".".join(str(p) for p in self.path)


class LoadFailure(Exception):
    """Input that could not be read at all; carries one finding per problem."""

    def __init__(self, findings: list[Finding]):
        super().__init__("\n".join(f"{f.where}: {f.message}" for f in findings))
        self.findings = findings


@dataclass
class FindingList:
    """The findings of one check, in the order they were found."""

    items: list[Finding] = field(default_factory=list)

    def add(self, code: str, message: str, rule: str = "", path: Path = (), severity: Severity = "error",
            suggestion: str | None = None) -> None:
        self.items.append(Finding(code, message, rule, severity, path, suggestion=suggestion))


def finding_json(finding: Finding) -> dict[str, Any]:
    return {"severity": finding.severity, "code": finding.code, "message": finding.message,
            "where": finding.where, "rule": finding.rule, "suggestion": finding.suggestion}


def finding_message(finding: Finding) -> str:
    """The message with its suggestion, if any: what every view prints as the finding itself."""
    return finding.message + (f" ({finding.suggestion})" if finding.suggestion else "")


def finding_text(finding: Finding) -> str:
    rule = f" [{finding.rule}]" if finding.rule else ""
    return f"{finding.where}: {finding.severity}: {finding_message(finding)}{rule}"
