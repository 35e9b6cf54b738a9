"""The web app against a hostile client: it never opens a file a request names, bounds the work
and the memory a request can take, refuses oversized, chunked and deeply nested bodies with a
4xx, drops sessions by last use and idleness, guards its API with a token when asked, and says
when its port is taken before printing an address."""

from __future__ import annotations

import socket
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from agents.web import app as web_app  # noqa: E402
from agents.web import sessions as web_sessions  # noqa: E402
from agents.web.app import MAX_BODY, MAX_DEPTH, build_app, serve  # noqa: E402
from agents.web.menu import AgentMenu  # noqa: E402
from agents.web.sessions import PlaySession, Sessions, WebError  # noqa: E402
from tests.agents.test_model_zip import SHIPPED, hostile_model  # noqa: E402
from tests.browser.harness import live_server  # noqa: E402

_OPENED: list[str] | None = None


def _audit(event: str, args: tuple) -> None:
    if _OPENED is not None and event == "open":
        _OPENED.append(str(args[0]))


sys.addaudithook(_audit)  # for the whole process (hooks cannot be removed); records only while a test asks


@pytest.fixture
def client() -> TestClient:
    return TestClient(build_app(), base_url="http://127.0.0.1")


# --------------------------------------------------------------------------- 1: no file a request names


def test_a_request_naming_a_model_file_is_refused_and_nothing_on_disk_is_opened_or_run(client, tmp_path):
    global _OPENED
    marker = tmp_path / "ran.txt"
    evil = hostile_model(tmp_path / "evil.zip", marker)
    (tmp_path / "notes.zip").write_text("not a zip")
    targets = [evil, tmp_path / "missing.zip", tmp_path, tmp_path / "notes.zip", Path("models/default.zip")]
    errors = set()
    _OPENED = []
    try:
        for target in targets:
            for kind in ("ppo", "ppo-sample", "rllib"):
                spec = f"{kind}:{target}"
                response = client.post("/api/games", json={"agents": ["human", spec]})
                assert response.status_code == 400, spec
                errors.add(response.json()["error"].replace(spec, "SPEC"))
        opened = [path for path in _OPENED if str(tmp_path) in path or path.endswith(".zip")]
    finally:
        _OPENED = None
    assert not marker.exists(), "the server ran the model file's code"
    assert opened == [], f"the server opened {opened}"
    assert len(errors) == 1, f"the answers differ by what is on disk: {errors}"
    assert "choose from human, random, heuristic, mcts" in errors.pop()


def test_models_named_at_start_play_by_name(tmp_path):
    client = TestClient(build_app(models={"mine": SHIPPED}), base_url="http://127.0.0.1")
    assert "ppo:mine" in client.get("/api/defaults").json()["agent_kinds"]
    game = client.post("/api/games", json={"agents": ["ppo:mine", "ppo-sample:default"], "seed": "3"}).json()
    state = client.post(f"/api/games/{game['id']}/advance", json={"steps": 30}).json()
    assert 0 < state["moves"] <= 30 and state["names"] == ["player_0 (ppo:mine)", "player_1 (ppo-sample:default)"]


def test_a_model_that_would_run_code_stops_the_server_at_start_without_running(tmp_path, capsys):
    marker = tmp_path / "ran.txt"
    evil = hostile_model(tmp_path / "evil.zip", marker, "policy_kwargs")
    with pytest.raises(SystemExit, match="policy_kwargs"):
        serve(port=0, models={"evil": evil})
    assert not marker.exists()
    assert "open http" not in capsys.readouterr().out


# --------------------------------------------------------------------------- 2: bounded thinking


def test_an_agent_option_outside_its_range_is_refused_with_the_range(client):
    response = client.post("/api/games", json={"agents": ["human", "mcts:sims=100000"]})
    assert response.status_code == 400 and "sims must be from 1 to 1000, not 100000" in response.json()["error"]


