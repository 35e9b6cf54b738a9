// The Phase 10 page: talks to the JSON API of agents/web/app.py and draws what it answers.
// The server decides everything (legal actions, what may be seen); this only shows and asks.
"use strict";

const $ = (selector) => document.querySelector(selector);
let session = null;      // {kind: "game" | "replay", id, state}
let watchTimer = null;   // pending step of a watched bot game
let busy = false;        // a request is under way: no second click meanwhile (body[data-ready] says so too)

async function api(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
  return data;
}

function showError(message) {
  const box = $("#error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function run(task) {
  if (busy) return;
  busy = true;
  document.body.dataset.ready = "0";
  try {
    showError("");
    await task();
  } catch (error) {
    showError(error.message);
    stopWatching();
  } finally {
    busy = false;
    document.body.dataset.ready = "1";
    document.querySelectorAll("#actions button").forEach((b) => { b.disabled = false; });
  }
}

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

function cardChips(cards) {
  return el("span", {class: "cards"}, ...cards.map((name) => el("span", {class: `card ${name[0]}`}, name)));
}

function playerBox(player, state) {
  const badges = [];
  if (player.laid) badges.push(el("span", {class: "badge down"}, "DOWN"));
  if (player.skip_pending) badges.push(el("span", {class: "badge skip"}, "skip pending"));
  if (!player.active) badges.push(el("span", {class: "badge"}, "out of the tie replay"));
  const classes = ["player"];
  if (player.to_act) classes.push("to-act");
  if (player.seat === state.viewer) classes.push("me");
  const box = el("div", {class: classes.join(" "), "data-seat": String(player.seat)},
    el("h3", {}, player.seat === state.viewer ? "You" : player.name, ...badges),
    el("div", {class: "facts"},
      `Phase ${player.phase} (${player.phase_text}) · score ${player.score} · ${player.hand_size} cards` +
      (player.to_act ? ` · to ${state.stage}` : "") + (state.dealer === player.seat ? " · dealer" : "")));
  player.groups.forEach((group) => box.append(el("div", {class: "group"}, `${group.text.split(":")[0]}: `,
    cardChips(group.cards))));
  if (player.hand !== null && player.seat !== state.viewer) {
    box.append(el("div", {class: "group hand"}, "hand: ", cardChips(player.hand)));
  }
  return box;
}

function render(state) {
  $("#hint").hidden = true;
  $("#board").hidden = false;
  const status = $("#status");
  status.replaceChildren(
    el("span", {}, `${state.mode === "replay" ? "Replay" : state.mode === "watch" ? "Watching" : "Playing"} · hand ${state.hand_number}` +
      (state.tie_replay ? " (tie replay)" : "")),
    el("span", {}, `draw pile ${state.draw_pile}`),
    el("span", {id: "discard"}, "discard top ", state.discard_top ? cardChips([state.discard_top]) : "none"),
    el("span", {id: "outcome"}, state.over ? `Game over: ${state.winners.join(", ")} won` : ""));
  $("#players").replaceChildren(...state.players.map((p) => playerBox(p, state)));

  const me = state.viewer === null ? null : state.players[state.viewer];
  $("#mine").hidden = me === null;
  if (me !== null) {
    $("#hand").replaceChildren(cardChips(me.hand));
    $("#pending").textContent = state.pending || (state.legal.length ? "Your move:" : state.over ? "" : "Waiting for the others…");
    $("#actions").replaceChildren(...state.legal.map((action) => {
      const button = el("button", {type: "button", "data-action": String(action.id)}, action.text);
      button.addEventListener("click", () => act(action.id));
      return button;
    }));
  }
  $("#watch-controls").hidden = state.mode !== "watch";
  $("#replay-controls").hidden = state.mode !== "replay";
  const download = $("#download");
  download.hidden = state.mode === "replay" || (state.mode === "play" && !state.over);
  if (state.mode !== "replay") download.href = `/api/games/${state.id}/record`;
  if (state.mode === "replay") {
    $("#replay-position").textContent = state.moves ? `after move ${state.moves} of ${state.last}` : `start of the game (${state.last} moves)`;
    const slider = $("#replay-slider");
    slider.max = String(state.last);
    slider.value = String(state.moves);
    $("#replay-back").disabled = state.moves === 0;
    $("#replay-first").disabled = state.moves === 0;
    $("#replay-next").disabled = state.moves === state.last;
    $("#replay-last").disabled = state.moves === state.last;
  }
  session.state = state;
}

// The log: in a game, every line told so far (the state's new ``lines``), the last ``news`` lines
// (since your last turn; watching: the last step) in bold; in a replay, the move shown.
function tell(state, replace) {
  const log = $("#log");
  if (replace) log.replaceChildren();
  for (const line of state.lines) {
    const item = el("li", {}, line);
    if (/^Hand \d+ over|^Game over/.test(line)) item.classList.add("hand-over");
    log.append(item);
  }
  while (log.children.length > 600) log.firstChild.remove();
  const items = [...log.children];
  items.forEach((item, i) => item.classList.toggle("new", i >= items.length - state.news.length));
  $("#log-box").scrollTop = $("#log-box").scrollHeight;
}

async function startGame(agents, seed) {
  stopWatching();
  const state = await api("POST", "/api/games", {agents, seed});
  session = {kind: "game", id: state.id, state};
  $("#log-title").textContent = state.mode === "play" ? "What happened (since your last turn in bold)" : "What happened";
  $("#reveal").checked = false;
  tell(state, true);
  render(state);
}

function act(actionId) {
  document.querySelectorAll("#actions button").forEach((b) => { b.disabled = true; });
  return run(async () => {
    const state = await api("POST", `/api/games/${session.id}/act`, {action: actionId});
    tell(state, false);
    render(state);
  });
}

async function watchStep() {
  const state = await api("POST", `/api/games/${session.id}/advance`, {steps: 1, reveal: $("#reveal").checked});
  tell(state, false);
  render(state);
  if (state.over) stopWatching();
}

function scheduleWatch() {
  watchTimer = setTimeout(() => run(watchStep).then(() => { if (watchTimer !== null) scheduleWatch(); }),
    Number($("#pace").value));
}

function stopWatching() {
  if (watchTimer !== null) clearTimeout(watchTimer);
  watchTimer = null;
  $("#watch-toggle").textContent = "Play";
}

function showReplay(move) {
  return run(async () => {
    const state = await api("GET", `/api/replays/${session.id}?move=${move}`);
    tell(state, true);
    render(state);
  });
}

$("#new-game").addEventListener("submit", (event) => {
  event.preventDefault();
  const agents = $("#agents").value.trim().split(/\s+/).filter(Boolean);
  const seedText = $("#seed").value.trim();
  run(() => startGame(agents, seedText === "" ? null : Number(seedText)));
});

$("#record-file").addEventListener("change", async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  const text = await file.text();
  event.target.value = "";
  run(async () => {
    let record;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file.name} is not JSON: ${error.message}`);
    }
    stopWatching();
    const state = await api("POST", "/api/replays", {record});
    session = {kind: "replay", id: state.id, state};
    $("#log-title").textContent = "This move";
    tell(state, true);
    render(state);
  });
});

$("#watch-toggle").addEventListener("click", () => {
  if (watchTimer !== null) { stopWatching(); return; }
  if (session.state.over) return;
  $("#watch-toggle").textContent = "Pause";
  scheduleWatch();
});
$("#watch-step").addEventListener("click", () => run(watchStep));
$("#reveal").addEventListener("change", () => run(async () => {
  render(await api("GET", `/api/games/${session.id}${$("#reveal").checked ? "?reveal=1" : ""}`));
}));
$("#replay-first").addEventListener("click", () => showReplay(0));
$("#replay-back").addEventListener("click", () => showReplay(session.state.moves - 1));
$("#replay-next").addEventListener("click", () => showReplay(session.state.moves + 1));
$("#replay-last").addEventListener("click", () => showReplay(session.state.last));
$("#replay-slider").addEventListener("change", (event) => showReplay(Number(event.target.value)));

run(async () => {
  const defaults = await api("GET", "/api/defaults");
  $("#agents").value = defaults.agents.join(" ");
  if (defaults.seed !== null) $("#seed").value = String(defaults.seed);
  if (defaults.autostart) await startGame(defaults.agents, defaults.seed);
});
