"""House style is part of the suite: ruff on everything, mypy --strict on the core."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = Path(sys.executable).parent / name
    found = str(path) if path.exists() else shutil.which(name)
    if not found:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]')")
    return found


def test_ruff() -> None:
    out = subprocess.run([_tool("ruff"), "check", "src", "tests", "bench"], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_mypy_strict_core() -> None:
    out = subprocess.run([_tool("mypy")], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_core_imports_nothing_third_party() -> None:
    """The core (``import tute``) must work with the standard library alone."""
    code = ("import sys, tute, tute.match, tute.records;"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'typer','textual','fastapi','numba','numpy','sqlalchemy','uvicorn'});"
            "print(bad); sys.exit(1 if bad else 0)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True)
    assert out.returncode == 0, out.stdout + out.stderr


OUTSIDE = "/".join(("..", "shar" + "ed"))  # the folder beside the repository (spelt apart so
# that this file does not match itself)


def test_repository_stands_alone() -> None:
    """A plain clone is whole: every relative link of the Markdown files resolves inside the
    repository, and no test or module reads a folder beside it."""
    import re

    broken = []
    for md in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
               *sorted(ROOT.glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", md.read_text("utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            path = (md.parent / target).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{md.relative_to(ROOT)} -> {target}")
    assert not broken, broken
    outside = [str(p.relative_to(ROOT)) for d in ("src", "tests") for p in (ROOT / d).rglob("*.py")
               if OUTSIDE in p.read_text("utf-8")]
    assert not outside, outside
    for name in ("LICENSE", "docs/rules.md", "docs/rule_cases.md", "src/tute/py.typed"):
        assert (ROOT / name).is_file(), name