def test_search_is_held_to_the_servers_thinking_budget():
    """Without the budget each decision of these bots (the engine's own play-outs, which a
    client may ask for) samples 60 games for each of 12 moves: 15 s on a loaded machine; with a
    budget of 0.2 s a whole bot turn takes well under a second."""
    menu = AgentMenu(think_seconds=0.2)
    assert menu.build("mcts:seconds=100", seed=0).config.seconds == 0.2
    assert menu.build("mcts:seconds=0.1", seed=0).config.seconds == 0.1
    client = TestClient(build_app(menu=menu), base_url="http://127.0.0.1")
    start = time.monotonic()
    slow = "mcts:sims=60,min_sims=60,width=11,backend=python"
    game = client.post("/api/games", json={"agents": [slow, slow], "seed": "1"}).json()
    slowest = 0.0
    for _ in range(6):
        before = time.monotonic()
        assert client.post(f"/api/games/{game['id']}/advance", json={"steps": 2}).status_code == 200
        slowest = max(slowest, time.monotonic() - before)
    assert slowest < 4.0, f"a request took {slowest:.1f} s"
    assert time.monotonic() - start < 20


# --------------------------------------------------------------------------- 3, 4: bodies


def _raw_request(url: str, head: str, chunks: list[bytes] = (), timeout: float = 10.0) -> str:
    """Send ``head`` (and ``chunks``) on a plain socket; the status line of the answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(head.encode())
        for chunk in chunks:
            try:
                sock.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break  # the server stopped reading: what is being tested
        return sock.recv(4096).decode(errors="replace").split("\r\n")[0]


def test_a_body_over_the_limit_is_refused_by_its_content_length_before_it_is_sent():
    with live_server() as url:
        start = time.monotonic()
        status = _raw_request(url, "POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                   f"Content-Length: {200_000_000}\r\n\r\n")
        assert status.endswith("413 Request Entity Too Large") or " 413 " in status, status
        assert time.monotonic() - start < 5


def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit():
    chunk = b"x" * 65536
    body = [f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"] * (MAX_BODY // len(chunk) + 40)  # never ends
    with live_server() as url:
        status = _raw_request(url, "POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                   "Transfer-Encoding: chunked\r\n\r\n", body)
    assert " 413 " in status, status


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"record": ' + "[" * 5000 + "]" * 5000 + "}",
                                  '{"agents": ["human", "random"], "seed": ' + "[" * 40 + "]" * 40 + "}"],
                         ids=["100k arrays", "a record 5k deep", "a seed 40 deep"])
def test_deeply_nested_json_is_a_400_like_any_bad_body(client, text):
    response = client.post("/api/replays", content=text.encode(), headers={"content-type": "application/json"})
    assert response.status_code == 400, response.text
    assert f"nested more than {MAX_DEPTH} levels" in response.json()["error"]


# --------------------------------------------------------------------------- 5: what the server holds


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def bot_game() -> PlaySession:
    return PlaySession(["random", "random"], "1")


def test_sessions_are_dropped_by_last_use_not_by_age():
    sessions = Sessions(limit=3)
    first, second, third = (sessions.add(bot_game()) for _ in range(3))
    sessions.get(first, "game")  # in use: the one to keep
    sessions.add(bot_game())
    assert sessions.get(first, "game")
    with pytest.raises(WebError) as dropped:
        sessions.get(second, "game")
    assert dropped.value.status == 404
    assert sessions.get(third, "game")


def test_sessions_unused_for_too_long_expire():
    clock = Clock()
    sessions = Sessions(idle=60, clock=clock)
    kept, idle = sessions.add(bot_game()), sessions.add(bot_game())
    clock.now = 50
    sessions.get(kept, "game")
    clock.now = 100
    assert sessions.get(kept, "game")
    with pytest.raises(WebError, match="unused too long"):
        sessions.get(idle, "game")


def test_the_moves_held_in_all_are_capped():
    sessions = Sessions(held=150)
    games = [bot_game() for _ in range(3)]
    for game in games:
        game.advance(60)
    ids = [sessions.add(game) for game in games]
    assert len(sessions) == 2  # 180 moves held would pass 150: the least recently used went
    with pytest.raises(WebError):
        sessions.get(ids[0], "game")


def test_a_record_longer_than_a_game_may_last_is_refused_unread(client, monkeypatch):
    monkeypatch.setattr(web_sessions, "MAX_GAME_MOVES", 100)
    game = client.post("/api/games", json={"agents": ["random", "random"], "seed": "2"}).json()
    for _ in range(3):
        state = client.post(f"/api/games/{game['id']}/advance", json={"steps": 40}).json()
    assert state["moves"] == 100 and not state["over"]
    stopped = client.post(f"/api/games/{game['id']}/advance", json={"steps": 1})
    assert stopped.status_code == 409 and "100 moves" in stopped.json()["error"]
    record = client.get(f"/api/games/{game['id']}/record").json()
    record["moves"] = record["moves"] * 2
    response = client.post("/api/replays", json={"record": record})
    assert response.status_code == 413 and "at most 100" in response.json()["error"]


def test_a_watched_advance_stops_at_its_time_budget(monkeypatch):
    monkeypatch.setattr(web_sessions, "ADVANCE_SECONDS", 0.0)  # every step is past the budget: one at a time
    game = bot_game()
    assert game.advance(500)["moves"] == 1


# --------------------------------------------------------------------------- 6: beyond loopback


def test_with_a_token_the_api_answers_only_requests_that_carry_it():
    client = TestClient(build_app(token="s3cret", any_host=True), base_url="http://192.168.1.9")
    refused = client.get("/api/defaults")
    assert refused.status_code == 401 and "token" in refused.json()["error"]
    assert client.get("/api/defaults", headers={"Authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/api/games", json={"agents": ["human", "random"]}).status_code == 401
    assert client.get("/api/defaults", headers={"Authorization": "Bearer s3cret"}).status_code == 200
    assert client.get("/").status_code == 200  # the page and its files hold nothing secret


def test_serving_beyond_loopback_without_a_token_warns(monkeypatch, capsys):
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    monkeypatch.delenv(web_app.TOKEN_ENV, raising=False)
    serve(host="0.0.0.0", port=0)
    out = capsys.readouterr().out
    assert out.startswith("warning: --host 0.0.0.0 serves beyond this machine, with no token")
    monkeypatch.setenv(web_app.TOKEN_ENV, "from-the-env")
    serve(host="0.0.0.0", port=0)
    out = capsys.readouterr().out
    assert "warning" not in out and "#token=from-the-env" in out


# --------------------------------------------------------------------------- 11: the port


def test_a_port_in_use_is_said_and_no_address_is_printed(capsys):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        with pytest.raises(SystemExit, match=f"port {port} on 127.0.0.1 is in use"):
            serve(port=port)
    finally:
        taken.close()
    assert "open http" not in capsys.readouterr().out


def test_bodies_and_records_limits_are_those_the_web_page_states():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
    for figure in (f"{MAX_BODY // 1_000_000} MB", f"{web_sessions.MAX_SESSIONS} games", f"{MAX_DEPTH} levels",
                   f"{web_sessions.MAX_GAME_MOVES:,} moves", f"{web_sessions.MAX_HELD_MOVES:,} moves",
                   f"{web_sessions.IDLE_SECONDS / 3600:g} hour", f"{web_sessions.ADVANCE_SECONDS:g} s"):
        assert figure in readme, figure


def test_serve_takes_models_as_name_equals_path_and_a_token(monkeypatch):
    from agents.cli import main

    served = {}
    monkeypatch.setattr(web_app, "serve", lambda *args: served.setdefault("args", args))
    main(["serve", "--model", "mine=runs/x/model.zip", "--model", "old=runs/y/policy.pt", "--token", "t"])
    host, port, agents, seed, models, token = served["args"]
    assert models == {"mine": Path("runs/x/model.zip"), "old": Path("runs/y/policy.pt")} and token == "t"
    for bad in (["--model", "runs/x/model.zip"], ["--model", "../x=a.zip"], ["--model", "a=x.zip", "--model", "a=y.zip"]):
        with pytest.raises(SystemExit, match="--model"):
            main(["serve", *bad])
