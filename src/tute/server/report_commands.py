"""``tute reports``: list, export and decide the reports of bot moves a server stored (a
Typer group the CLI adds; docs/reports.md). The database is the server's: ``--db URL``, else
env ``TUTE_DATABASE_URL``, else the SQLite file of ``--data-dir``. It is read through a plain
connection, so these commands work while the server runs."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from ..errors import TuteError
from ..extras import missing_extra
from ..regressions import Regression, decide, dump_set, load_set

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from .reports_store import ReportRow

__all__ = ["reports_app"]

reports_app = typer.Typer(no_args_is_help=True, rich_markup_mode=None,
                          help="Reports of bot moves filed from the analysis page.")

DataDir = Annotated[Path, typer.Option(
    "--data-dir", help="The server's data folder (its SQLite database).")]
Db = Annotated[str | None, typer.Option(
    "--db", help="The server's database URL (else env TUTE_DATABASE_URL, else the SQLite file "
    "of --data-dir).")]


def _fail(message: str) -> NoReturn:
    typer.echo(f"tute: error: {' '.join(message.split())}", err=True)
    raise typer.Exit(2)


def _engine(db: str | None, data_dir: Path) -> Engine:
    if line := missing_extra("sqlalchemy", "server", "tute reports"):
        _fail(line.removeprefix("tute: "))
    from .store import StorageError

    url = db or os.environ.get("TUTE_DATABASE_URL")
    if not url:
        file = data_dir / "tute.sqlite3"
        if not file.is_file():
            _fail(f"no database in {str(data_dir)!r} (no tute.sqlite3 there): give the "
                  "server's --data-dir or --db URL")
        url = f"sqlite:///{file.resolve()}"
    from .reports_store import open_engine

    try:
        return open_engine(url)
    except StorageError as exc:
        _fail(str(exc))
    except Exception as exc:  # the driver's: a server that refuses us
        from .store import mask_url

        _fail(f"cannot open the database {mask_url(url)}: {type(exc).__name__}")


def _status(value: str) -> str | None:
    if value not in ("open", "decided", "all"):
        _fail(f"invalid --status {value[:20]!r}: expected open, decided or all")
    return None if value == "all" else value


def _reports(db: str | None, data_dir: Path, status: str) -> list[ReportRow]:
    """The stored reports with that status, oldest first."""
    from .reports_store import read_reports

    wanted = _status(status)
    engine = _engine(db, data_dir)
    try:
        return read_reports(engine, wanted)
    finally:
        engine.dispose()


@reports_app.command("export")
def export_command(
    data_dir: DataDir = Path("data"), db: Db = None,
    status: Annotated[str, typer.Option(help="open, decided or all")] = "all",
) -> None:
    """Print the reports as a regression set (JSON lines, docs/reports.md), oldest first."""
    rows = _reports(db, data_dir, status)
    typer.echo(dump_set([r.regression() for r in rows]), nl=False)


@reports_app.command("list")
def list_command(
    data_dir: DataDir = Path("data"), db: Db = None,
    status: Annotated[str, typer.Option(help="open, decided or all")] = "all",
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object a line.")] = False,
) -> None:
    """One line a report: id, status, game, deal, move, bot, action, analysis, comment."""
    rows = _reports(db, data_dir, status)
    for r in rows:
        brief: dict[str, Any] = {
            "id": r.id, "status": r.status, "game": r.table_id, "variant": r.variant,
            "deal": r.deal, "move": r.move, "seat": r.seat, "bot": r.bot, "played": r.played,
            "dd_best": r.analysis.get("dd_best"), "dd_loss": r.analysis.get("dd_loss"),
            "comment": r.comment, "expect": r.expect, "note": r.note,
            "at": time.strftime("%Y-%m-%d %H:%M", time.gmtime(r.at))}
        if as_json:
            typer.echo(json.dumps(brief, ensure_ascii=False))
            continue
        loss = (f" (double dummy: {brief['dd_best']} was {brief['dd_loss']} better)"
                if brief["dd_loss"] else "")
        typer.echo(f"{r.id}  {r.status:<7} {brief['at']}  {r.table_id} deal {r.deal + 1} "
                   f"move {r.move + 1}  seat {r.seat} {r.bot} played {r.played}{loss}"
                   + (f"  «{r.comment}»" if r.comment else "")
                   + (f"  decided: {r.note}" if r.note else ""))


@reports_app.command("decide")
def decide_command(
    report: Annotated[str, typer.Argument(help="The report's id.")],
    note: Annotated[str, typer.Option("--note", help="Why (required).")],
    expect: Annotated[str | None, typer.Option(
        "--expect", help="The action the bot must play there from now on (default: none; "
        "the report then no longer fails).")] = None,
    file: Annotated[Path | None, typer.Option(
        "--file", help="Decide it in this regression set (JSON lines, rewritten) instead of "
        "the server's database.")] = None,
    data_dir: DataDir = Path("data"), db: Db = None,
) -> None:
    """Mark a report decided, with a note: it no longer fails `tute regress` (or, with
    --expect, fails only when the bot plays another action there)."""
    if file is not None:
        _decide_in_file(file, report, note, expect)
        return
    from .reports_store import ReportStore, set_decided

    engine = _engine(db, data_dir)
    try:
        row = ReportStore(engine).get(report)
        if row is None:
            _fail(f"no report {report[:20]!r}")
        try:
            done = decide(row.regression(), note, expect)
        except TuteError as exc:
            _fail(str(exc))
        set_decided(engine, report, done.note or "", done.expect, time.time())
    finally:
        engine.dispose()
    typer.echo(f"{report}: decided")


def _decide_in_file(file: Path, report: str, note: str, expect: str | None) -> None:
    try:
        regs = load_set(file)
    except OSError as exc:
        _fail(f"cannot read {str(file)!r}: {exc.strerror or exc}")
    except TuteError as exc:
        _fail(str(exc))
    k = next((i for i, r in enumerate(regs) if r.id == report), None)
    if k is None:
        _fail(f"no report {report[:20]!r} in {str(file)!r}")
    try:
        regs[k] = decide(regs[k], note, expect)
    except TuteError as exc:
        _fail(str(exc))
    _write_set(file, regs)
    typer.echo(f"{report}: decided")


def _write_set(file: Path, regs: list[Regression]) -> None:
    """Rewrite the set whole or not at all (a new file moved over the old one)."""
    tmp = file.with_name(file.name + ".tmp")
    try:
        tmp.write_text(dump_set(regs), encoding="utf-8")
        tmp.replace(file)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        _fail(f"cannot write {str(file)!r}: {exc.strerror or exc}")
