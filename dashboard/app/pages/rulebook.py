"""Rulebook: per game, its versions and what changed, every param with where its value comes
from (the rules text, an assumption, a variant), how ambiguous passages are read, and the
rulebook check (the printed tables recomputed from the rules), and what playtesters said
about one rule across versions beside how often tables broke it.

Everything comes from `Workspace.rulesets`, `.describe`, `.rulebook` and `.notes_on_rule`.
"""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from dashboard.app import state
from events.errors import TabletapeError
from projections.workspace import to_builtins

SOURCE_WORDS = {"rules": "rules text", "assumed": "assumed", "variant": "variant"}


def main() -> None:
    """Pick a game and a version; show its versions, params, readings and rulebook check."""
    st.title("Rulebook")
    ws = state.workspace()
    games = ws.rulesets()
    by_name = {g["name"]: g for g in games}
    left, right = st.columns(2)
    name = left.selectbox("Game", list(by_name), format_func=lambda n: f"{by_name[n]['title']} ({n})", key="rulebook.game")
    game = by_name[name]
    choices = [v["id"] for v in game["versions"]] + [v["id"] for v in game["variants"]]
    titles = {v["id"]: v["title"] for v in game["versions"]} | {v["id"]: f"variant of {v['extends']}: {v['title']}" for v in game["variants"]}
    version = right.selectbox("Version", choices, index=len(game["versions"]) - 1, key=f"rulebook.version.{name}",
                              format_func=lambda v: f"{v} - {titles[v]}" if titles.get(v) else v)
    spec = f"{name}@{version}"
    try:
        info = ws.describe(spec)
    except TabletapeError as error:
        state.show_error(error)
        return

    _versions(ws, name, game)
    st.header(f"{spec}: {info['title']}")
    _params(info["params"])
    if info["changelog"]:
        st.subheader("What this version changed")
        for change in info["changelog"]:
            st.markdown(f"- {change['text']}  \n  " + " ".join(f"`{r}`" for r in change["rules"]))
    _readings(info["readings"], {r["id"]: r["passage"] for r in info["rule_ids"]})
    _rulebook_check(ws, spec)
    _rule_ids(info["rule_ids"])
    _said_about(ws, name, version)


def _versions(ws: Any, name: str, game: dict[str, Any]) -> None:
    rows = [{"version": v["id"], "title": v["title"], "kind": "version"} for v in game["versions"]]
    rows += [{"version": v["id"], "title": v["title"], "kind": f"variant of {v['extends']}"} for v in game["variants"]]
    st.subheader(f"Versions of {game['title']}")
    st.caption(f"A bare `{name}` means {name}@{game['newest']}. Variants are this store's TOML files in variants/.")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", key="rulebook.versions")


def _params(params: list[dict[str, Any]]) -> None:
    st.subheader("Params and where each value comes from")
    assumed = sum(p["source"] == "assumed" for p in params)
    st.caption(f"{len(params)} params: {len(params) - assumed} from the rules text or a variant, "
               f"{assumed} assumed (the text does not give them; a designer can override them in a variant).")
    frame = pd.DataFrame([{
        "param": p["name"], "value": p["value"] if isinstance(p["value"], str | int | float | bool) else json.dumps(to_builtins(p["value"])),
        "source": SOURCE_WORDS.get(p["source"], p["source"]), "why": p["note"],
    } for p in params], columns=["param", "value", "source", "why"])  # a game with nothing to tune: no rows
    frame["value"] = frame["value"].astype(str)
    styled = frame.style.apply(lambda row: ["background-color: #fff3cd" if row["source"] == "assumed" else "" for _ in row], axis=1)
    st.table(styled.hide(axis="index"))  # a table whose "why" wraps: a grid cut the reason off at its column's edge


def _readings(readings: list[dict[str, Any]], passages: dict[str, str]) -> None:
    st.subheader(f"How the text is read ({len(readings)})")
    if not readings:
        st.caption("The text has no ambiguity or contradiction on record.")
    for reading in readings:
        where = f" ({passages[reading['rule']]})" if reading["rule"] in passages else ""
        with st.expander(f"{reading['kind']}: {reading['rule']}{where}"):
            st.markdown(f"**The text:** {reading['passage']}  \n**tabletape reads it as:** {reading['reading']}")


def _rule_ids(rule_ids: list[dict[str, Any]]) -> None:
    """The game's table of rule ids: what a finding's id means and where the text says it."""
    st.subheader(f"Rule ids and their passages ({len(rule_ids)})")
    if not rule_ids:
        st.caption("This game declares no rule ids: its findings name no passage.")
        return
    st.caption("Every finding of an audit names one of these ids; the passage is the section of the rules text it comes from.")
    frame = pd.DataFrame([{"rule id": r["id"], "rules text": r["passage"], "what breaks it": r["forbids"]} for r in rule_ids])
    st.dataframe(frame, hide_index=True, width="stretch", key="rulebook.rule_ids",
                 column_config={"what breaks it": st.column_config.TextColumn("what breaks it", width="large")})


def _rulebook_check(ws: Any, spec: str) -> None:
    st.subheader("Rulebook check: the printed tables against the rules")
    try:
        report = ws.rulebook(spec)
    except TabletapeError as error:
        st.info(str(error))
        return
    summary = report.summary() if hasattr(report, "summary") else ""
    findings = [to_builtins(f) for f in getattr(report, "findings", ())]
    if findings:
        st.warning(summary or f"{len(findings)} finding(s)")
        st.dataframe(pd.DataFrame(findings), hide_index=True, width="stretch", key="rulebook.findings")
    else:
        st.success(summary or "Every printed value agrees with the rules.")


def _said_about(ws: Any, name: str, version: str) -> None:
    """Every note about one rule across the store's matches, by version, with the audit's
    findings of that rule per game beside them: did a change of rule change what tables got
    wrong, and what they said?"""
    st.subheader("What playtesters said about a rule")
    left, middle, right = st.columns([3, 1, 1])
    rule = left.text_input("Rule id", key=f"rulebook.rule.{name}", placeholder=f"{name}/SECTION, e.g. a rule of the changelog")
    only = middle.checkbox(f"Only {version}", key=f"rulebook.only.{name}")
    branches = right.checkbox("Count what-if branches", key=f"rulebook.branches.{name}")
    if not rule.strip():
        st.caption("Name a rule id to gather every note about it across the matches of every version.")
        return
    try:
        about = ws.notes_on_rule(rule.strip(), version=version if only else None, branches=branches)
    except TabletapeError as error:
        state.show_error(error)
        return
    if not about.versions:
        st.info(f"No {name} matches{f' of {version}' if only else ''} to read notes about {about.rule} in.")
        return
    st.dataframe(pd.DataFrame([{
        "game": v.game, "version": v.version, "matches": v.matches, "findings": v.findings, "per game": round(v.per_game, 2), "notes": len(v.notes),
    } for v in about.versions]), hide_index=True, width="stretch", key="rulebook.said")
    for v in about.versions:
        for item in v.notes:
            note = item.note
            tags = " ".join(f"`{t}`" for t in note.tags)
            st.markdown(f"**{v.game}@{v.version}** · {item.match_id} event {note.from_seq} · **{note.author}** {tags}  \n{note.text}")


main()
