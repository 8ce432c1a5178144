"""The board as the dashboard shows it: the game's SVG, its legal actions lit, taps sent back.

A Streamlit custom component (v2: inline HTML, CSS and JS, no build step, no iframe). Python
draws the board (`dashboard.board.svg.board_layers`, every piece, space and card carrying its tap
key) in two parts: the frame (the map: nearly all of the markup) and what moves. The
browser keeps the frame from one event to the next and parses only the moving part again,
so stepping through a match or recording a move redraws kilobytes, not the whole map.
Record draws it (`tap_board`; Replay's board, which holds a whole match, is
`dashboard.board.scrub`). Python hands over which keys start an action and where each can end
(`projections.record.taps.TapMap.board_data`). Picking a piece is local to the browser: its
targets light at once, with no round trip. Only a tap that makes an event (a target, or a
piece whose action needs no target) is sent to Python, as the trigger `tap` =
`{"source": key | null, "target": key | null}`. A drag from a piece to one of its targets
(pointer down, move, pointer up) is the same two taps, for a mouse, a pen or a finger (a
piece that starts an action takes no scroll gesture). Several elements may stand on one point (a
hero on an altar): the tap goes to the first one under the finger that is a valid target,
then to the first that is a piece to pick.

Record also hands over its panel (`panel`: plain data, drawn beside the board, the component
spanning the page): a press on it is the trigger `act` = `{"act": name, "index": n, "seq":
seq}`, so a tap or a press reruns this one element, not the twenty widgets a Streamlit panel
was. A pad of several dice narrows its outcomes here (faces tapped light, the others no
outcome shows grey out, the roll's meaning shows once one is left): only Record is sent.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import streamlit as st

from dashboard.board.svg import Layers

CSS = """
.tt-board { position: relative; touch-action: manipulation; user-select: none; -webkit-user-select: none; }
.tt-board svg.tabletape-board { display: block; width: 100%; height: auto; max-height: calc(100vh - 110px); }
.tt-board svg.tabletape-cards { display: block; max-width: 100%; height: auto; margin-top: 4px; }
.tt-board .cards { overflow-y: auto; display: flex; flex-wrap: wrap; column-gap: 16px; align-content: flex-start; }
.tt-board .card-row { max-width: 100%; }
.tt-board.beside .body { display: flex; gap: 8px; align-items: flex-start; }
.tt-board.beside .frame, .tt-board.beside .cards { flex: none; }
.tt-board .card-row .row-label { font: bold 11px sans-serif; color: #222; margin: 4px 0 2px; }
.tt-board .row-cards { display: flex; flex-wrap: wrap; gap: 4px; }
.tt-board svg.tabletape-card { display: block; }
.tt-board.busy { opacity: .6; transition: opacity .05s; }
.tt-board [data-key] { cursor: default; }
.tt-board .can, .tt-board .lit { cursor: pointer; }
.tt-board .piece.can { touch-action: none; }
.tt-board .piece.can > circle:first-of-type, .tt-board .piece.can > rect:first-of-type { stroke: #f6b93b; stroke-width: 2.5; }
.tt-board .piece.sel > circle:first-of-type, .tt-board .piece.sel > rect:first-of-type { stroke: #f1c40f; stroke-width: 4.5; }
.tt-board .piece.lit > circle:first-of-type, .tt-board .piece.lit > rect:first-of-type { stroke: #e84118; stroke-width: 4; }
.tt-board polygon.space.lit, .tt-board .cell.lit > polygon, .tt-board .cell.lit > rect { fill: #7bed9f; stroke: #1e8449; stroke-width: 1.5; }
.tt-board .spot { fill: transparent; stroke: none; pointer-events: none; }
.tt-board .spot.lit { fill: rgba(46, 213, 115, .55); stroke: #1e8449; stroke-width: 1.5; pointer-events: all; }
.tt-board .card.can > rect, .tt-board .card.lit > rect { stroke: #f6b93b; stroke-width: 3.5; }
.tt-board .card.sel > rect { stroke: #f1c40f; stroke-width: 5; }
.tt-board table.state { border-collapse: collapse; margin-bottom: 8px; font: 14px sans-serif; }
.tt-board table.state caption { text-align: left; font-weight: bold; padding: 2px 0; }
.tt-board table.state th, .tt-board table.state td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; font-weight: normal; }
.tt-board .hint { font: 13px sans-serif; color: #555; margin: 2px 0 4px; min-height: 1.2em; }
.tt-board.paneled { display: flex; gap: 12px; align-items: flex-start; }
.tt-board.paneled > .main { flex: 1 1 auto; min-width: 0; }
.tt-board > .panel { display: none; }
/* Each part lays out and paints on its own: a tap that redraws the moving pieces or the panel
   does not make the browser lay out and paint the rest of the page again. */
.tt-board .frame, .tt-board .cards, .tt-board > .panel { contain: content; }
.tt-board.paneled > .panel { display: block; flex: 0 0 clamp(280px, 34%, 460px); overflow-y: auto; font: 14px sans-serif; color: #222; }
.tt-board.paneled.narrow { flex-direction: column; }
.tt-board.paneled.narrow > .main, .tt-board.paneled.narrow > .panel { flex: none; width: 100%; }
.tt-board .panel .head { line-height: 1.35; margin-bottom: 4px; }
.tt-board .panel .line { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tt-board .panel .head .match { color: #555; font-size: 12px; }
.tt-board .panel .clamp { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.tt-board .panel .msg { border-radius: 6px; padding: 4px 8px; margin: 4px 0; }
.tt-board .panel .msg.success { color: #1e8449; padding: 0; } .tt-board .panel .msg.warning { background: #fff4e0; }
.tt-board .panel .msg.error { background: #fdecea; } .tt-board .panel .msg.info, .tt-board .panel .meaning { background: #e8f1fb; }
.tt-board .panel .meaning { border-radius: 6px; padding: 4px 8px; margin: 4px 0; }
.tt-board .panel .part { margin: 6px 0; }
.tt-board .panel .note { color: #555; font-size: 12px; margin: 2px 0; }
.tt-board .panel button, .tt-board .panel select { font: 14px sans-serif; padding: 5px 9px; border: 1px solid #ccc; border-radius: 6px;
  background: #fff; color: #222; cursor: pointer; min-height: 34px; }
.tt-board .panel button.wide, .tt-board .panel select { display: block; width: 100%; margin: 3px 0; text-align: left; }
.tt-board .panel button.go { background: #ff4b4b; border-color: #ff4b4b; color: #fff; }
.tt-board .panel button:disabled { opacity: .45; cursor: default; }
.tt-board .panel .grid { display: grid; grid-template-columns: 1fr 1fr; gap: 4px; }
.tt-board .panel .faces { display: flex; flex-wrap: wrap; gap: 4px; margin: 2px 0 4px; }
.tt-board .panel .faces button { min-width: 38px; }
.tt-board .panel .faces button.on { background: #ff4b4b; border-color: #ff4b4b; color: #fff; }
.tt-board .panel .die-name { font-size: 12px; color: #555; }
.tt-board .panel ul { margin: 2px 0; padding-left: 18px; font-size: 13px; }
.tt-board .panel ul.latest { list-style: none; padding-left: 0; }
.tt-board .panel ul.latest li { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.tt-board .panel li.struck .w { text-decoration: line-through; } .tt-board .panel .broke { color: #d63031; }
.tt-board .panel details { font-size: 13px; margin-top: 4px; }
"""

JS = """
const DRAG_PX = 8;  // a press that moves further than this is a drag, not a tap
const ROOM_MIN = 240;  // the board never shrinks below this many pixels high
const GAP = 8;
const NARROW = 700;  // narrower than this (beside a form), the panel goes under the board
const BUSY_MS = 150;  // a tap not answered within this long dims the board until it is
// The board and the card rows (heroes to draft, hands, contracts) fit the window together,
// from where the board starts on the unscrolled page, so on a 1024 x 768 tablet every tap
// of an event is on one screen. The cards go under the board when that leaves the board
// tall enough, else beside it, the board as wide as leaves every card in view; rows too
// long for either (a 56-card deck) go under the board at its least height, the last of them
// scrolling in their own box. The panel beside them (Record's) is as tall as the window
// leaves, scrolling in its own box. Fitted again on every draw (the
// lines above may wrap differently) and when the window turns.
function fit(root) {
  const host = root.getRootNode().host || root;  // the component may draw in a shadow root
  const main = host.closest('[data-testid="stMain"]');
  const frame = root.querySelector('.frame'), cards = root.querySelector('.cards');
  const column = root.querySelector('.main'), panel = root.querySelector('.panel');
  root.classList.toggle('narrow', root.clientWidth < NARROW);  // a column beside a form: the panel under the board
  const top = frame.getBoundingClientRect().top + (main ? main.scrollTop : window.scrollY);
  // A tap that moved pieces changes nothing the fit reads: the same window, the same lines
  // above, the same map and card rows keep the last fit (measuring again costs the browser
  // a layout of the whole board, the most of a redraw).
  const inputs = [window.innerWidth, window.innerHeight, column.clientWidth, Math.round(top), root._frameId, root._cardsShape].join('|');
  const tall = Math.max(ROOM_MIN, window.innerHeight - top - 12) + 'px';
  if (root.classList.contains('narrow')) panel.style.maxHeight = '';
  else if (panel.style.maxHeight !== tall) panel.style.maxHeight = tall;  // the panel as tall as the window leaves
  if (root._fitFor === inputs) return;
  root._fitFor = inputs;
  // The search lays out the card rows alone, at each width it tries (they are contained);
  // the board, whose every space is laid out again when its size changes, once at the end.
  const left = Math.max(ROOM_MIN, window.innerHeight - top - 12);
  const svg = frame.querySelector('svg.tabletape-board');
  const box = svg?.viewBox?.baseVal;
  const aspect = box && box.height ? box.width / box.height : 1;
  const width = column.clientWidth;
  cards.style.width = width + 'px';
  const under = cards.scrollHeight;
  const belowBoard = Math.min(width / aspect, left - under);
  let room = Math.max(ROOM_MIN, left - under);
  let found = 0;
  if (under && belowBoard < width / aspect && cards.querySelector('div.row-cards')) {  // rows that wrap (Record's)
    for (let share = 0.75; share >= 0.35 && !found; share -= 0.05) {
      const boardWidth = Math.min(width * share, left * aspect);
      cards.style.width = (width - boardWidth - GAP) + 'px';
      if (cards.scrollHeight <= left) found = boardWidth;
    }
    if (found / aspect <= belowBoard) found = 0;
  }
  const set = (element, name, value) => { if (element.style[name] !== value) element.style[name] = value; };
  root.classList.toggle('beside', found > 0);
  set(frame, 'width', found ? found + 'px' : '');
  set(cards, 'width', found ? (width - found - GAP) + 'px' : '');
  if (found) room = found / aspect;
  // as many rows as the board's least leaves room for, under the board; beside it, the window's height
  set(cards, 'maxHeight', found ? left + 'px' : under > left - room ? (left - room) + 'px' : '');
  if (svg) set(svg, 'maxHeight', room + 'px');
  if (!root._fits) {
    root._fits = true;
    window.addEventListener('resize', () => fit(root));  // the window is part of the inputs
  }
}
// What of the card rows the fit depends on: each row's label and its cards' sizes. A tap
// that changes what a card shows (a hero's wounds) keeps the last fit, which a refit would
// restyle and lay out the whole board to find again.
function shapeOf(cards) {
  return Array.from(cards.querySelectorAll('.card-row'), (row) => (row.querySelector('.row-label')?.textContent || '') + ':'
    + Array.from(row.querySelectorAll('svg'), (card) => card.getAttribute('width') + 'x' + card.getAttribute('height')).join(',')).join('|')
    || String(cards.innerHTML.length);
}
const esc = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
const button = (act, words, extra = '', cls = 'wide') =>
  '<button class="' + cls + '" data-act="' + act + '"' + extra + '>' + esc(words) + '</button>';
const at = (index) => ' data-index="' + index + '"';
// The panel beside the board: what the table does besides tapping the board, drawn from
// the plain data Python built for this position. A press is the trigger `act`; the dice a
// pad narrows stay in the browser until Record.
const PARTS = {
  ended: (p) => '<div class="msg info">' + esc(p.said) + '</div>'
    + (p.record ? button('end', p.record, '', 'wide go') + '<div class="note">' + esc(p.note) + '</div>' : '')
    + button('replay', 'Open in Replay'),
  dice: (p, pad) => {
    let html = '<div class="clamp" title="' + esc(p.asked) + '"><b>Roll</b>' + (p.asked ? ' — after: ' + esc(p.asked) : '') + '</div>';
    p.dice.forEach(([name, faces], d) => {
      const open = possible(p, pad, d);
      html += '<div class="die-name">' + esc(name) + '</div><div class="faces" data-die="' + esc(name) + '">'
        + faces.map((face, f) => '<button data-act="face" data-die-index="' + d + '" data-face="' + esc(face) + '"' + at(f)
          + (pad[d] === f ? ' class="on" aria-pressed="true"' : '') + (open.has(f) ? '' : ' disabled') + '>' + esc(face) + '</button>').join('')
        + '</div>';
    });
    if (p.oneTap) return html + '<div class="note">Tap the card: it is recorded at once (Undo takes it back).</div>';
    const left = narrowed(p, pad);
    if (left.length !== 1) return html + '<div class="note">Tap one face per die (' + left.length + ' outcomes still possible).</div>';
    return html + '<div class="meaning">' + esc(p.meanings[left[0]]) + '</div>' + button('roll', 'Record the roll', at(left[0]), 'wide go');
  },
  pick: (p) => '<b>Which one?</b>' + p.choices.map((words, i) => button('pick', words, at(i), 'wide go')).join('')
    + button('unpick', 'Cancel', '', ''),
  refused: (p) => p.choices.map(([words, problems], i) => '<div class="msg warning">The rules refuse: ' + esc(words) + '<ul>'
    + problems.map(([rule, message]) => '<li><code>' + esc(rule) + '</code>: ' + esc(message) + '</li>').join('') + '</ul></div>'
    + button('insist', 'The table insists: record it', at(i), 'wide go')).join('') + button('unrefuse', 'Cancel', '', ''),
  table: (p) => '<b>Set up the table</b><select data-choose="table">'
    + p.choices.map(([name, count], i) => '<option value="' + i + '" data-words="Lay this table (' + count + ' pieces)">' + esc(name) + '</option>').join('')
    + '</select>' + button('lay', 'Lay this table (' + p.choices[0][1] + ' pieces)', at(0), 'wide go')
    + '<div class="note">' + esc(p.note) + '</div>',
  clear: (p) => button('clear', p.words),
  compose: (p) => '<b>' + esc(p.title) + '</b>: ' + esc(p.hint) + esc(p.spent)
    + '<div class="grid">' + p.parts.map((words, i) => button('part', words, at(i) + ' data-compose="' + p.index + '"')).join('') + '</div>'
    + (p.chosen.length ? '<div class="grid">' + p.chosen.map((words, i) => button('unpart', (i + 1) + '. ' + words + ' ✕',
      at(i) + ' data-compose="' + p.index + '" title="take it out"')).join('') + '</div>' : '')
    + (p.record === null ? '' : button('compose', p.record || 'Record (nothing tapped yet)', ' data-compose="' + p.index + '"'
      + (p.record ? '' : ' disabled'), 'wide go')),
  info: (p) => '<div class="msg info">' + esc(p.text) + '</div>',
  buttons: (p) => p.list
    ? '<select data-choose="button">' + p.choices.map((words, i) => '<option value="' + i + '">' + esc(words) + '</option>').join('') + '</select>'
      + button('button', 'Record', at(0), 'wide go')
    : p.choices.map((words, i) => button('button', words, at(i))).join(''),
};
function narrowed(p, pad) {
  const out = [];
  p.outcomes.forEach((faces, i) => { if (faces.every((f, d) => pad[d] == null || pad[d] === f)) out.push(i); });
  return out;
}
function possible(p, pad, die) {
  const others = pad.map((f, d) => (d === die ? null : f));
  return new Set(narrowed(p, others).map((i) => p.outcomes[i][die]));
}
function drawPanel(root, panel, send) {
  const box = root.querySelector('.panel');
  if (!panel) { root.classList.remove('paneled'); box.innerHTML = ''; return; }
  root.classList.add('paneled');
  const pad = root._pad;
  const head = panel.head;
  let html = '<div class="head"><div class="line"><b>' + esc(head.title) + '</b> <span class="match">' + esc(head.match) + '</span></div>'
    + '<div class="line">' + esc(head.turn) + (head.actor ? ' · to act: <b>' + esc(head.actor) + '</b>' : '') + '</div>'
    + head.panels.map(([title, text]) => '<div class="line"><b>' + esc(title) + '</b> ' + esc(text) + '</div>').join('') + '</div>';
  if (panel.message) {
    const [kind, text] = panel.message;
    html += '<div class="msg ' + esc(kind) + '">' + (kind === 'success' ? '✓ ' : '') + esc(text) + '</div>';
  }
  for (const part of panel.parts) html += '<div class="part ' + part.kind + '">' + PARTS[part.kind](part, pad) + '</div>';
  html += panel.undo ? '<button class="wide" data-act="undo" title="Writes Retracted for it (and for what it forced)"><span class="clamp">'
    + esc(panel.undo) + '</span></button>' : '<button class="wide" disabled>Undo</button>';
  html += '<b>Latest</b><ul class="latest">' + panel.latest.map(([seq, words, struck, broke]) => '<li' + (struck ? ' class="struck"' : '') + ' title="' + esc(words) + '">'
    + seq + '. <span class="w">' + esc(words) + '</span>' + (broke ? ' <span class="broke">⚠</span>' : '') + '</li>').join('') + '</ul>';
  if (panel.audit) {
    const [tally, findings] = panel.audit;
    html += '<details><summary>Audit so far: ' + esc(tally) + '</summary><ul>' + findings.map(([seq, rule, message]) =>
      '<li>event ' + seq + ' · <code>' + esc(rule) + '</code>: ' + esc(message) + '</li>').join('') + '</ul></details>';
  }
  box.title = head.whole;
  box.innerHTML = html;
  box.onchange = (evt) => {  // a long list: the choice is the index Record sends
    const list = evt.target.closest('select[data-choose]');
    if (!list) return;
    const go = box.querySelector(list.dataset.choose === 'table' ? 'button[data-act="lay"]' : 'button[data-act="button"]');
    go.dataset.index = list.value;
    if (list.selectedOptions[0]?.dataset.words) go.textContent = list.selectedOptions[0].dataset.words;
  };
  box.onclick = (evt) => {
    const press = evt.target.closest('button[data-act]');
    if (!press || press.disabled) return;
    const act = press.dataset.act;
    if (act === 'face') {  // narrowed here; only Record (or a card of a one-die deal) is sent
      const dice = panel.parts.find((p) => p.kind === 'dice');
      const die = Number(press.dataset.dieIndex), face = Number(press.dataset.index);
      root._pad[die] = root._pad[die] === face ? null : face;
      if (dice.oneTap) {
        const left = narrowed(dice, root._pad);
        if (left.length === 1) return send({ act: 'roll', index: left[0] });
      }
      return drawPanel(root, panel, send);
    }
    const out = { act: act };
    if (press.dataset.index != null) out.index = Number(press.dataset.index);
    if (press.dataset.compose != null) out.compose = Number(press.dataset.compose);
    send(out);
  };
}
export default function(component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector('.tt-board');
  if (!root) {
    root = document.createElement('div');
    root.className = 'tt-board';
    root.innerHTML = '<div class="main"><div class="hint"></div><div class="body"><div class="frame"></div><div class="cards"></div></div></div>'
      + '<div class="panel"></div>';
    parentElement.appendChild(root);
  }
  draw(root, data, setTriggerValue, parentElement);
}
// A tap or a press goes to the dashboard's tap route when the page names one (`route`): the
// answer is the new board, drawn at once, with no Streamlit rerun in between. Without the
// route (or when it does not answer) it is the Streamlit trigger, as before. `resync`: the
// page has forms built on the last seq, so Streamlit is told (trigger `synced`) to catch up.
function post(root, data, setTriggerValue, parentElement, trigger, value) {
  root.dataset.tapAt = String(performance.now());
  clearTimeout(root._busy);  // dimmed only while an answer is late: a quick one does not flicker
  root._busy = setTimeout(() => root.classList.add('busy'), BUSY_MS);
  const route = data.route;
  if (!route || (trigger === 'act' && value.act === 'replay')) return setTriggerValue(trigger, value);
  fetch(route.url, { method: 'POST', headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: route.token, [trigger]: value, frame: root._frameId || null }) })
    .then((answer) => (answer.ok ? answer.json() : null), () => null)
    .then((next) => {
      if (!next) return setTriggerValue(trigger, value);
      draw(root, next, setTriggerValue, parentElement);
      if (next.resync) setTriggerValue('synced', next.version);
    });
}
function draw(root, data, setTriggerValue, parentElement) {
  // The board the tap route answered with stays over an older one Streamlit draws again.
  const token = data.route ? data.route.token : null;
  if (token && token === root._token && data.version < root._version) return;
  root._token = token;
  root._version = data.version;
  // The same position drawn again (Streamlit may render a component more than once a run)
  // keeps the piece the table had picked: a tap must never be lost to a redraw.
  const kept = root.dataset.seq === String(data.seq) ? root.dataset.sel : '';
  clearTimeout(root._busy);
  if (root.classList.contains('busy')) root.classList.remove('busy');
  // Only what changed is parsed again: the frame (the map, nearly all the markup) is kept
  // from one event to the next, and the moving part (pieces, lines, spots) replaced.
  const box = root.querySelector('.frame');
  // A game with no board shows its state as tables in the board's place (`still`).
  if (data.still != null) {
    if (root._still !== data.still) {
      box.innerHTML = data.still;
      root._still = data.still;
      root._frameId = root._moving = null;
    }
  } else {
    // Record sends the frame once (`frameId` names it) and then only its name: the browser
    // that lost it (the board was closed and opened again) asks for it once more.
    const frameId = data.frameId || data.frame;
    if (data.frame == null && root._frameId !== frameId) {
      if (root._asked !== frameId) {
        root._asked = frameId;
        setTriggerValue('frame', frameId);
      }
      return;
    }
    if (root._frameId !== frameId) {
      box.innerHTML = data.frame;
      root._frameId = frameId;
      root._still = null;
      root._moving = null;
    }
    if (root._moving !== data.moving) {
      box.querySelector('g.moving').innerHTML = data.moving;
      root._moving = data.moving;
    }
    const cards = data.cards || '';
    if (root._cards !== cards) {
      root.querySelector('.cards').innerHTML = cards;
      root._cards = cards;
      root._cardsShape = shapeOf(root.querySelector('.cards'));
    }
  }
  root.dataset.seq = String(data.seq);
  if (data.still == null) requestAnimationFrame(() => fit(root));
  else root.querySelector('.panel').style.maxHeight = '';  // once the page around it is drawn too: one layout, not two
  // When the new board reaches the screen (the frame after this one is painted): what a
  // person waits for after a tap, read by the browser benchmark.
  if (root.dataset.drawn !== String(data.seq)) {
    requestAnimationFrame(() => setTimeout(() => {
      if (root.dataset.drawn === String(data.seq)) return;
      root.dataset.drawnAt = String(performance.now());
      root.dataset.drawn = String(data.seq);
    }, 0));
  }
  if (root._padSeq !== data.seq) {  // the faces tapped belong to the roll of one position
    root._padSeq = data.seq;
    root._pad = [];
  }
  const act = (press) => post(root, data, setTriggerValue, parentElement, 'act', { ...press, seq: data.seq });
  const panelText = data.panel ? JSON.stringify(data.panel) : '';
  if (root._panel !== panelText) {
    root._panel = panelText;
    drawPanel(root, data.panel, act);
  }
  const hint = root.querySelector('.hint');
  const sources = data.sources || {};
  const direct = new Set(data.direct || []);
  const refused = data.refused || {};
  let selected = kept && sources[kept] ? kept : data.selected && sources[data.selected] ? data.selected : null;
  const all = (key) => root.querySelectorAll('[data-key="' + CSS.escape(key) + '"]');
  const paint = () => {
    root.querySelectorAll('.can, .lit, .sel').forEach((e) => e.classList.remove('can', 'lit', 'sel'));
    for (const key of Object.keys(sources)) all(key).forEach((e) => e.classList.add('can'));
    for (const key of direct) all(key).forEach((e) => e.classList.add('lit'));
    if (selected) {
      all(selected).forEach((e) => e.classList.add('sel'));
      for (const target of sources[selected]) if (target) all(target).forEach((e) => e.classList.add('lit'));
    }
    hint.textContent = (data.hints || {})[selected ? 'target' : 'source'] || '';
    hint.style.display = data.hints ? '' : 'none';
    root.dataset.sel = selected || '';
  };
  const send = (source, target) => post(root, data, setTriggerValue, parentElement, 'tap', { source: source, target: target, seq: data.seq });
  const keysAt = (evt) => {
    // Every keyed thing under the finger, the one whose centre is nearest first: two tap
    // spots a fraction of an inch apart overlap, and the nearer one is the one meant.
    const under = (parentElement.elementsFromPoint ? parentElement : document).elementsFromPoint(evt.clientX, evt.clientY);
    const found = [];
    for (const el of under) {
      const owner = el.closest('[data-key]');
      if (owner && !found.some((f) => f.key === owner.dataset.key)) {
        const box = owner.getBoundingClientRect();
        const dx = box.left + box.width / 2 - evt.clientX, dy = box.top + box.height / 2 - evt.clientY;
        found.push({ key: owner.dataset.key, far: owner.classList.contains('spot') ? dx * dx + dy * dy : Infinity, order: found.length });
      }
    }
    found.sort((a, b) => (a.far - b.far) || (a.order - b.order));
    return found.map((f) => f.key);
  };
  // A drag is the two taps: pointer down on a piece that starts an action (its targets
  // light as it moves), pointer up on one of its targets. A press that does not move is
  // left to the click below; the click a drag ends with is not a tap.
  const column = root.querySelector('.main');
  let down = null, dragging = false, swallow = false;
  column.onpointerdown = (evt) => {
    swallow = false;
    const piece = keysAt(evt).find((k) => k in sources);
    down = piece ? { key: piece, x: evt.clientX, y: evt.clientY } : null;
    dragging = false;
  };
  column.onpointermove = (evt) => {
    if (!down || dragging || Math.hypot(evt.clientX - down.x, evt.clientY - down.y) < DRAG_PX) return;
    dragging = true;
    selected = down.key;
    paint();
  };
  column.onpointerup = (evt) => {
    const from = dragging ? down.key : null;
    down = null;
    if (!from) return;
    dragging = false;
    swallow = true;
    const hit = keysAt(evt).find((k) => sources[from].includes(k));
    if (hit) send(from, hit);
  };
  column.onpointercancel = () => { down = null; dragging = false; };
  column.onclick = (evt) => {
    if (swallow) { swallow = false; return; }
    const keys = keysAt(evt);
    if (selected) {
      const targets = sources[selected];
      const hit = keys.find((k) => targets.includes(k));
      if (hit) return send(selected, hit);
      if (keys.includes(selected) && targets.includes(null)) return send(selected, null);
      const wrong = keys.find((k) => (refused[selected] || []).includes(k));
      if (wrong) return send(selected, wrong);
    }
    const place = keys.find((k) => direct.has(k));
    if (place) return send(null, place);
    const piece = keys.find((k) => k in sources);
    const wrongPlace = !piece && keys.find((k) => (refused[''] || []).includes(k));
    if (wrongPlace) return send(null, wrongPlace);
    if (piece) {
      if (sources[piece].length === 1 && sources[piece][0] === null) return send(piece, null);
      selected = piece;
    } else if (keys.length && data.hints) {
      return send(selected, keys[0]);  // nothing the rules allow is made there: the page says why
    } else {
      selected = data.selected && sources[data.selected] ? data.selected : null;
    }
    paint();
  };
  paint();
}
"""

_BOARD = st.components.v2.component("tabletape_tap_board", css=CSS, js=JS)


def board_data(layers: Layers | None, cards: str, taps: dict[str, Any], *, seq: int, hints: dict[str, str] | None,
               panel: dict[str, Any] | None = None, still: str = "", known_frame: str | None = None) -> dict[str, Any]:
    """What the component draws: the board (`layers`, from `dashboard.board.svg.board_layers`)
    and the `cards` below it with the taps of `taps` (`TapMap.board_data()`) live, and a
    `panel` (plain data: the status, the message, the parts to press, undo, the latest events,
    the audit) beside it. A game with no board passes no `layers` and its state as tables
    (`still`) in the board's place. The map is named by its hash and left out when the
    browser holds it already (`known_frame`)."""
    data: dict[str, Any] = {**taps, "seq": seq, "hints": hints, "panel": panel}
    if layers is None:
        return data | {"still": still, "cards": ""}
    frame_id = _frame_id(layers.frame)
    return data | {"frame": None if known_frame == frame_id else layers.frame, "frameId": frame_id, "moving": layers.moving, "cards": cards}


@lru_cache(maxsize=16)
def _frame_id(frame: str) -> str:
    """The map's name: its hash, worked out once per map rather than on every tap (the map is
    nearly all of a board's markup; the string's own hash, which the cache looks it up by,
    Python keeps with the string)."""
    return hashlib.blake2b(frame.encode(), digest_size=8).hexdigest()


def tap_board(data: dict[str, Any], *, key: str, on_tap: Callable[[], None], on_act: Callable[[], None] | None = None,
              on_synced: Callable[[], None] | None = None) -> Any:
    """Draw `data` (from `board_data`); the map goes to the browser once per session, not on
    every tap. `on_tap` runs, before the page reruns, with the tap in
    `st.session_state[key]["tap"]`; `on_act` with a press of the panel in `...["act"]`;
    `on_synced` once the browser drew a board the dashboard's tap route answered with, so
    that the page catches up with what was written."""
    sent = f"{key}.frame"
    frame_id = data.get("frameId")
    if frame_id is None:
        st.session_state.pop(sent, None)
    elif st.session_state.get(sent) == frame_id:
        data = data | {"frame": None}
    elif data.get("frame") is not None:
        st.session_state[sent] = frame_id
    return _BOARD(data=data, key=key, on_tap_change=on_tap, on_frame_change=lambda: st.session_state.pop(sent, None),
                  on_act_change=on_act or (lambda: None), on_synced_change=on_synced or (lambda: None), width="stretch")
