"""The pages of the single-page app, and what the page reads once: health, the games
(variants and levels) and the words of the engine's refusals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

from ..i18n import LANGS, catalogue
from .botpool import shared_pool
from .hub import LEVELS, variants_json
from .protocol import PROTOCOL
from .shared import hub_of
from .table import TableError

__all__ = ["WEB_DIR", "router"]

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

router = APIRouter()


async def page() -> FileResponse:
    return FileResponse(WEB_DIR / "index.html", headers={"Cache-Control": "no-cache"})


# the single page app routes on the path in the browser
for _path in ("/", "/t/{table_id}", "/r/{table_id}", "/a/{table_id}", "/j/{code}",
              "/reglas/{variant}", "/aprende/{lesson_id}"):
    router.add_api_route(_path, page, methods=["GET"], include_in_schema=False)


@router.get("/api/health")
async def health(request: Request) -> dict[str, Any]:
    return {"ok": True, "protocol": PROTOCOL, "tables": len(hub_of(request).tables),
            "hints": shared_pool().readiness()}


@router.get("/api/variants")
async def variants() -> dict[str, Any]:
    return {"variants": variants_json(), "levels": list(LEVELS)}


@router.get("/api/messages/{lang}")
async def refusal_catalogue(lang: str) -> dict[str, Any]:
    # the page words the engine's refusals from tute.i18n's own catalogue
    if lang not in LANGS:
        raise TableError("not_found", f"no messages in {lang!r}: " + ", ".join(LANGS))
    return catalogue(lang)
