// The Phase 10 page: talks to the JSON API of agents/web/app.py and draws what it answers.
// The server decides everything (legal actions, what may be seen); this only shows and asks.
"use strict";

const $ = (selector) => document.querySelector(selector);
let session = null;      // {kind: "game" | "replay", id, state}
let watchTimer = null;   // pending step of a watched bot game
let busy = false;        // a request is under way: no second click meanwhile (body[data-ready] says so too)
let thinkingTimer = null;  // shows "thinking" when a request takes a while (a bot searching)
let logCount = 0;        // lines told so far in this game (the log's numbers)
// A server beyond loopback wants its token: the address it prints ends in #token=..., which the
// browser keeps to itself (a fragment is never sent), and every API call carries.
const token = new URLSearchParams(location.hash.slice(1)).get("token");
const SEED = /^(0|[1-9][0-9]{0,39})$/;  // the server's rule: a whole number, written as digits

async function api(method, path, body) {
  const options = {method, headers: {}};
  if (token) options.headers.Authorization = `Bearer ${token}`;
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
  thinkingTimer = setTimeout(() => { $("#thinking").hidden = false; }, 250);
  try {
    showError("");
    await task();
  } catch (error) {
    showError(error.message);
    stopWatching();
  } finally {
    clearTimeout(thinkingTimer);
    $("#thinking").hidden = true;
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

function plural(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function playerBox(player, state) {
  const badges = [];
  if (player.laid) badges.push(el("span", {class: "badge down"}, "DOWN"));
  if (player.skip_pending) badges.push(el("span", {class: "badge skip"}, "skip pending"));
  if (!player.active) badges.push(el("span", {class: "badge"}, "out of the tie replay"));
  const classes = ["player"];
  if (player.to_act) classes.push("to-act");
  if (player.seat === state.viewer) classes.push("me");
  const standing = state.over ? `made ${player.phases_made} of ${plural(state.phases_to_win, "phase")}`
    : `Phase ${player.phase} (${player.phase_text})`;
  const box = el("div", {class: classes.join(" "), "data-seat": String(player.seat)},
    el("h3", {}, player.seat === state.viewer ? "You" : player.name, ...badges),
    el("div", {class: "facts"},
      `${standing} · score ${player.score} · ${plural(player.hand_size, "card")}` +
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
    ...(state.seed ? [el("span", {id: "game-seed"}, `seed ${state.seed}`)] : []),
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
  $("#download").hidden = state.mode === "replay" || (state.mode === "play" && !state.over);
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
  if (replace) {
    log.replaceChildren();
    logCount = 0;
  }
  for (const line of state.lines) {
    logCount += 1;
    const item = el("li", {}, el("span", {class: "n"}, `${logCount}.`), el("span", {class: "line"}, line));
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
  if (seedText !== "" && !SEED.test(seedText)) {
    showError(`The seed must be a whole number written in digits (or nothing, for a new deal), not "${seedText}"`);
    return;
  }
  run(() => startGame(agents, seedText === "" ? null : seedText));
});

// A number JSON.parse could not keep exactly (above 2^53) would silently become another: refuse
// the file instead (records write their seed as text; older ones, and games started from a saved
// state, hold such numbers).
function inexactNumber(value, where) {
  if (typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value)) return where;
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = inexactNumber(item, `${where}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

$("#download").addEventListener("click", () => run(async () => {
  const record = await api("GET", `/api/games/${session.id}/record`);
  const link = el("a", {href: URL.createObjectURL(new Blob([JSON.stringify(record)], {type: "application/json"})),
                        download: `phase10-game-${session.state.seed || "record"}.json`});
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}));

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
    const inexact = inexactNumber(record, "record");
    if (inexact) {
      throw new Error(`${file.name} holds a number too big for a browser to read exactly (${inexact}): ` +
        `step through it with phase10 replay ${file.name} instead`);
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

function showChoices(defaults) {
  $("#agent-kinds").textContent = "Agents: " + defaults.agent_kinds.map((kind) => kind === "human" ? "human (you)"
    : ["heuristic", "mcts", "champion"].includes(kind) ? `${kind}[:options]` : kind).join(", ");
  const phases = defaults.rules_help.filter((line) => line.startsWith("  phase"));
  $("#rules-text").replaceChildren(
    el("p", {}, defaults.rules_help[0]),
    el("ul", {id: "rules-phases"}, ...phases.map((line) => el("li", {}, line.trim()))),
    ...defaults.rules_help.slice(1 + phases.length).map((line) => el("p", {}, line)));
}

run(async () => {
  const defaults = await api("GET", "/api/defaults");
  showChoices(defaults);
  $("#agents").value = defaults.agents.join(" ");
  if (defaults.seed !== null) $("#seed").value = defaults.seed;
  if (defaults.autostart) await startGame(defaults.agents, defaults.seed);
});
