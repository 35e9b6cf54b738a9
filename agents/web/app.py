"""The web app: a Starlette app serving the page (``static/``) and its JSON API.

    POST /api/games                 {"agents": ["human", "heuristic"], "seed": 1}  -> a game's state
    GET  /api/games/{id}?reveal=1   the state (reveal: every hand, only in bot games)
    POST /api/games/{id}/act        {"action": 0}       the human's action, then the bots'
    POST /api/games/{id}/advance    {"steps": 1, "reveal": false}   a watched bot game goes on
    GET  /api/games/{id}/record     the game record (over, or a bot game)
    POST /api/replays               {"record": {...}}   a saved record (GameRecord.save) to step through
    GET  /api/replays/{id}?move=N   the table after N moves, every hand shown
    GET  /api/defaults              what the page starts with (``phase10 serve --agents``)

Every refusal is a 4xx ``{"error": "..."}`` and changes nothing. The server is for one person
on their own machine: it accepts only loopback host names (no DNS rebinding) and only JSON
bodies (no cross-site form posts, which cannot set that content type without the browser's
CORS check, which this app never grants).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..policies.registry import AGENT_KINDS
from .sessions import PlaySession, ReplaySession, Sessions, WebError

STATIC = Path(__file__).parent / "static"
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
MAX_BODY = 20_000_000  # bytes; a long game's record is well under 1 MB


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a 4xx naming what is wrong with it."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError(415, "send the request body as JSON with Content-Type: application/json")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise WebError(413, f"request body over {MAX_BODY} bytes")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as e:
        raise WebError(400, f"malformed JSON: {e}") from None
    if not isinstance(data, dict):
        raise WebError(400, f"the request body must be a JSON object, not {type(data).__name__}")
    return data


def _query_int(request: Request, name: str, default: int | None = None) -> Any:
    """An integer query parameter; anything else is passed on as text for the session to refuse."""
    text = request.query_params.get(name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        return text


def build_app(agents: Sequence[str] | None = None, seed: int | None = None, any_host: bool = False) -> Starlette:
    """The app. ``agents``: the seats the page starts a game with at once (none: the page asks);
    ``seed``: that game's seed; ``any_host``: accept requests for any host name, not only the
    loopback ones (for a server bound to another interface on purpose)."""
    sessions = Sessions()

    def answer(session_id: str, state: dict[str, Any]) -> JSONResponse:
        return JSONResponse(state | {"id": session_id})

    async def defaults(request: Request) -> JSONResponse:
        return JSONResponse({"agents": list(agents or ["human", "heuristic"]), "autostart": agents is not None,
                             "seed": seed, "agent_kinds": list(AGENT_KINDS)})

    async def new_game(request: Request) -> JSONResponse:
        data = await _json_body(request)
        session = await run_in_threadpool(PlaySession, data.get("agents"), data.get("seed"))
        return answer(sessions.add(session), session.state())

    def game_state(request: Request) -> JSONResponse:
        sid = request.path_params["sid"]
        reveal = request.query_params.get("reveal", "0")
        if reveal not in ("0", "1"):
            raise WebError(400, f"reveal must be 0 or 1, not {reveal!r}")
        session = sessions.get(sid, "game")
        with session.lock:
            return answer(sid, session.state(reveal == "1"))

    async def act(request: Request) -> JSONResponse:
        sid = request.path_params["sid"]
        session = sessions.get(sid, "game")
        data = await _json_body(request)
        if "action" not in data:
            raise WebError(400, "the body must name the action: {\"action\": ID}")
        return answer(sid, await run_in_threadpool(session.act, data["action"]))

    async def advance(request: Request) -> JSONResponse:
        sid = request.path_params["sid"]
        session = sessions.get(sid, "game")
        data = await _json_body(request)
        reveal = data.get("reveal", False)
        if not isinstance(reveal, bool):
            raise WebError(400, f"reveal must be true or false, not {reveal!r}")
        return answer(sid, await run_in_threadpool(session.advance, data.get("steps", 1), reveal))

    def game_record(request: Request) -> JSONResponse:
        session = sessions.get(request.path_params["sid"], "game")
        with session.lock:
            return JSONResponse(session.record())

    async def new_replay(request: Request) -> JSONResponse:
        data = await _json_body(request)
        if "record" not in data:
            raise WebError(400, "the body must hold the record: {\"record\": {...}} (a file from GameRecord.save)")
        session = await run_in_threadpool(ReplaySession, data["record"])
        return answer(sessions.add(session), session.state(0))

    def replay_state(request: Request) -> JSONResponse:
        sid = request.path_params["sid"]
        session = sessions.get(sid, "replay")
        return answer(sid, session.state(_query_int(request, "move", 0)))

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def refuse(request: Request, exc: Exception) -> JSONResponse:
        """Every refusal, the app's and Starlette's own (404, 405), as ``{"error": ...}``."""
        if isinstance(exc, WebError):
            return JSONResponse({"error": exc.message}, status_code=exc.status)
        http = cast(HTTPException, exc)
        return JSONResponse({"error": http.detail}, status_code=http.status_code)

    routes = [
        Route("/", index),
        Route("/api/defaults", defaults),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/api/games/{sid}", game_state),
        Route("/api/games/{sid}/act", act, methods=["POST"]),
        Route("/api/games/{sid}/advance", advance, methods=["POST"]),
        Route("/api/games/{sid}/record", game_record),
        Route("/api/replays", new_replay, methods=["POST"]),
        Route("/api/replays/{sid}", replay_state),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=["*"] if any_host else LOOPBACK_HOSTS)]
    return Starlette(routes=routes, middleware=middleware,
                     exception_handlers={WebError: refuse, HTTPException: refuse})


def serve(host: str = "127.0.0.1", port: int = 8000, agents: Sequence[str] | None = None,
          seed: int | None = None) -> None:
    """Run the app with uvicorn until interrupted; ``agents`` that cannot play stop it at once."""
    import uvicorn

    if agents is not None:
        try:
            PlaySession(list(agents), seed)
        except WebError as e:
            raise SystemExit(f"error: {e.message}") from None

    print(f"phase10 serve: open http://{'[' + host + ']' if ':' in host else host}:{port}/ in a browser (Ctrl-C stops)")
    uvicorn.run(build_app(agents, seed, any_host=host not in LOOPBACK_HOSTS), host=host, port=port, log_level="warning")
