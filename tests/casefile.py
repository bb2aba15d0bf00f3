"""Load the rule book's worked cases (``docs/rule_cases.md``, ``docs/rule_cases_more.md``):
one fenced ```yaml block per case.

The project carries its own copy of the rule book (``docs/rules.md``) and of its cases, so a plain
clone is whole. Each case becomes one :class:`Entry`, and each of its ``alt`` entries another one
with the alt's keys applied over the case.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

__all__ = ["CaseFileError", "Entry", "cases_path", "docs_dir", "expand", "load_all_cases",
           "load_cases", "more_cases_path"]

_FENCE_OPEN = re.compile(r"^```yaml[ \t]*\r?$", re.M)
_BLOCK = re.compile(r"^```yaml[ \t]*\r?\n(.*?)^```[ \t]*\r?$", re.S | re.M)


class CaseFileError(RuntimeError):
    """The case file is missing or cannot be read as a list of cases."""


def docs_dir() -> Path:
    return Path(__file__).resolve().parents[1] / "docs"


def cases_path() -> Path:
    return docs_dir() / "rule_cases.md"


def more_cases_path() -> Path:
    """The second file (cabrero, gana-pierde, cabrón with four): same schema, its own ids."""
    return docs_dir() / "rule_cases_more.md"


def load_all_cases() -> list[dict[str, Any]]:
    """The cases of both files, ``rule_cases.md`` first (its test ids are unchanged)."""
    return load_cases() + load_cases(more_cases_path())


def load_cases(path: Path | None = None) -> list[dict[str, Any]]:
    """Every case of the file, in file order; raises :class:`CaseFileError` with the reason."""
    path = path or cases_path()
    if not path.is_file():
        raise CaseFileError(
            f"rule cases not found at {path}: the project's copy lives in docs/rule_cases.md"
        )
    text = path.read_text(encoding="utf-8")
    blocks = _BLOCK.findall(text)
    opened = len(_FENCE_OPEN.findall(text))
    if opened != len(blocks):  # an unclosed or malformed fence would silently drop cases
        raise CaseFileError(f"{path}: {opened} ```yaml fences but {len(blocks)} complete blocks")
    cases: list[dict[str, Any]] = []
    for n, block in enumerate(blocks, 1):
        try:
            data = yaml.safe_load(block)
        except yaml.YAMLError as exc:
            raise CaseFileError(f"{path}: yaml block {n} does not parse: {exc}") from None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise CaseFileError(f"{path}: yaml block {n} is not a mapping with a string 'id'")
        cases.append(data)
    return cases


@dataclass(frozen=True)
class Entry:
    """One test: a case, or one of its ``alt`` entries applied over it."""

    test_id: str  # "P03", "P03-alt1"
    case_id: str
    alt: int  # 0 for the case itself
    data: dict[str, Any]  # the case with the alt applied; no "alt" key

    @property
    def variant(self) -> str:
        return str(self.data["variant"])

    @property
    def options(self) -> dict[str, Any] | None:
        opts = self.data.get("options")
        return dict(opts) if opts else None

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)


def expand(case: dict[str, Any]) -> list[Entry]:
    """The case and its alts. An alt's ``options`` are merged over the case's; its other keys
    replace the case's."""
    base = {k: v for k, v in case.items() if k != "alt"}
    entries = [Entry(case["id"], case["id"], 0, base)]
    for i, alt in enumerate(case.get("alt") or [], 1):
        if not isinstance(alt, dict):
            raise CaseFileError(f"{case['id']}: alt {i} is not a mapping")
        data = {**base, **{k: v for k, v in alt.items() if k != "options"}}
        options = {**(base.get("options") or {}), **(alt.get("options") or {})}
        if options:
            data["options"] = options
        entries.append(Entry(f"{case['id']}-alt{i}", case["id"], i, data))
    return entries
