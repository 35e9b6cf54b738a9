"""The web page in a real (headless) chromium: a human plays a whole hand by clicking, bots are
watched, a saved game is stepped back and forth, and what the server refuses shows as an error."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from phase10_env.engine import Game
from phase10_env.engine.cards import card_name, kinds_of
from tests.browser.harness import click_action, wait_ready

pytestmark = pytest.mark.browser


def start(page, agents: str, seed: int | None = None) -> None:
    page.fill("#agents", agents)
    page.fill("#seed", "" if seed is None else str(seed))
    page.click("#start")
    wait_ready(page)


def log_text(page) -> str:
    return page.locator("#log").inner_text()


def test_a_human_plays_a_whole_hand_by_clicking_legal_actions(page):
    start(page, "human heuristic", seed=2)
    assert page.locator("#status").inner_text().startswith("Playing · hand 1")
    assert page.locator(".player[data-seat='1'] .hand").count() == 0  # the bot's hand stays hidden
    assert page.locator("#watch-controls").is_hidden() and page.locator("#replay-controls").is_hidden()
    clicks = 0
    while "Hand 1 over" not in log_text(page):
        assert clicks < 600, "the hand did not end"
        hand_size = int(page.locator(".player.me .facts").inner_text().split(" cards")[0].split()[-1])
        assert page.locator("#hand .card").count() == hand_size
        click_action(page)
        clicks += 1
    assert clicks > 5
    status = page.locator("#status").inner_text()
    assert "hand 2" in status or "Game over" in status
    assert page.locator("#error").is_hidden()


def test_the_log_shows_in_bold_what_happened_since_the_humans_last_turn(page):
    start(page, "human random", seed=1)
    click_action(page)  # draw
    bold = page.locator("#log li.new .line").all_inner_texts()
    assert bold[0].startswith("Hand 1:") and bold[-1].startswith("You drew")  # the turn goes on
    discard = page.locator("#actions button", has_text="discard").first
    words = discard.inner_text()
    discard.click()
    wait_ready(page)
    new = page.locator("#log li.new .line").all_inner_texts()
    assert new[0] == "You " + words.replace("discard", "discarded")
    assert any(line.startswith("player_1 (random)") for line in new[1:])


def test_watching_bots_play_at_a_chosen_pace(page):
    start(page, "heuristic random")
    assert page.locator("#watch-controls").is_visible() and page.locator("#mine").is_hidden()
    page.select_option("#pace", "0")
    page.click("#watch-toggle")
    page.wait_for_function("document.querySelectorAll('#log li').length >= 25", timeout=60_000)
    page.click("#watch-toggle")  # pause
    wait_ready(page)
    assert page.locator("#watch-toggle").inner_text() == "Play"
    assert page.locator(".player .hand").count() == 0
    page.check("#reveal")
    wait_ready(page)
    assert page.locator(".player .hand").count() == 2
    told = page.locator("#log li").count()
    page.click("#watch-step")
    wait_ready(page)
    assert page.locator("#log li").count() >= told  # a pending lay-down step adds no line, a move does


def test_stepping_a_saved_game_back_and_forth(page, tmp_path: Path):
    game = Game(2, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        legal = game.legal_moves()
        game.apply(legal[int(rng.integers(len(legal)))])
    path = tmp_path / "game.json"
    game.record.save(path)

    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-controls:not([hidden])")
    wait_ready(page)
    assert page.locator("#replay-position").inner_text() == "start of the game (40 moves)"

    def shows(move: int) -> None:
        wait_ready(page)
        assert page.locator("#replay-position").inner_text() == f"after move {move} of 40"
        then = Game.from_record(game.record, move)
        for seat in range(2):
            hand = page.locator(f".player[data-seat='{seat}'] .hand .card").all_inner_texts()
            assert hand == [card_name(k) for k in kinds_of(then.hands[seat])]
        top = then.discard_top()
        shown = " ".join(page.locator("#discard").inner_text().split())
        assert shown == "discard top " + ("none" if top is None else card_name(top))
        assert page.locator("#log li").count() >= 1

    for _ in range(3):
        page.click("#replay-next")
        wait_ready(page)
    shows(3)
    page.click("#replay-back")
    shows(2)
    page.click("#replay-last")
    shows(40)
    page.click("#replay-back")
    shows(39)
    assert page.locator("#replay-next").is_enabled()
    page.click("#replay-first")
    wait_ready(page)
    assert page.locator("#replay-back").is_disabled()


def test_a_file_that_is_no_game_record_is_refused(page, tmp_path: Path):
    path = tmp_path / "notes.json"
    path.write_text(json.dumps({"hello": "world"}))
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#error:not([hidden])")
    assert "not a phase10 game record" in page.locator("#error").inner_text()
    path.write_text("not json at all")
    page.set_input_files("#record-file", str(path))
    page.wait_for_function("document.querySelector('#error').textContent.includes('is not JSON')")


def test_an_unknown_agent_is_refused_with_its_name(page):
    start(page, "human grandmaster")
    assert "'grandmaster'" in page.locator("#error").inner_text()
    assert page.locator("#board").is_hidden()


def test_an_illegal_action_request_is_refused_and_the_table_stays(page):
    start(page, "human heuristic", seed=3)
    game_id = page.evaluate("session.id")
    before = page.evaluate(f"fetch('/api/games/{game_id}').then(r => r.json())")
    assert [a["text"] for a in before["legal"]][0] == "draw from the deck"
    illegal = next(i for i in range(10_000) if i not in {a["id"] for a in before["legal"]})
    answer = page.evaluate(
        """async ([id, action]) => {
             const r = await fetch(`/api/games/${id}/act`, {method: "POST", headers: {"Content-Type": "application/json"},
                                                           body: JSON.stringify({action})});
             return {status: r.status, body: await r.json()};
           }""", [game_id, illegal])
    assert answer["status"] == 422 and "illegal" in answer["body"]["error"]
    assert page.evaluate(f"fetch('/api/games/{game_id}').then(r => r.json())") == before
    cross_site = page.evaluate(
        f"fetch('/api/games/{game_id}/act', {{method: 'POST', body: '{{\"action\": 0}}'}}).then(r => r.status)")
    assert cross_site == 415  # a body a cross-site form could send is not taken
    click_action(page)  # the page still plays on
    assert page.locator("#pending").inner_text() == "Your move:"
