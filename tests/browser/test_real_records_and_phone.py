"""The page as people use it, at a desktop window's size and a phone's (390 px): playing, watching
and opening real saved games (one saved by `phase10 play --save` with its default random seed,
one saved by the page itself: seeds far beyond what a JavaScript number holds), with nothing
wider than the screen and every control in reach; and the page's own refusals and signs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.cli import main
from phase10_env.engine import Game
from phase10_env.engine.cards import card_name, kinds_of
from phase10_env.engine.record import GameRecord
from tests.browser.conftest import open_page
from tests.browser.harness import click_action, live_server, wait_ready

pytestmark = pytest.mark.browser


def start(page, agents: str, seed: str = "") -> None:
    page.fill("#agents", agents)
    page.fill("#seed", seed)
    page.click("#start")
    wait_ready(page)


def assert_fits_and_every_control_is_in_reach(page) -> None:
    """No horizontal scrolling, and every visible control lies within the screen's width."""
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "the page is wider than the screen"
    controls = page.locator("button:visible, input:visible, select:visible, summary:visible, #log li:visible")
    for i in range(controls.count()):
        box = controls.nth(i).bounding_box()
        if box is None:  # a file input's box may be its label's
            continue
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, controls.nth(i).evaluate("e => e.outerHTML")


def opens_and_steps_through(page, path: Path) -> None:
    """Open the record at ``path`` and check the page shows the hands the record replays to."""
    record = GameRecord.load(path)
    last = len(record.moves)
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#replay-controls:not([hidden])")
    wait_ready(page)
    assert page.locator("#error").is_hidden(), page.locator("#error").inner_text()
    assert page.locator("#replay-position").inner_text() == f"start of the game ({last} moves)"
    for click, move in (("#replay-next", 1), ("#replay-next", 2), ("#replay-last", last), ("#replay-back", last - 1)):
        page.click(click)
        wait_ready(page)
        assert page.locator("#replay-position").inner_text() == f"after move {move} of {last}"
        then = Game.from_record(record, move)
        for seat in range(record.num_players):
            hand = page.locator(f".player[data-seat='{seat}'] .hand .card").all_inner_texts()
            assert hand == [card_name(k) for k in kinds_of(then.hands[seat])]
    assert_fits_and_every_control_is_in_reach(page)


def test_a_record_saved_by_phase10_play_with_its_default_seed_opens(any_size_page, tmp_path, capsys):
    path = tmp_path / "game.json"
    for _ in range(5):  # a default deal's game seed is beyond 2**53 but for one in a thousand: make sure
        main(["play", "--agents", "random", "random", "--rule", "phases_to_win=1", "--save", str(path)])
        if int(json.loads(path.read_text())["seed"]) > 2**53:
            break
    assert "Seed " in capsys.readouterr().out
    assert int(json.loads(path.read_text())["seed"]) > 2**53
    opens_and_steps_through(any_size_page, path)


def test_a_record_saved_by_the_page_opens_in_the_page(any_size_page, tmp_path):
    page = any_size_page
    start(page, "heuristic random")
    for _ in range(12):
        page.click("#watch-step")
        wait_ready(page)
    with page.expect_download() as saving:
        page.click("#download")
    path = tmp_path / "saved.json"
    saving.value.save_as(path)
    wait_ready(page)
    assert int(json.loads(path.read_text())["seed"]) > 2**53
    opens_and_steps_through(page, path)


def test_a_human_plays_on_a_phone_with_every_control_in_reach(any_size_page):
    page = any_size_page
    assert_fits_and_every_control_is_in_reach(page)
    start(page, "human heuristic random", "5")
    for _ in range(12):
        click_action(page)
        assert_fits_and_every_control_is_in_reach(page)
    assert page.locator("#error").is_hidden()
    start(page, "human heuristic")  # "New game" is still in reach and starts again
    assert page.locator("#status").inner_text().startswith("Playing · hand 1")


