"""The least a tap can cost in Streamlit: a fragment holding one line of text and a custom
component (v2) that stamps when its new value is on screen, as the Record page's board does.

Served by `benchmarks.record_browser` beside the dashboard: a tap's trip to the server, the
fragment's rerun and the redraw, with nothing of tabletape in it, on the same machine in the
same run, is the floor the Record page's tap-to-board is read against. Opened in a new browser,
its first paint is the least a first visit to any Streamlit page costs; with `?choices=1` it
draws the row Replay has above its board first (three choice boxes and a toggle, whose
scripts a first visit loads too).
"""

import streamlit as st

JS = """
export default function(component) {
  const { data, setTriggerValue, parentElement } = component;
  let root = parentElement.querySelector('.tt-floor');
  if (!root) {
    root = document.createElement('div');
    root.className = 'tt-floor';
    root.innerHTML = '<button>Tap</button> <span></span>';
    parentElement.appendChild(root);
    root.querySelector('button').onclick = () => setTriggerValue('tap', { seq: Number(root.dataset.seq) + 1 });
  }
  root.querySelector('span').textContent = String(data.seq);
  if (root.dataset.seq !== String(data.seq)) {
    root.dataset.seq = String(data.seq);
    requestAnimationFrame(() => setTimeout(() => {
      root.dataset.drawnAt = String(performance.now());
      root.dataset.drawn = String(data.seq);
    }, 0));
  }
}
"""

_FLOOR = st.components.v2.component("tabletape_floor", js=JS)


def _tapped() -> None:
    st.session_state["seq"] = st.session_state.get("seq", 0) + 1


@st.fragment
def _board() -> None:
    seq = st.session_state.get("seq", 0)
    st.markdown(f"Tapped {seq} times")
    _FLOOR(data={"seq": seq}, key="floor", on_tap_change=_tapped)


st.title("Floor")
if st.query_params.get("choices"):
    match, rules, seat, follow = st.columns([5, 3, 3, 2], vertical_alignment="bottom")
    match.selectbox("Match", ["a match"])
    rules.selectbox("Rules", ["as recorded"])
    seat.selectbox("Seen by", ["the whole table"])
    follow.toggle("Follow live")
_board()
