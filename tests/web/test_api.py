"""The web app's JSON API (agents/web), through Starlette's TestClient: a human plays only legal
actions and sees only their own hand, bad requests are refused with a 4xx and change nothing,
games do not touch each other, and a replay shows the very states the game went through."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from agents.cli import build_parser  # noqa: E402
from agents.web.app import build_app  # noqa: E402
from phase10_env.engine import Game, GameRecord  # noqa: E402
from phase10_env.engine.cards import card_name, kinds_of  # noqa: E402


@pytest.fixture
def client() -> TestClient:
    return TestClient(build_app(), base_url="http://127.0.0.1")


def new_game(client: TestClient, agents: list[str], seed: int = 5) -> dict:
    response = client.post("/api/games", json={"agents": agents, "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def state_of(client: TestClient, game: dict, reveal: bool = False) -> dict:
    response = client.get(f"/api/games/{game['id']}" + ("?reveal=1" if reveal else ""))
    assert response.status_code == 200, response.text
    return response.json()


def a_masked_action(state: dict) -> int:
    """The smallest action id the human may not play now."""
    legal = {a["id"] for a in state["legal"]}
    return next(i for i in range(10_000) if i not in legal)


def table(state: dict) -> dict:
    """What a state says of the cards and the players, without names and words."""
    keys = ("phase", "laid", "hand_size", "score", "skip_pending", "groups", "hand", "active")
    return {"hand_number": state["hand_number"], "current": state["current"], "discard_top": state["discard_top"],
            "draw_pile": state["draw_pile"], "over": state["over"],
            "players": [{k: p[k] for k in keys} for p in state["players"]]}


def test_the_human_sees_the_legal_actions_in_words_and_only_their_own_hand(client):
    game = new_game(client, ["human", "heuristic", "random"])
    assert game["mode"] == "play" and game["viewer"] == 0
    assert [a["text"] for a in game["legal"]][0] == "draw from the deck"
    assert len(game["players"][0]["hand"]) == 10
    assert game["players"][1]["hand"] is None and game["players"][2]["hand"] is None
    assert game["news"][0].startswith("Hand 1:")


def test_an_illegal_action_is_refused_and_changes_nothing(client):
    game = new_game(client, ["human", "heuristic"])
    before = state_of(client, game)
    for action, status in ((a_masked_action(before), 422), (99_999, 422), (-1, 422), ("0", 400), (True, 400),
                           (1.5, 400), (None, 400)):
        response = client.post(f"/api/games/{game['id']}/act", json={"action": action})
        assert response.status_code == status, (action, response.text)
        assert response.json()["error"]
        assert state_of(client, game) == before
    masked = client.post(f"/api/games/{game['id']}/act", json={"action": a_masked_action(before)}).json()["error"]
    assert "illegal" in masked and str(a_masked_action(before)) in masked


def test_a_legal_action_is_played_and_the_bots_answer(client):
    game = new_game(client, ["human", "heuristic"])
    drawn = client.post(f"/api/games/{game['id']}/act", json={"action": game["legal"][0]["id"]}).json()
    assert len(drawn["lines"]) == 1 and drawn["lines"][0].startswith("You drew")
    assert drawn["news"] == game["news"] + drawn["lines"]  # the turn goes on: what came before stays news
    assert drawn["stage"] == "play" and len(drawn["players"][0]["hand"]) == 11
    discard = next(a for a in drawn["legal"] if a["text"].startswith("discard"))
    after = client.post(f"/api/games/{game['id']}/act", json={"action": discard["id"]}).json()
    assert after["news"] == after["lines"]  # the turn ended: the news starts with it
    assert after["news"][0] == "You " + discard["text"].replace("discard", "discarded")
    assert any(line.startswith("player_1 (heuristic)") for line in after["news"])  # the bot's turn, told
    assert after["current"] == 0 and after["legal"]  # the human's turn again


def test_malformed_requests_get_a_clear_4xx_and_change_nothing(client):
    game = new_game(client, ["human", "heuristic"])
    before = state_of(client, game)
    url = f"/api/games/{game['id']}/act"
    cases = [
        (dict(content=b"{not json", headers={"content-type": "application/json"}), 400, "malformed JSON"),
        (dict(json=[0]), 400, "JSON object"),
        (dict(json={"move": 0}), 400, "action"),
        (dict(content=b'{"action": 0}', headers={"content-type": "text/plain"}), 415, "Content-Type"),
    ]
    for request, status, words in cases:
        response = client.post(url, **request)
        assert response.status_code == status, response.text
        assert words in response.json()["error"]
    assert state_of(client, game) == before
    assert client.get(f"/api/games/{game['id']}?reveal=maybe").status_code == 400


@pytest.mark.parametrize("agents, words", [
    (["human", "grandmaster"], "'grandmaster'"),
    (["human", "ppo"], "'ppo' is not an agent this server offers"),
    (["human", "ppo:/no/such/model.zip"], "seat 1: cannot seat 'ppo:/no/such/model.zip'"),
    (["human", "human"], "one seat"),
    (["human"], "2 to 6 seats"),
    (["random"] * 7, "2 to 6 seats"),
    ("human heuristic", "list"),
    ([1, 2], "list"),
])
def test_a_game_with_bad_seats_is_refused(client, agents, words):
    response = client.post("/api/games", json={"agents": agents})
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_a_bad_seed_is_refused(client):
    response = client.post("/api/games", json={"agents": ["human", "random"], "seed": "x"})
    assert response.status_code == 400 and "seed" in response.json()["error"]


def test_unknown_ids_are_404(client):
    replay = client.post("/api/replays", json={"record": _finished_bot_record(client)}).json()
    for method, url in (("GET", "/api/games/nope"), ("POST", "/api/games/nope/act"), ("POST", "/api/games/nope/advance"),
                        ("GET", "/api/games/nope/record"), ("GET", "/api/replays/nope"),
                        ("GET", f"/api/games/{replay['id']}")):
        response = client.request(method, url, json={"action": 0})
        assert response.status_code == 404, url
        assert "no " in response.json()["error"]
    assert client.get("/api/nothing-here").status_code == 404


def test_only_loopback_host_names_are_served(client):
    assert client.get("/api/defaults").status_code == 200
    assert client.get("/api/defaults", headers={"host": "attacker.example"}).status_code == 400


def test_two_games_at_once_do_not_interfere(client):
    one = new_game(client, ["human", "heuristic"], seed=11)
    two = new_game(client, ["human", "heuristic"], seed=11)
    watched = new_game(client, ["heuristic", "random"], seed=11)
    assert one["id"] != two["id"] and table(one) == table(two)  # the same deal, two games
    client.post(f"/api/games/{one['id']}/act", json={"action": one["legal"][0]["id"]})
    client.post(f"/api/games/{watched['id']}/advance", json={"steps": 40})
    assert state_of(client, two) == two
    moved = state_of(client, one)
    assert moved["stage"] == "play" and moved["moves"] == 1


def test_a_watched_game_hides_the_hands_unless_revealed(client):
    game = new_game(client, ["heuristic", "random"])
    assert game["mode"] == "watch" and game["legal"] == []
    assert all(p["hand"] is None for p in state_of(client, game)["players"])
    revealed = state_of(client, game, reveal=True)
    assert [len(p["hand"]) for p in revealed["players"]] == [p["hand_size"] for p in revealed["players"]]
    step = client.post(f"/api/games/{game['id']}/advance", json={"steps": 1}).json()
    assert step["moves"] == 1 and step["news"]
    human = new_game(client, ["human", "heuristic"])
    assert client.get(f"/api/games/{human['id']}?reveal=1").status_code == 403
    assert client.post(f"/api/games/{human['id']}/advance", json={"steps": 1}).status_code == 409
    assert client.post(f"/api/games/{game['id']}/act", json={"action": 0}).status_code == 409
    for steps in (0, 1001, "3"):
        assert client.post(f"/api/games/{game['id']}/advance", json={"steps": steps}).status_code == 400


def test_the_record_of_a_game_with_a_human_waits_for_the_end(client):
    game = new_game(client, ["human", "heuristic"])
    response = client.get(f"/api/games/{game['id']}/record")
    assert response.status_code == 409 and "over" in response.json()["error"]


def _finished_bot_record(client: TestClient) -> dict:
    game = new_game(client, ["heuristic", "heuristic"], seed=3)
    while not client.post(f"/api/games/{game['id']}/advance", json={"steps": 1000}).json()["over"]:
        pass
    return client.get(f"/api/games/{game['id']}/record").json()


def test_a_replay_stepping_back_and_forth_shows_the_states_the_game_went_through(client):
    game = new_game(client, ["heuristic", "random", "heuristic"], seed=8)
    seen = {0: table(state_of(client, game, reveal=True))}
    while len(seen) < 120:
        state = client.post(f"/api/games/{game['id']}/advance", json={"steps": 1, "reveal": True}).json()
        seen[state["moves"]] = table(state)
    record = client.get(f"/api/games/{game['id']}/record").json()
    replay = client.post("/api/replays", json={"record": record}).json()
    assert replay["mode"] == "replay" and replay["last"] == len(GameRecord.from_json(record).moves)
    for move in (0, 1, 2, 60, 59, 119, 3, 0, 118):
        state = client.get(f"/api/replays/{replay['id']}?move={move}").json()
        assert state["moves"] == move
        assert table(state) == seen[move], move
    told = client.get(f"/api/replays/{replay['id']}?move=1").json()["news"]
    assert told[0].startswith("Hand 1:") and "player_" in told[-1]


def test_a_replay_shows_every_hand(client):
    record = _finished_bot_record(client)
    replay = client.post("/api/replays", json={"record": record}).json()
    game = Game.from_record(GameRecord.from_json(record), 5)
    state = client.get(f"/api/replays/{replay['id']}?move=5").json()
    assert [p["hand"] for p in state["players"]] == [[card_name(k) for k in kinds_of(h)] for h in game.hands]


@pytest.mark.parametrize("body, words", [
    ({"record": {"format": "chess"}}, "not a phase10 game record"),
    ({"record": {"format": "phase10-record", "num_players": 2}}, "not a phase10 game record"),
    ({}, "record"),
])
def test_a_bad_record_is_refused(client, body, words):
    response = client.post("/api/replays", json=body)
    assert response.status_code == 400 and words in response.json()["error"]


def test_a_record_whose_moves_do_not_replay_is_refused(client):
    record = _finished_bot_record(client)
    record["moves"] = record["moves"][:1] * 2  # the same draw twice: the second is illegal
    response = client.post("/api/replays", json={"record": record})
    assert response.status_code == 400 and "not a phase10 game record" in response.json()["error"]


def test_a_replay_refuses_moves_out_of_range(client):
    record = _finished_bot_record(client)
    replay = client.post("/api/replays", json={"record": record}).json()
    for move in (-1, replay["last"] + 1, "abc"):
        response = client.get(f"/api/replays/{replay['id']}?move={move}")
        assert response.status_code == 400 and f"0 to {replay['last']}" in response.json()["error"]


def test_serve_listens_on_loopback_by_default():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.agents) == ("127.0.0.1", 8000, None)
    args = build_parser().parse_args(["serve", "--agents", "human", "heuristic", "--port", "9001"])
    assert (args.port, args.agents) == (9001, ["human", "heuristic"])


def test_the_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and "Phase 10" in page.text
    assert client.get("/static/app.js").status_code == 200
    defaults = client.get("/api/defaults").json()
    assert defaults["autostart"] is False and "heuristic" in defaults["agent_kinds"]