def test_bots_are_watched_on_a_phone(any_size_page):
    page = any_size_page
    start(page, "heuristic random heuristic")
    page.select_option("#pace", "0")
    page.click("#watch-toggle")
    page.wait_for_function("document.querySelectorAll('#log li').length >= 30", timeout=60_000)
    page.click("#watch-toggle")
    wait_ready(page)
    page.check("#reveal")
    wait_ready(page)
    assert page.locator(".player .hand").count() == 3
    assert_fits_and_every_control_is_in_reach(page)


def test_log_numbers_of_three_digits_show_whole(any_size_page):
    page = any_size_page
    start(page, "heuristic heuristic", "2")
    while page.locator("#log li").count() < 120:
        page.evaluate("""async (id) => {
            const r = await fetch(`/api/games/${id}/advance`, {method: "POST", headers: {"Content-Type": "application/json"},
                                                                 body: JSON.stringify({steps: 1})});
            tell(await r.json(), false);
        }""", page.evaluate("session.id"))
    number = page.locator("#log li").nth(107).locator(".n")
    assert number.inner_text() == "108."
    assert number.evaluate("n => n.scrollWidth <= n.clientWidth"), "the number is cut"
    box, log = number.bounding_box(), page.locator("#log-box").bounding_box()
    assert box["x"] >= log["x"] and box["x"] + box["width"] <= log["x"] + log["width"]


def test_a_bad_seed_is_refused_not_dealt_at_random(page):
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    for seed in ("abc", "1.5", "-3", "12e3"):
        start(page, "human heuristic", seed)
        assert "The seed must be a whole number" in page.locator("#error").inner_text()
        assert page.locator("#board").is_hidden()
    assert not [url for url in requests if "/api/games" in url]
    start(page, "human heuristic", "18446744073709551617")  # beyond 2**64: still exact, sent as text
    assert page.locator("#game-seed").inner_text() == "seed 18446744073709551617"


def test_a_sign_shows_while_a_bot_thinks(page):
    start(page, "human mcts:sims=60,min_sims=60,width=11,backend=python", "4")  # up to 2 s a decision
    click_action(page)  # the human's draw: no bot moves yet
    discard = page.locator("#actions button", has_text="discard").first
    discard.click()  # now the bot searches its turn (up to the server's budget per decision)
    page.wait_for_selector("#thinking", state="visible", timeout=10_000)
    wait_ready(page)
    assert page.locator("#thinking").is_hidden()


def test_the_rules_and_the_agents_are_on_the_page(page):
    kinds = page.locator("#agent-kinds").inner_text()
    assert kinds.startswith("Agents: human (you), random, heuristic[:options], mcts[:options]")
    page.click("#rules summary")
    phases = page.locator("#rules-phases li").all_inner_texts()
    assert len(phases) == 10 and phases[0] == "phase 1: set of 3 + set of 3" and phases[9].startswith("phase 10: set of 5")
    assert "Skip" in page.locator("#rules-text").inner_text()


def test_a_record_with_a_number_too_big_for_a_browser_is_refused_with_the_reason(page, tmp_path):
    from phase10_env.engine import Game

    game = Game(2, seed=2**62 + 7)
    game.apply(game.legal_moves()[0])
    old = game.record.to_json() | {"version": 1, "seed": game.seed}  # a record from before seeds were text
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old))
    page.set_input_files("#record-file", str(path))
    page.wait_for_selector("#error:not([hidden])")
    assert "too big for a browser to read exactly (record.seed)" in page.locator("#error").inner_text()
    assert "phase10 replay old.json" in page.locator("#error").inner_text()


def test_a_server_with_a_token_plays_from_the_address_it_prints(browser):
    with live_server(token="t0k3n", any_host=True) as url:
        context, page = open_page(browser, url + "/#token=t0k3n")
        try:
            start(page, "human heuristic", "3")
            assert page.locator("#error").is_hidden() and page.locator("#actions button").count() > 0
        finally:
            context.close()
        context, page = open_page(browser, url + "/")
        try:
            assert "needs its token" in page.locator("#error").inner_text()
        finally:
            context.close()
