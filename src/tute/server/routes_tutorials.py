"""The guided tutorials' HTTP routes (the lessons themselves: :mod:`tute.server.tutorials`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from pydantic import Field

from ..tutorials import LessonRefusal
from .shared import StrictBody
from .table import TableError
from .tutorials import catalogue_json, find, lesson_json, step_json

__all__ = ["router"]

router = APIRouter()


class StepBody(StrictBody):
    taken: list[Annotated[str, Field(max_length=24)]] = Field(default_factory=list, max_length=16)


def _tutorial(lesson_id: str) -> Any:
    x = find(lesson_id)
    if x is None:
        raise TableError("not_found", "no such tutorial")
    return x


@router.get("/api/tutorials")
async def tutorials() -> dict[str, Any]:
    return catalogue_json()


@router.get("/api/tutorials/{lesson_id}")
async def tutorial_info(lesson_id: str) -> dict[str, Any]:
    return lesson_json(_tutorial(lesson_id))


@router.post("/api/tutorials/{lesson_id}/step", response_model=None)
async def tutorial_step(lesson_id: str, body: StepBody) -> dict[str, Any] | JSONResponse:
    x = _tutorial(lesson_id)
    try:
        return step_json(x, body.taken)
    except LessonRefusal as exc:
        return JSONResponse({"error": exc.code, "reason": exc.reason["en"],
                             "reasons": exc.reason, "refusal": exc.refusal}, status_code=400)
