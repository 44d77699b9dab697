// The analysis page: reads the form, asks the JSON API, shows the answers. No framework, no build step.
"use strict";

const $ = (id) => document.getElementById(id);
const state = { analysis: null, request: null, job: null, events: null };

// ----- talking to the API -----------------------------------------------------------

async function post(path, body, as = "json") {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) {
    let message = `${response.status} ${response.statusText}`;
    try { message = (await response.json()).error || message; } catch (_) { /* not JSON */ }
    throw new Error(message);
  }
  return as === "json" ? response.json() : response.text();
}

/** The position and match fields of the form, as the API's request fields. */
function positionFields() {
  const fields = { position: $("position").value.trim() };
  const length = $("match-length").value.trim();
  const onRoll = $("score-on-roll").value.trim();
  const opponent = $("score-opponent").value.trim();
  if (length) fields.match_length = Number(length);
  if (onRoll || opponent) fields.score = [Number(onRoll || 0), Number(opponent || 0)];
  if ($("crawford").checked) fields.crawford = true;
  return fields;
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
  $("error").hidden = !error;
}

// ----- formatting ---------------------------------------------------------------------

const signed = (x, digits = 3) => (x === null || x === undefined ? "–" : (x >= 0 ? "+" : "") + x.toFixed(digits));
const percent = (x) => (x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%");

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

function table(headers, rows) {
  const t = document.createElement("table");
  const head = t.createTHead().insertRow();
  for (const h of headers) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
  const body = t.createTBody();
  for (const r of rows) { const tr = body.insertRow(); r.forEach((value) => cell(tr, value)); }
  return t;
}

function replace(id, ...nodes) {
  const panel = $(id);
  panel.classList.remove("muted");
  panel.replaceChildren(...nodes);
}

function paragraph(text, className) {
  const p = document.createElement("p");
  p.textContent = text;
  if (className) p.className = className;
  return p;
}

// ----- the board ----------------------------------------------------------------------

async function drawBoard(extra, caption) {
  const fields = { ...state.request, ...extra };
  delete fields.plies;
  $("board-view").innerHTML = await post("/api/render", fields, "text"); // our own SVG
  $("board-caption").textContent = caption;
}

// ----- analysis -----------------------------------------------------------------------

function showEvaluation(evaluation, gameOver) {
  if (!evaluation) {
    replace("evaluation-panel", paragraph(gameOver ? `Game over: ${gameOver.winner} wins a ${gameOver.result}.` : "–"));
    return;
  }
  const p = evaluation.probabilities;
  replace("evaluation-panel", table(
    ["Win", "W gammon", "W bg", "L gammon", "L bg", "Equity"],
    [[percent(p.win), percent(p.win_gammon), percent(p.win_backgammon), percent(p.lose_gammon),
      percent(p.lose_backgammon), signed(evaluation.cubeless_equity)]],
  ), paragraph(`${evaluation.source}, cubeless, the player on roll's view before rolling`, "muted"));
}

function showCube(cube) {
  if (!cube) { replace("cube-panel", paragraph("–")); return; }
  const unit = cube.unit === "mwc" ? "match winning chance" : "money, per cube";
  const rows = [["No double", cube.no_double], ["Double / take", cube.double_take], ["Double / pass", cube.double_pass]]
    .filter(([, value]) => value !== null)
    .map(([name, value]) => [name, cube.unit === "mwc" ? percent(value) : signed(value)]);
  const nodes = [paragraph(cube.action, "action"), table(["Choice", "Equity"], rows)];
  const facts = [];
  if (cube.take_point !== null) facts.push(`take point ${percent(cube.take_point)}`);
  if (cube.cash_point !== null) facts.push(`cash point ${percent(cube.cash_point)}`);
  facts.push(unit);
  if (cube.note) facts.push(cube.note);
  nodes.push(paragraph(facts.join(" · "), "muted"));
  replace("cube-panel", ...nodes);
  $("cube-panel").querySelector(".action").id = "cube-action";
}

function showMoves(moves, dice) {
  const body = $("moves").tBodies[0];
  body.replaceChildren();
  if (!moves) { $("moves-note").textContent = "(give dice to rank the plays)"; return; }
  $("moves-note").textContent = `${dice.join("")}: ${moves.count} plays, ${moves.ranked_by || "unranked"}`;
  for (const m of moves.moves) {
    const row = body.insertRow();
    cell(row, m.rank ?? "");
    cell(row, m.move);
    cell(row, signed(m.equity));
    cell(row, m.difference === null ? "–" : m.difference.toFixed(3));
    cell(row, m.probabilities ? percent(m.probabilities.win) : "–");
    cell(row, m.probabilities ? percent(m.probabilities.win_gammon) : "–");
    row.title = "Show the position after this play";
    row.addEventListener("click", () => pickMove(row, m.move));
  }
}

async function pickMove(row, move) {
  for (const r of $("moves").tBodies[0].rows) r.classList.toggle("picked", r === row);
  try {
    showError(null);
    await drawBoard({ dice: state.analysis.dice, play: move }, `After ${move} (arrows show the play)`);
  } catch (error) { showError(error); }
}

async function analyze(event) {
  if (event) event.preventDefault();
  const request = positionFields();
  const dice = $("dice-input").value.trim();
  if (dice) request.dice = dice;
  const plies = Number($("plies").value);
  $("analyze").disabled = true;
  try {
    showError(null);
    const analysis = await post("/api/analyze", { ...request, plies });
    state.analysis = analysis;
    state.request = request;
    showEvaluation(analysis.evaluation, analysis.game_over);
    showCube(analysis.cube);
    showMoves(analysis.moves, analysis.dice);
    const m = analysis.match;
    const match = m.length ? `${m.length}-point match, ${m.score.on_roll}-${m.score.opponent}` : "money game";
    await drawBoard({}, `${match}; pips ${analysis.position.pips.on_roll} vs ${analysis.position.pips.opponent}; `
      + `${analysis.position.position_id}`);
  } catch (error) {
    showError(error);
  } finally {
    $("analyze").disabled = false;
  }
}

// ----- rollouts -----------------------------------------------------------------------

function rolloutRows(rollout) {
  if (rollout.result) {
    const r = rollout.result;
    return table(["", "Equity", "± 95%", "Win", "Gammon", "Trials"],
      [["Before the roll", signed(r.equity), (1.96 * r.equity_standard_error).toFixed(3), percent(r.probabilities.win),
        percent(r.probabilities.win_gammon), String(r.trials)]]);
  }
  return table(["#", "Play", "Equity", "± 95%", "Diff.", "Trials"], rollout.moves.map((m) => [
    String(m.rank), m.move, signed(m.result.equity), (1.96 * m.result.equity_standard_error).toFixed(3),
    m.difference.toFixed(3), String(m.result.trials)]));
}

function showJob(job) {
  const p = job.progress;
  $("rollout-progress").value = p.fraction;
  const estimate = job.estimate ? `, equity so far ${signed(job.estimate.equity)}` : "";
  const what = p.plays > 1 ? `play ${Math.min(p.plays_done + 1, p.plays)} of ${p.plays}, ` : "";
  const texts = {
    running: `Running: ${what}${p.done} of ${p.total} trials${estimate}`,
    done: `Done (seed ${job.result ? job.result.rollout.settings.seed : "?"})`,
    cancelled: "Cancelled.",
    failed: `Failed: ${job.error}`,
  };
  $("rollout-status").textContent = texts[job.status];
  $("rollout-status").classList.toggle("muted", job.status === "running");
  if (job.status !== "running") {
    $("rollout-start").disabled = false;
    $("rollout-cancel").disabled = true;
    if (state.events) { state.events.close(); state.events = null; }
  }
  if (job.result) $("rollout-result").replaceChildren(rolloutRows(job.result.rollout));
}

async function startRollout() {
  const request = positionFields();
  const dice = $("dice-input").value.trim();
  if (dice) request.dice = dice;
  request.trials = Number($("trials").value);
  const seed = $("seed").value.trim();
  if (seed) request.seed = Number(seed);
  try {
    showError(null);
    $("rollout-result").replaceChildren();
    const job = await post("/api/rollouts", request);
    state.job = job.id;
    $("rollout-start").disabled = true;
    $("rollout-cancel").disabled = false;
    showJob(job);
    const events = new EventSource(`/api/rollouts/${job.id}/events`);
    state.events = events;
    for (const name of ["progress", "done", "cancelled", "failed"]) {
      events.addEventListener(name, (message) => showJob(JSON.parse(message.data)));
    }
    events.onerror = () => { if (state.events === events && events.readyState === EventSource.CLOSED) showError("lost the progress stream"); };
  } catch (error) { showError(error); }
}

async function cancelRollout() {
  if (!state.job) return;
  $("rollout-cancel").disabled = true;
  await fetch(`/api/rollouts/${state.job}`, { method: "DELETE" });
  $("rollout-status").textContent = "Cancelling after the current block of trials…";
}

window.addEventListener("DOMContentLoaded", () => {
  $("position-form").addEventListener("submit", analyze);
  $("rollout-start").addEventListener("click", startRollout);
  $("rollout-cancel").addEventListener("click", cancelRollout);
  analyze();
});
