"""The HTTP API and the web page (FastAPI): ``create_app(settings)`` makes the ASGI application.

Every answer about a position is the ``--json`` document of the matching command (schema
``bgengine.cli/2``, built by ``bgengine.cli.report`` and ``bgengine.cli.rollout_report``).
Bad input gets a 4xx answer ``{"error": "where: what"}`` with the typed error's message.
Analysis runs on worker threads (plain ``def`` endpoints), rollouts as background jobs,
so the event loop stays free for health checks and progress streams.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from bgengine import __version__
from bgengine.cli.commands import JSON_SCHEMA
from bgengine.cli.report import analysis_dict, cube_advice, cube_dict, evaluation_dict, match_dict, moves_dict
from bgengine.cli.report import analyze as analyze_position
from bgengine.cli.report import position_dict, ranked_moves
from bgengine.cli.rollout_report import make_settings, report_dict, result_dict, run_rollout
from bgengine.formats.svg import board as draw_board
from bgengine.formats.user_input import parse_dice, read_position, with_match_options
from bgengine.match_state import MatchState
from bgengine.position import Position
from bgengine.service.jobs import RolloutJob, RolloutJobs, TooManyJobs
from bgengine.service.limits import BodySizeLimit
from bgengine.service.requests import (
    AnalyzeRequest,
    CubeRequest,
    Dice,
    MovesRequest,
    PositionRequest,
    RenderRequest,
    RolloutRequest,
)
from bgengine.service.settings import ServiceSettings

T = TypeVar("T")

#: The page's files, served from package data by name (requests never name a file).
STATIC_FILES = {"app.js": "text/javascript", "style.css": "text/css"}


class BadInput(Exception):
    """A request whose fields are well formed but whose content is not (422): ``where: what``."""

    def __init__(self, where: str, message: str, status: int = 422) -> None:
        super().__init__(f"{where}: {message}")
        self.status = status


def checked(where: str, action: Callable[[], T]) -> T:
    """Run ``action``; a typed bgengine error (a ValueError) becomes ``BadInput`` naming ``where``."""
    try:
        return action()
    except ValueError as error:
        raise BadInput(where, str(error)) from None


def document(command: str, body: dict[str, Any]) -> dict[str, Any]:
    """A ``bgengine.cli/2`` document, as ``bgengine COMMAND --json`` writes it."""
    return {"schema": JSON_SCHEMA, "command": command, **body}


def read_request(request: PositionRequest) -> tuple[Position, MatchState]:
    """The position and the match state a request describes (the match options applied)."""
    board, read_match = checked("position", lambda: read_position(request.position))
    where = "score" if request.score is not None else "match_length" if request.match_length is not None else "crawford"
    match = checked(where, lambda: with_match_options(read_match, length=request.match_length,
                                                      score=request.score, crawford=request.crawford))
    return board, match


def read_dice(dice: Dice | None) -> tuple[int, int] | None:
    """Dice given as text ('31', '3-1') or as two numbers, checked by the CLI's parser."""
    if dice is None:
        return None
    text = dice if isinstance(dice, str) else f"{dice[0]}-{dice[1]}"
    return checked("dice", lambda: parse_dice(text))


