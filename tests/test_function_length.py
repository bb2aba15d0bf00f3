"""No function longer than 120 lines (CONTRIBUTING.md): a long function is a module's worth of
work in one place, hard to read and to test by parts. The solver's unrolled search and the
numba kernel are the exceptions (their length is their speed)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "tute"
LIMIT = 120
EXEMPT = ("solver/_search.py", "kernel/")


def python_functions(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every function and method, nested ones included."""
    out = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            end = node.end_lineno or node.lineno
            out.append((node.name, node.lineno, end - node.lineno + 1))
    return out


_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_NAMED = re.compile(r"function\s*\*?\s*([A-Za-z_$][\w$]*)?")
# after these a "/" starts a regular expression, not a division
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
_REGEX_WORDS = {"return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void",
                "throw", "yield", "await"}


def _js_tokens(text: str) -> list[tuple[str, int]]:
    """The structure of a script: (token, offset) for ( ) { } => and the word ``function``,
    outside strings, comments, regular expressions and template text. A template's ``${``
    and its closing ``}`` are left out, so braces balance within the code around them."""
    out: list[tuple[str, int]] = []
    stack: list[str] = []  # "{" a code brace, "${" a template's code, "`" template text
    i, n = 0, len(text)
    last = ""  # the last significant character or word in code, for regex detection
    while i < n:
        c = text[i]
        if stack and stack[-1] == "`":  # inside a template's text
            if c == "\\":
                i += 2
            elif c == "`":
                stack.pop()
                last = "`"
                i += 1
            elif text.startswith("${", i):
                stack.append("${")
                last = "{"
                i += 2
            else:
                i += 1
            continue
        if c.isspace():
            i += 1
        elif text.startswith("//", i):
            i = text.find("\n", i) if "\n" in text[i:] else n
        elif text.startswith("/*", i):
            i = text.index("*/", i + 2) + 2
        elif c in "'\"":
            j = i + 1
            while text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            last = c
        elif c == "`":
            stack.append("`")
            i += 1
        elif c == "/" and (last in _REGEX_AFTER or last in _REGEX_WORDS):
            j, in_class = i + 1, False
            while in_class or text[j] != "/":
                if text[j] == "\\":
                    j += 1
                elif text[j] == "[":
                    in_class = True
                elif text[j] == "]":
                    in_class = False
                j += 1
            i = j + 1
            last = "/regex"
        elif text.startswith("=>", i):
            out.append(("=>", i))
            last = ">"
            i += 2
        elif c == "{":
            stack.append("{")
            out.append(("{", i))
            last = c
            i += 1
        elif c == "}":
            if stack and stack[-1] == "${":
                stack.pop()  # back to the template's text
            else:
                if stack:
                    stack.pop()
                out.append(("}", i))
            last = c
            i += 1
        elif m := _WORD.match(text, i):
            word = m.group()
            if word == "function":
                out.append(("function", i))
            last = word
            i = m.end()
        else:
            if c in "()":
                out.append((c, i))
            last = c
            i += 1
    return out


def _close(tokens: list[tuple[str, int]], k: int, opening: str, closing: str) -> int:
    """The index of the token that closes the one at ``k``."""
    depth = 0
    for j in range(k, len(tokens)):
        if tokens[j][0] == opening:
            depth += 1
        elif tokens[j][0] == closing:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError(f"unbalanced {opening} at offset {tokens[k][1]}")


def js_functions(text: str) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every ``function`` and every arrow function with a block
    body, nested ones included."""
    tokens = _js_tokens(text)

    def line(offset: int) -> int:
        return text.count("\n", 0, offset) + 1

    out = []
    for k, (tok, at) in enumerate(tokens):
        if tok == "function":
            paren = next(j for j in range(k, len(tokens)) if tokens[j][0] == "(")
            body = _close(tokens, paren, "(", ")") + 1
            name = _NAMED.match(text, at)
        elif tok == "=>" and k + 1 < len(tokens) and tokens[k + 1][0] == "{" and \
                not text[at + 2:tokens[k + 1][1]].strip():
            body, name = k + 1, None
        else:
            continue
        end = _close(tokens, body, "{", "}")
        label = name.group(1) if name and name.group(1) else f"(function at line {line(at)})"
        out.append((label, line(at), line(tokens[end][1]) - line(at) + 1))
    return out


def _rel(path: Path) -> str:
    return path.relative_to(SRC).as_posix()


def test_python_functions_are_short() -> None:
    long = [f"{_rel(p)}:{first} {name} ({lines} lines)"
            for p in sorted(SRC.rglob("*.py")) if not _rel(p).startswith(EXEMPT)
            for name, first, lines in python_functions(p.read_text(encoding="utf-8"))
            if lines > LIMIT]
    assert not long, "functions over 120 lines:\n" + "\n".join(long)


def test_js_functions_are_short() -> None:
    scripts = sorted((SRC / "web").rglob("*.js"))
    assert scripts
    long = [f"{_rel(p)}:{first} {name} ({lines} lines)"
            for p in scripts
            for name, first, lines in js_functions(p.read_text(encoding="utf-8"))
            if lines > LIMIT]
    assert not long, "functions over 120 lines:\n" + "\n".join(long)


def test_the_checks_can_fail() -> None:
    """The scanners see a long function (with braces in strings, templates and regular
    expressions around it) and measure it to the line."""
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    assert python_functions(f"def f():\n{body}\n")[0] == ("f", 1, LIMIT + 1)
    js = ("const a = '{', b = `${ {c: 1}.c } }`, r = /[{]/;\n"
          "export function tablePage(id) {\n"
          + "\n".join(f"  const x{i} = `{{${{id}}` + \"}}\" + /}}/.source;" for i in range(LIMIT))
          + "\n  const inner = (y) => {\n    return y;\n  };\n}\n")
    found = {name: (first, lines) for name, first, lines in js_functions(js)}
    assert found["tablePage"] == (2, LIMIT + 5)
    assert found[f"(function at line {LIMIT + 3})"] == (LIMIT + 3, 3)


@pytest.mark.parametrize("text", ["function f() { if (a) { }", "const f = () => { {"])
def test_unbalanced_script_is_an_error(text: str) -> None:
    with pytest.raises(ValueError):
        js_functions(text)
