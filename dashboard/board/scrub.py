"""Replay's board in the browser: a match's frames handed over once, scrubbed with no round trip.

A Streamlit custom component (v2: inline HTML, CSS and JS, no build step). Python draws each
event's frame (`projections.read.frames`: the seat's board, the event in words, where the game
stands, what broke) and hands the browser a chunk of them at a time; the browser keeps them
and draws any event itself, so the slider, a drag along it, the arrow keys, First, Previous,
Next, Last, "Next violation", "Next note" and autoplay never wait for the server. The server
is asked only for what it alone can answer: the next chunk (the trigger `more`), and the
event a note or the state inspector is about (the trigger `pick`).

A chunk is compact: each distinct drawing (the map, a piece, a region, a line, a hand of
cards, the side panels) is sent once per chunk and a frame names its drawings by index, so a
step that moves one piece costs one piece's markup; the browser keeps one copy of each
drawing across chunks. The first chunk starts at the event the page stands on and is small,
so the first board shows at once; the browser asks for the rest, the part the designer stands
in first, while the designer already scrubs. A match being recorded grows at its end
(`total`); the browser asks for the new frames, and stays on the newest event when following.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from html import escape
from typing import Any

import streamlit as st

from dashboard.board.svg import board_layers, card_rows_svg
from projections.read.frames import Frame
from rulesets.view import BoardView

FIRST = 1
"""Frames in the first chunk: the board the page opens on, alone, so the page's first message
carries one map; the browser asks for the rest once it is on screen."""
CHUNK = 200
"""Frames the browser asks for at a time after the first."""
SPEEDS_MS = {"slow (2 s)": 2000, "normal (1 s)": 1000, "fast (0.5 s)": 500, "faster (0.2 s)": 200}
"""Autoplay's pace, chosen in the browser."""


def state_table(view: BoardView) -> str:
    """A view with no board (`BoardView.has_board`): its panels as tables of label and value,
    in the board's place, so a game that only replays reads as its state."""
    return "".join(f'<table class="state"><caption>{escape(panel.title)}</caption>'
                   + "".join(f"<tr><th>{escape(str(label))}</th><td>{escape(str(value))}</td></tr>" for label, value in panel.rows)
                   + "</table>" for panel in view.panels)


def side_panels(view: BoardView) -> str:
    """Beside a board: its panels (scores, hands counted, whose turn) and what the seat's view hides."""
    rows = [f'<div class="panel"><b>{escape(panel.title)}</b><br>'
            + "<br>".join(f"{escape(str(label))}: {escape(str(value))}" for label, value in panel.rows) + "</div>"
            for panel in view.panels] if view.has_board else []
    if view.note:
        rows.append(f'<div class="note">{escape(view.note)}</div>')
    return "".join(rows)


def pack(frames: Iterable[Frame]) -> dict[str, Any]:
    """Frames as one chunk: `parts` holds each distinct drawing once; a frame names its
    map (`board`), its moving drawings (`moving`), its hands (`cards`) and side panels
    (`side`) by index into `parts`, beside its words."""
    parts: list[str] = []
    index: dict[str, int] = {}

    def part(text: str) -> int:
        if (at := index.get(text)) is None:
            at = index[text] = len(parts)
            parts.append(text)
        return at

    packed = []
    for frame in frames:
        view = frame.view
        if view.has_board:
            layers = board_layers(view, rows=False)
            board, moving, cards = part(layers.frame), [part(p) for p in layers.parts], part(card_rows_svg(view))
        else:
            board, moving, cards = part(state_table(view)), [], part("")
        packed.append({"seq": frame.seq, "board": board, "moving": moving, "cards": cards, "side": part(side_panels(view)),
                       "said": frame.said, "by": frame.by, "where": frame.where, "clock": frame.clock,
                       "findings": [[f.severity, f.rule, f.message] for f in frame.findings], "undone": frame.undone})
    first = packed[0]["seq"] if packed else 0
    return {"from": first, "parts": parts, "frames": packed}


