"""A Griffe extension for the API reference: the package's docstrings are written in a small
reStructuredText dialect (``code``, :class:`Name` roles, ``>>>`` examples, ``::`` literal blocks,
simple tables); this turns each into the Markdown mkdocstrings renders. Nothing else changes: the
words are the docstrings' own.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|data|attr|exc|obj):`~?\.?([^`]+)`")
TABLE_RULE = re.compile(r"^(=+)(\s+=+)+\s*$")


def roles(text: str) -> str:
    """``:class:`~phase10_env.engine.Game``` -> ```Game```: the name as the reader would write it."""
    return ROLE.sub(lambda m: f"`{m.group(1).rsplit('.', 1)[-1] if '~' in m.group(0) else m.group(1)}`", text)


def simple_table(lines: list[str]) -> list[str]:
    """A reST simple table (rules of ``=``, a header row, rows whose continuation lines leave the
    first column blank) as a Markdown table."""
    rule = lines[0]
    starts = [m.start() for m in re.finditer(r"=+", rule)]

    def cells(line: str) -> list[str]:
        bounds = [*starts[1:], None]
        return [line[a:b].strip() for a, b in zip(starts, bounds)]

    body = [line for line in lines if not TABLE_RULE.match(line)]
    header, rows = cells(body[0]), []
    for line in body[1:]:
        parts = cells(line)
        if parts[0] or not rows:
            rows.append(parts)
        else:  # a continuation: its words join the row above, column by column
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], parts)]
    table = [header, ["---"] * len(header), *rows]
    return ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in table]


def to_markdown(text: str) -> str:
    lines, out, i = text.splitlines(), [], 0
    while i < len(lines):
        line = lines[i]
        if TABLE_RULE.match(line):  # rule, header, rule, rows..., rule
            end = i + 1
            rules = 1
            while end < len(lines) and rules < 3:
                rules += bool(TABLE_RULE.match(lines[end]))
                end += 1
            out += ["", *simple_table(lines[i:end]), ""]
            i = end
        elif line.lstrip().startswith(">>>"):  # a doctest: up to the next blank line
            end = i
            while end < len(lines) and lines[end].strip():
                end += 1
            indent = len(line) - len(line.lstrip())
            out += ["", "```pycon", *(x[indent:] for x in lines[i:end]), "```", ""]
            i = end
        elif line.rstrip().endswith("::") and not line.strip().startswith(".."):  # a literal block follows
            out.append(line.rstrip()[:-1] if not line.rstrip().endswith(" ::") else line.rstrip()[:-3])
            end = i + 1
            while end < len(lines) and not lines[end].strip():
                end += 1
            indent = len(lines[end]) - len(lines[end].lstrip()) if end < len(lines) else 0
            block = []
            while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) >= indent):
                block.append(lines[end][indent:])
                end += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["", "```text", *block, "```", ""]
            i = end
        else:
            out.append(roles(line))
            i += 1
    return "\n".join(out)


class ReSTDialect(griffe.Extension):
    """Rewrites every docstring Griffe reads (modules, classes, functions, attributes)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