def create_app(settings: ServiceSettings | None = None) -> FastAPI:
    """The ASGI application of ``bgengine serve`` with ``settings``' limits."""
    settings = settings or ServiceSettings()
    jobs = RolloutJobs(settings.max_running_jobs, settings.max_kept_jobs)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        await asyncio.to_thread(jobs.shutdown)

    app = FastAPI(
        title="bgengine",
        version=__version__,
        summary="Backgammon analysis: evaluation, ranked plays, cube advice, rollouts.",
        description="Answers have the shapes of `bgengine COMMAND --json` (schema `bgengine.cli/2`, docs/cli.md). "
                    "Bad input: a 4xx answer `{\"error\": \"where: what\"}`.",
        openapi_url="/api/openapi.json",
        docs_url=None,  # the interactive docs load scripts from a CDN; the page must work offline
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.jobs = jobs
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    _add_error_handlers(app)

    # ----- the page ----------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def page() -> Response:
        return Response(_static("index.html"), media_type="text/html; charset=utf-8")

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str) -> Response:
        if name not in STATIC_FILES:
            raise BadInput("path", f"no such file {name!r}", status=404)
        return Response(_static(name), media_type=STATIC_FILES[name] + "; charset=utf-8")

    # ----- analysis ----------------------------------------------------------------

    @app.get("/api/health", tags=["service"])
    async def health() -> dict[str, Any]:
        """The server is up: its version, the schema of its answers and its limits."""
        return {"status": "ok", "version": __version__, "schema": JSON_SCHEMA,
                "limits": {"max_body_bytes": settings.max_body_bytes,
                           "max_rollout_trials": settings.max_rollout_trials,
                           "max_running_jobs": settings.max_running_jobs}}

    @app.post("/api/analyze", tags=["analysis"])
    def analyze(request: AnalyzeRequest) -> dict[str, Any]:
        """Board facts, IDs, evaluation, cube advice before the roll and, with dice, every play ranked
        (`bgengine analyze --json`)."""
        board, match = read_request(request)
        dice = read_dice(request.dice)
        where = "plies" if request.plies else "dice" if dice else "position"
        report = checked(where, lambda: analyze_position(board, match, dice=dice, plies=request.plies))
        return document("analyze", {**analysis_dict(report), "rollout": None, "svg": None})

    @app.post("/api/moves", tags=["analysis"])
    def moves(request: MovesRequest) -> dict[str, Any]:
        """Every legal play of the dice, best first (`bgengine moves --json`)."""
        board, match = read_request(request)
        dice = read_dice(request.dice) or match.dice
        if dice is None:
            raise BadInput("dice", "give the roll to play (the position has no dice)")
        if board.is_game_over():
            raise BadInput("position", "the game is over; there is nothing to play")
        choices, ranked_by = checked("dice", lambda: ranked_moves(board, dice, request.plies))
        return document("moves", {"position": position_dict(board, match), "match": match_dict(match),
                                  "dice": list(dice), "moves": moves_dict(choices, ranked_by)})

    @app.post("/api/cube", tags=["analysis"])
    def cube(request: CubeRequest) -> dict[str, Any]:
        """Double or not, take or pass, with every choice's equity (`bgengine cube --json`)."""
        board, match = read_request(request)
        if request.probabilities is not None and request.plies is not None:
            raise BadInput("plies", "give only one of probabilities / plies")
        where = "probabilities" if request.probabilities is not None else "position"
        evaluation, decision = checked(
            where, lambda: cube_advice(board, match, request.probabilities, plies=request.plies))
        return document("cube", {"position": position_dict(board, match), "match": match_dict(match),
                                 "evaluation": evaluation_dict(evaluation), "cube": cube_dict(decision)})

    @app.post("/api/render", tags=["analysis"], response_class=Response,
              responses={200: {"content": {"image/svg+xml": {}}, "description": "The board as SVG."}})
    def render(request: RenderRequest) -> Response:
        """The board as an SVG picture: optionally a play drawn as arrows, or the position after it."""
        board, match = read_request(request)
        dice = read_dice(request.dice) or match.dice
        if request.play is not None and request.arrows is not None:
            raise BadInput("play", "give only one of arrows / play")
        arrows: Any = ()
        if request.play is not None or request.arrows is not None:
            text = request.play if request.play is not None else request.arrows
            where = "play" if request.play is not None else "arrows"
            arrows = checked(where, lambda: _play(board, text or "", dice))
        if request.play is not None:
            if dice is None:
                raise BadInput("play", "a play needs dice; give the roll")
            played, roll = arrows, dice
            board = checked("play", lambda: board.play(played, roll).flip())
            match, dice = match.with_changes(dice=None), None
        picture = draw_board(board, match=match, dice=dice, size=request.size, orientation=request.orientation,
                             arrows=arrows)
        return Response(str(picture), media_type="image/svg+xml")

    # ----- rollouts ----------------------------------------------------------------

    @app.post("/api/rollouts", status_code=202, tags=["rollouts"])
    def start_rollout(request: RolloutRequest) -> JSONResponse:
        """Start a rollout job (`bgengine rollout`); its id is in the answer and in `Location`."""
        board, match = read_request(request)
        if request.trials > settings.max_rollout_trials:
            raise BadInput("trials", f"at most {settings.max_rollout_trials} trials on this server, "
                                     f"got {request.trials}")
        dice = read_dice(request.dice) or match.dice
        if board.is_game_over():
            raise BadInput("position", "the game is over; there is nothing to roll out")
        if request.moves and dice is None:
            raise BadInput("moves", "plays need dice; give the dice")
        rollout_settings = checked("trials", lambda: make_settings(
            request.trials, seed=request.seed, truncate_plies=request.truncate,
            variance_reduction=request.variance_reduction, quasi_random=request.quasi_random,
            target_standard_error=request.target_se))
        plays = 1
        if dice is not None:
            legal = checked("dice", lambda: board.legal_moves(dice))
            for move in request.moves:  # refuse a bad play now rather than in the job
                checked("moves", lambda: legal.index(move))
            plays = len(request.moves) or min(request.candidates, len(legal))

        def work(progress: Any) -> dict[str, Any]:
            report = run_rollout(board, match, rollout_settings, cubeful=request.cubeful, dice=dice,
                                 moves=request.moves, candidates=request.candidates, progress=progress)
            return document("rollout", {"position": position_dict(board, match), "match": match_dict(match),
                                        "rollout": report_dict(report)})

        try:
            job = jobs.start(work, plays=plays, trials=request.trials, describe=result_dict)
        except TooManyJobs as error:
            raise BadInput("rollouts", str(error), status=429) from None
        return JSONResponse(job.snapshot(), status_code=202, headers={"Location": f"/api/rollouts/{job.id}"})

    def find_job(job_id: str) -> RolloutJob:
        job = jobs.get(job_id)
        if job is None:
            raise BadInput("id", f"no rollout job {job_id!r} (finished jobs are forgotten after a while)", 404)
        return job

    @app.get("/api/rollouts/{job_id}", tags=["rollouts"])
    async def rollout_status(job_id: str) -> dict[str, Any]:
        """A job's status, progress over all its plays, the estimate so far and, once done, the
        `bgengine rollout --json` document in `result`."""
        return find_job(job_id).snapshot()

    @app.get("/api/rollouts/{job_id}/events", tags=["rollouts"], response_class=StreamingResponse,
             responses={200: {"content": {"text/event-stream": {}},
                              "description": "`progress` events, then one `done`, `cancelled` or `failed`."}})
    async def rollout_events(job_id: str) -> StreamingResponse:
        """Server-sent events: the job's status (as `GET /api/rollouts/{id}`) at each change."""
        job = find_job(job_id)
        return StreamingResponse(_events(job, settings.event_interval), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    @app.delete("/api/rollouts/{job_id}", status_code=202, tags=["rollouts"])
    async def cancel_rollout(job_id: str) -> dict[str, Any]:
        """Cancel a job: it stops after the block of trials it is playing (status `cancelled`)."""
        job = find_job(job_id)
        job.cancel()
        return job.snapshot()

    return app


async def _events(job: RolloutJob, interval: float) -> AsyncIterator[str]:
    """The job's snapshot each time it changes; the last event is named after how it ended."""
    seen = -1
    while True:
        version = job.version
        finished = job.finished
        if version != seen:
            snapshot = job.snapshot()
            name = snapshot["status"] if finished else "progress"
            yield f"event: {name}\ndata: {json.dumps(snapshot)}\n\n"
            seen = version
        if finished:
            return
        await asyncio.sleep(interval)


def _play(board: Position, text: str, dice: tuple[int, int] | None) -> Any:
    """The Move ``text`` names, checked against the legal plays when the dice are known."""
    if dice is not None:
        legal = board.legal_moves(dice)
        return legal.moves[legal.index(text)]
    from bgengine.move import Move

    return Move.parse(text)


def _static(name: str) -> bytes:
    return (resources.files("bgengine.service") / "static" / name).read_bytes()


def _add_error_handlers(app: FastAPI) -> None:
    """Every error answer is JSON ``{"error": ...}``; nothing a request sends crashes the server."""

    @app.exception_handler(BadInput)
    async def bad_input(_request: Request, error: BadInput) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = list(error.errors())
        status = 400 if any(p.get("type") == "json_invalid" for p in problems) else 422
        return JSONResponse({"error": "; ".join(_describe(p) for p in problems)}, status_code=status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code, headers=error.headers)

    @app.exception_handler(Exception)
    async def internal_error(_request: Request, error: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error: {type(error).__name__}: {error} (please report it)"},
                            status_code=500)


def _describe(problem: dict[str, Any]) -> str:
    """One validation problem as ``field: what`` (the body's own fields, without 'body')."""
    where = ".".join(str(part) for part in problem.get("loc", ()) if part != "body") or "body"
    kind = problem.get("type")
    if kind == "extra_forbidden":
        return f"{where}: unknown field"
    if kind == "json_invalid":
        return f"the body is not valid JSON ({problem.get('ctx', {}).get('error', 'syntax error')})"
    if kind == "missing" and where == "body":
        return "the request needs a JSON object body"
    return f"{where}: {problem.get('msg', 'invalid')}"