def unpack(chunk: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A chunk's frames with their drawings put back (what the browser draws): `board` is
    the map with its moving part in place, or the state table."""
    parts = chunk["parts"]
    out = []
    for frame in chunk["frames"]:
        moving = "".join(parts[i] for i in frame["moving"])
        board = parts[frame["board"]]
        board = board.replace('<g class="moving"></g>', f'<g class="moving">{moving}</g>', 1)
        out.append({**frame, "board": board, "moving": moving, "cards": parts[frame["cards"]], "side": parts[frame["side"]]})
    return out


CSS = """
.tt-scrub { font: 14px sans-serif; color: #222; user-select: none; -webkit-user-select: none; }
.tt-scrub .bar { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin-bottom: 2px; }
.tt-scrub button, .tt-scrub select { font: 13px sans-serif; padding: 4px 9px; border: 1px solid #ccc; border-radius: 6px;
  background: #fff; color: #222; cursor: pointer; min-height: 30px; }
.tt-scrub button:hover { border-color: #e74c3c; color: #e74c3c; }
.tt-scrub button[aria-pressed="true"] { background: #fdecea; border-color: #e74c3c; }
.tt-scrub .slider { width: 100%; margin: 4px 0 0; height: 22px; touch-action: none; }
.tt-scrub .strip { position: relative; height: 12px; background: #ecf0f1; border-radius: 3px; margin: 0 8px 4px; }
.tt-scrub .strip i { position: absolute; top: 0; width: 2px; height: 12px; margin-left: -1px; }
.tt-scrub .strip i.error { background: #d63031; } .tt-scrub .strip i.warning { background: #e67e22; }
.tt-scrub .strip i.info { background: #95a5a6; } .tt-scrub .strip i.note { background: #3867d6; height: 4px; top: -5px; }
.tt-scrub .strip b { position: absolute; top: -3px; width: 3px; height: 18px; margin-left: -1.5px; background: #2d3436; }
.tt-scrub .flash { color: #1e6091; min-height: 0; }
.tt-scrub .head { margin: 2px 0 4px; line-height: 1.35; }
.tt-scrub .head .where, .tt-scrub .head .who { color: #555; font-size: 13px; }
.tt-scrub .body { display: flex; gap: 10px; align-items: flex-start; }
.tt-scrub .main { flex: 3 1 0; min-width: 0; }
.tt-scrub .side { flex: 1 1 0; min-width: 190px; max-width: 320px; font-size: 13px; }
.tt-scrub .side .finding { border-radius: 6px; padding: 5px 7px; margin-bottom: 5px; }
.tt-scrub .finding.error { background: #fdecea; } .tt-scrub .finding.warning { background: #fff4e0; }
.tt-scrub .finding.info, .tt-scrub .undone { background: #e8f1fb; border-radius: 6px; padding: 5px 7px; margin-bottom: 5px; }
.tt-scrub .panel { margin-bottom: 6px; } .tt-scrub .note { color: #555; font-size: 12px; }
.tt-scrub svg.tabletape-board { display: block; width: 100%; height: auto; max-height: max(280px, calc(100vh - 330px)); }
.tt-scrub svg.tabletape-cards { display: block; max-width: 100%; height: auto; margin-top: 4px; }
.tt-scrub table.state { border-collapse: collapse; margin-bottom: 8px; }
.tt-scrub table.state caption { text-align: left; font-weight: bold; padding: 2px 0; }
.tt-scrub table.state th, .tt-scrub table.state td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; font-weight: normal; }
.tt-scrub ol.events { list-style: none; padding: 0; margin: 8px 0 0; font-size: 13px; }
.tt-scrub ol.events li { padding: 1px 4px; } .tt-scrub ol.events li.here { background: #fdf2d0; font-weight: bold; }
.tt-scrub ol.events li.undone .w { text-decoration: line-through; } .tt-scrub ol.events .r { color: #d63031; }
"""

HTML = """
<div class="tt-scrub">
  <div class="bar">
    <button data-go="first" title="Home">First</button><button data-go="prev" title="Left arrow">&#x25C0; Previous</button
    ><button data-go="next" title="Right arrow">Next &#x25B6;</button><button data-go="last" title="End">Last</button
    ><button data-go="violation">&#x26A0; Next violation</button><button data-go="note">Next note</button
    ><button data-go="play" aria-pressed="false">&#x25B6; Play</button><select class="speed" aria-label="Speed"></select
    ><button data-go="pick" title="Notes, the state inspector and Branch here below follow this event">&#x270E; Note or branch here</button>
  </div>
  <input class="slider" type="range" min="0" max="0" step="1" value="0" aria-label="Event">
  <div class="strip"></div>
  <div class="flash"></div>
  <div class="body">
    <div class="main"><div class="frame"></div><div class="cards"></div></div>
    <div class="side">
      <div class="head"><b class="said"></b><br><span class="who"></span><br><span class="where"></span></div>
      <div class="found"></div>
      <ol class="events"></ol>
    </div>
  </div>
</div>
"""

JS = """
const WINDOW = 5;  // events listed either side of the one shown
const esc = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

export default function(component) {
  const { data, setTriggerValue, parentElement } = component;
  const root = parentElement.querySelector('.tt-scrub');
  const $ = (sel) => root.querySelector(sel);
  const slider = $('.slider');
  // Another match, seat or reading of the rules: start again. The same one (a rerun, a new
  // chunk, events appended while following) keeps every frame the browser holds.
  if (root._id !== data.id) {
    root._id = data.id;
    root._frames = [];
    root._have = 0;
    root._pos = data.start;
    root._asked = null;
    root._shown = { board: null, moving: null, cards: null, side: null };
    root._parts = new Map();
    $('.frame').innerHTML = '';
    stop(root);
  }
  // A jump the page asked for (a turning point's link), taken once.
  if (data.jump && data.jump[0] !== root._jump) {
    root._jump = data.jump[0];
    root._pos = data.jump[1];
  }
  root._data = data;
  root._send = setTriggerValue;
  root._total = data.total;
  slider.max = String(Math.max(data.total - 1, 0));
  slider.disabled = data.total <= 1;
  // Each distinct drawing is kept once (the map of every chunk is the same string).
  const chunk = data.chunk;
  if (chunk && chunk.frames.length) {
    const parts = chunk.parts.map((p) => { const kept = root._parts.get(p); if (kept !== undefined) return kept; root._parts.set(p, p); return p; });
    for (const f of chunk.frames) {
      if (root._frames[f.seq] === undefined) root._have += 1;
      root._frames[f.seq] = { seq: f.seq, board: parts[f.board], moving: f.moving.map((i) => parts[i]), cards: parts[f.cards],
        side: parts[f.side], said: f.said, by: f.by, where: f.where, clock: f.clock, findings: f.findings, undone: f.undone };
    }
    if (root._asked !== null && chunk.from === root._asked.from) root._asked = null;
  }
  root.dataset.id = data.id;
  root.dataset.have = String(root._have);
  root.dataset.total = String(data.total);
  if (!root._installed) install(root, parentElement);
  const speed = $('.speed');
  if (!speed.options.length) {
    for (const [name, ms] of Object.entries(data.speeds)) speed.add(new Option(name, String(ms), false, ms === 1000));
  }
  strip(root);
  if (data.follow) root._pos = data.total - 1;
  draw(root, Math.min(root._pos, data.total - 1));
  // The page draws what lies below the board (findings, notes, win chances) once the first
  // board is on screen, so a first visit's board waits for none of it: said once the board
  // is painted; the frames still missing are asked for after that run.
  if (!data.ready) {
    if (root._shownFor !== data.id) {
      root._shownFor = data.id;
      requestAnimationFrame(() => setTimeout(() => setTriggerValue('shown', data.id), 0));
    }
    return;
  }
  ask(root);
}

// The next frames the browser lacks: from where the designer stands, then from the start.
function ask(root) {
  if (root._have >= root._total) return;
  if (root._asked !== null && performance.now() - root._askedAt < 5000) return;  // one request at a time
  let from = -1;
  for (let s = root._pos; s < root._total; s++) if (root._frames[s] === undefined) { from = s; break; }
  if (from < 0) for (let s = 0; s < root._total; s++) if (root._frames[s] === undefined) { from = s; break; }
  if (from < 0) return;
  root._asked = { from: from, size: root._data.chunk_size, n: (root._asks = (root._asks || 0) + 1) };
  root._askedAt = performance.now();
  root._send('more', root._asked);
}

function strip(root) {
  const data = root._data;
  const key = root._total + '|' + JSON.stringify(data.marks) + JSON.stringify(data.notes);
  const box = root.querySelector('.strip');
  if (root._strip === key) return;
  root._strip = key;
  const at = (seq) => (100 * seq / Math.max(root._total - 1, 1)).toFixed(3) + '%';
  let html = '';
  for (const [from, to] of data.notes) html += '<i class="note" style="left:' + at(from) + ';width:calc(' + at(to) + ' - ' + at(from) + ' + 2px)"></i>';
  for (const [seq, severity] of Object.entries(data.marks)) html += '<i class="' + severity + '" style="left:' + at(Number(seq)) + '"></i>';
  box.innerHTML = html + '<b></b>';
}

function draw(root, seq) {
  seq = Math.max(0, Math.min(seq, root._total - 1));
  root._pos = seq;
  const slider = root.querySelector('.slider');
  if (slider.value !== String(seq)) slider.value = String(seq);
  const marker = root.querySelector('.strip b');
  if (marker) marker.style.left = (100 * seq / Math.max(root._total - 1, 1)).toFixed(3) + '%';
  const last = root._total - 1;
  const f = root._frames[seq];
  const said = root.querySelector('.said');
  if (f === undefined) {
    said.textContent = 'Event ' + seq + ' of ' + last + ': on its way from the server...';
    ask(root);
    return;
  }
  const shown = root._shown;
  const frame = root.querySelector('.frame');
  if (shown.board !== f.board) {
    frame.innerHTML = f.board;
    shown.board = f.board;
    shown.moving = null;
  }
  const moving = f.moving.length ? f.moving.join('') : '';
  if (shown.moving !== moving) {
    const group = frame.querySelector('g.moving');
    if (group) group.innerHTML = moving;
    shown.moving = moving;
  }
  if (shown.cards !== f.cards) { root.querySelector('.cards').innerHTML = f.cards; shown.cards = f.cards; }
  let side = f.findings.map(([severity, rule, message]) => '<div class="finding ' + esc(severity) + '"><code>' + esc(rule) + '</code>'
    + (message ? ': ' + esc(message) : '') + '</div>').join('');
  if (f.undone) side += '<div class="undone">This event was undone later at the table (Retracted).</div>';
  side += f.side;
  if (shown.side !== side) { root.querySelector(".found").innerHTML = side; shown.side = side; }
  said.textContent = 'Event ' + seq + ' of ' + last + ': ' + f.said;
  root.querySelector('.who').textContent = 'by ' + f.by + (f.clock ? ' · ' + f.clock + ' into the match' : '');
  root.querySelector('.where').textContent = f.where;
  let list = '';
  for (let s = Math.max(seq - WINDOW, 0); s <= Math.min(seq + WINDOW, last); s++) {
    const e = root._frames[s];
    const rules = e && e.findings.length ? ' <span class="r">&#x26A0; ' + e.findings.map((x) => esc(x[1])).join(', ') + '</span>' : '';
    list += '<li class="' + (s === seq ? 'here' : '') + (e && e.undone ? ' undone' : '') + '" data-seq="' + s + '">'
      + (s === seq ? '&#x25B6; ' : '') + s + '. <span class="w">' + (e ? esc(e.said) : '...') + '</span>'
      + (e && e.undone ? ' (undone)' : '') + rules + '</li>';
  }
  root.querySelector('ol.events').innerHTML = list;
  root.dataset.seq = String(seq);
  // The frames held when this match's first board was drawn: the page hands a few first and
  // the rest follow (read by the browser test and benchmark).
  if (root.dataset.firstHave === undefined || root.dataset.firstFor !== root._id) {
    root.dataset.firstHave = String(root._have);
    root.dataset.firstFor = root._id;
  }
  // When the new board reaches the screen (the frame after this one is painted): what a
  // person waits for after a key, a tap or a drag, read by the browser benchmark. During a
  // drag each board is on screen for a frame, and each is stamped in turn.
  requestAnimationFrame(() => setTimeout(() => {
    root.dataset.drawnAt = String(performance.now());
    root.dataset.drawn = String(seq);
    if (root.dataset.firstDrawnFor !== root._id) {  // a match's first board, kept through the redraws after it
      root.dataset.firstDrawnFor = root._id;
      root.dataset.firstDrawnAt = root.dataset.drawnAt;
    }
  }, 0));
}

function flash(root, text) { root.querySelector('.flash').textContent = text; }

function stop(root) {
  if (root._timer) clearInterval(root._timer);
  root._timer = null;
  const play = root.querySelector('[data-go="play"]');
  play.setAttribute('aria-pressed', 'false');
  play.innerHTML = '&#x25B6; Play';
}

function go(root, where) {
  const pos = root._pos, last = root._total - 1;
  flash(root, '');
  if (where === 'first') return draw(root, 0);
  if (where === 'prev') return draw(root, pos - 1);
  if (where === 'next') return draw(root, pos + 1);
  if (where === 'last') return draw(root, last);
  if (where === 'violation' || where === 'note') {
    const seqs = where === 'violation' ? Object.keys(root._data.marks).map(Number) : root._data.notes.map((n) => n[0]);
    const later = seqs.filter((s) => s > pos);
    if (later.length) return draw(root, Math.min(...later));
    return flash(root, 'No ' + where + ' after event ' + pos + '.');
  }
  if (where === 'pick') return root._send('pick', { seq: pos });
  if (where === 'play') {
    if (root._timer) return stop(root);
    const button = root.querySelector('[data-go="play"]');
    button.setAttribute('aria-pressed', 'true');
    button.innerHTML = '&#x275A;&#x275A; Pause';
    root._timer = setInterval(() => {
      if (!root.isConnected || root._pos >= root._total - 1) return stop(root);
      draw(root, root._pos + 1);
    }, Number(root.querySelector('.speed').value));
  }
}

function install(root, parentElement) {
  root._installed = true;
  const slider = root.querySelector('.slider');
  // The browser hands a drag's moves over once per painted frame: each is drawn at once.
  slider.addEventListener('input', () => draw(root, Number(slider.value)));
  root.querySelector('.bar').addEventListener('click', (evt) => {
    const button = evt.target.closest('button[data-go]');
    if (button) go(root, button.dataset.go);
  });
  root.querySelector('.speed').addEventListener('change', () => { if (root._timer) { stop(root); go(root, 'play'); } });
  root.querySelector('ol.events').addEventListener('click', (evt) => {
    const item = evt.target.closest('li[data-seq]');
    if (item) draw(root, Number(item.dataset.seq));
  });
  // The arrow keys anywhere on the page, unless someone is typing (a note) or on the slider
  // (which moves itself).
  const keys = { ArrowRight: 'next', ArrowLeft: 'prev', Home: 'first', End: 'last' };
  const onKey = (evt) => {
    if (!root.isConnected) return window.removeEventListener('keydown', onKey);
    const target = evt.composedPath()[0];
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    const where = keys[evt.key];
    if (!where || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    evt.preventDefault();
    go(root, where);
  };
  window.addEventListener('keydown', onKey);
}
"""

_SCRUB = st.components.v2.component("tabletape_scrub", html=HTML, css=CSS, js=JS)


def scrub_board(*, ident: str, total: int, start: int, chunk: Mapping[str, Any], marks: Mapping[int, str],
                notes: Sequence[tuple[int, int]], follow: bool, key: str, on_more: Callable[[], None],
                on_pick: Callable[[], None], on_shown: Callable[[], None], ready: bool = True,
                jump: tuple[int, int] | None = None) -> Any:
    """Mount the board for the match `ident` names (its id, reading and seat): `total`
    events, standing on `start` (or the newest when `follow`), with one `chunk` of frames
    (`pack`); `marks` the worst finding by seq, `notes` the spans of the notes. `on_more` runs
    with `st.session_state[key]["more"]` = `{"from": seq, "size": n}` when the browser wants
    more frames; `on_pick` with `["pick"]` = `{"seq": seq}` when a note is to be made there.
    Not `ready` (the page has drawn nothing below the board yet), the browser asks for no
    frames but says once the first board is on screen: `on_shown` runs with `["shown"]` = the id.
    `jump` = `(count, seq)` moves the browser to `seq` once per new `count`: a link on the page
    (a turning point) that must move a board the browser otherwise steers itself."""
    data = {"id": ident, "total": total, "start": start, "chunk": dict(chunk), "marks": {str(s): v for s, v in marks.items()},
            "notes": [list(n) for n in notes], "follow": follow, "chunk_size": CHUNK, "speeds": SPEEDS_MS,
            "jump": list(jump) if jump else None, "ready": ready}
    return _SCRUB(data=data, key=key, on_more_change=on_more, on_pick_change=on_pick, on_shown_change=on_shown, width="stretch")
