"""The web app: a Starlette app serving the page (``static/``) and its JSON API.

    POST /api/games                 {"agents": ["human", "heuristic"], "seed": "1"}  -> a game's state
    GET  /api/games/{id}?reveal=1   the state (reveal: every hand, only in bot games)
    POST /api/games/{id}/act        {"action": 0}       the human's action, then the bots'
    POST /api/games/{id}/advance    {"steps": 1, "reveal": false}   a watched bot game goes on
    GET  /api/games/{id}/record     the game record (over, or a bot game)
    POST /api/replays               {"record": {...}}   a saved record (GameRecord.save) to step through
    GET  /api/replays/{id}?move=N   the table after N moves, every hand shown
    GET  /api/defaults              what the page starts with (``phase10 serve --agents``), the agents
                                    a seat may name (:mod:`.menu`) and the rules in short

Every refusal is a 4xx ``{"error": "..."}`` and changes nothing. A seed travels as a decimal
string (an integer is taken too; see :mod:`phase10_env.engine.seeds`). The server treats every
request as hostile: agents are chosen by name from its own list, never by a path (:mod:`.menu`);
a body is refused past ``MAX_BODY`` bytes by its Content-Length or, sent in chunks, as soon as it
passes that; JSON nested deeper than ``MAX_DEPTH`` is refused; what it holds and the work of one
request are bounded (:mod:`.sessions`). It accepts only JSON bodies (no cross-site form posts,
which cannot set that content type without the browser's CORS check, which this app never
grants). On loopback (the default) it accepts only loopback host names (no DNS rebinding); served
beyond it, a token (``phase10 serve --token``, or ``PHASE10_TOKEN``) guards the API: a request
without ``Authorization: Bearer TOKEN`` gets a 401.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import socket
from collections.abc import Mapping, Sequence
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
from starlette.types import ASGIApp, Receive, Scope, Send

from phase10_env.engine.config import RulesConfig
from phase10_env.render import rules_help

from .menu import AgentMenu
from .sessions import PlaySession, ReplaySession, Sessions, WebError

STATIC = Path(__file__).parent / "static"
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "::1", "[::1]"]
MAX_BODY = 2_000_000  # bytes; the record of a game of 20,000 moves (the most a game here may last) is about 1.3 MB
MAX_DEPTH = 32  # levels of JSON nesting; a record has 5
TOKEN_ENV = "PHASE10_TOKEN"


async def _body(request: Request) -> bytes:
    """The request's body, refused with a 413 once past ``MAX_BODY`` bytes: at once by its
    Content-Length, and for a body sent in chunks as soon as what has come passes the limit
    (the rest is never read)."""
    length = request.headers.get("content-length")
    if length is not None and not length.isdigit():
        raise WebError(400, f"Content-Length must be a number of bytes, not {length!r}")
    if length is not None and int(length) > MAX_BODY:
        raise WebError(413, f"request body over {MAX_BODY} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise WebError(413, f"request body over {MAX_BODY} bytes")
    return bytes(body)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    """How deeply the JSON ``text`` nests arrays and objects (brackets inside strings not
    counted), checked before parsing: Python's parser, and any ``repr`` of what it returns,
    would hit the recursion limit on deep enough nesting."""
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, or a 4xx naming what is wrong with it."""
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise WebError(415, "send the request body as JSON with Content-Type: application/json")
    body = await _body(request)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise WebError(400, f"malformed JSON: not UTF-8 ({e})") from None
    if _depth(text) > MAX_DEPTH:
        raise WebError(400, f"malformed JSON: nested more than {MAX_DEPTH} levels deep")
    try:
        data = json.loads(text)
    except ValueError as e:
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


def build_app(agents: Sequence[str] | None = None, seed: int | None = None, any_host: bool = False,
              models: Mapping[str, str | Path] | None = None, token: str | None = None,
              menu: AgentMenu | None = None) -> Starlette:
    """The app. ``agents``: the seats the page starts a game with at once (none: the page asks);
    ``seed``: that game's seed; ``any_host``: accept requests for any host name, not only the
    loopback ones (for a server bound to another interface on purpose); ``models``: trained
    models a seat may name (name -> path, besides the shipped ones; or a ready ``menu``);
    ``token``: the API answers only requests that carry it (``Authorization: Bearer TOKEN``)."""
    sessions = Sessions()
    menu = menu or AgentMenu(models)

    def answer(session_id: str, state: dict[str, Any]) -> JSONResponse:
        return JSONResponse(state | {"id": session_id})

    async def defaults(request: Request) -> JSONResponse:
        return JSONResponse({"agents": list(agents or ["human", "heuristic"]), "autostart": agents is not None,
                             "seed": None if seed is None else str(seed), "agent_kinds": menu.choices(),
                             "rules_help": rules_help(RulesConfig())})

    async def new_game(request: Request) -> JSONResponse:
        data = await _json_body(request)
        session = await run_in_threadpool(PlaySession, data.get("agents"), data.get("seed"), menu)
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
    if token:
        middleware.append(Middleware(RequireToken, token=token))
    return Starlette(routes=routes, middleware=middleware, exception_handlers={WebError: refuse, HTTPException: refuse})


class RequireToken:
    """The API only for requests with ``Authorization: Bearer TOKEN``; the page and its files,
    which hold nothing secret, for anyone (the page reads the token from its address's
    ``#token=``, which browsers never send to a server)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"].startswith("/api/"):
            given = dict(scope["headers"]).get(b"authorization", b"")
            if not secrets.compare_digest(given, self.expected):
                refusal = JSONResponse({"error": "this server needs its token: open the address phase10 serve printed "
                                                 "(it ends in #token=...), or send Authorization: Bearer TOKEN"},
                                       status_code=401, headers={"WWW-Authenticate": "Bearer"})
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


def serve(host: str = "127.0.0.1", port: int = 8000, agents: Sequence[str] | None = None,
          seed: int | None = None, models: Mapping[str, str | Path] | None = None, token: str | None = None) -> None:
    """Run the app with uvicorn until interrupted. Agents or models that cannot play, and a
    port already in use, stop it at once, before it prints its address."""
    import uvicorn

    token = token or os.environ.get(TOKEN_ENV) or None
    menu = AgentMenu(models)
    try:
        menu.load_named()
        if agents is not None:
            PlaySession(list(agents), seed, menu)
    except WebError as e:
        raise SystemExit(f"error: {e.message}") from None
    except ValueError as e:
        raise SystemExit(f"error: --model: {e}") from None
    sock = bind(host, port)
    loopback = host in LOOPBACK_HOSTS
    if not loopback and token is None:
        print(f"warning: --host {host} serves beyond this machine, with no token: anyone who can reach "
              f"{host}:{port} can use this server. Give --token TOKEN or set {TOKEN_ENV} to require one.")
    shown = "[" + host + "]" if ":" in host else host
    print(f"phase10 serve: open http://{shown}:{sock.getsockname()[1]}/{'#token=' + token if token else ''} "
          "in a browser (Ctrl-C stops)")
    app = build_app(agents, seed, any_host=not loopback, token=token, menu=menu)
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``, or ``SystemExit`` saying why not (the port in use)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
        sock.listen(128)
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise SystemExit(f"error: port {port} on {host} is in use (another phase10 serve?); choose another with "
                             "--port") from None
        raise SystemExit(f"error: cannot listen on {host}:{port}: {e.strerror or e}") from None
    return sock
