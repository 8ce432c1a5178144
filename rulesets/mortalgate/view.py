"""What a MortalGate state looks like: the hex map, altars, heroes and the last attack.

"MortalGate is a game of perfect information" (Game Theory): every seat sees the same
board, and the view says so.
"""

from __future__ import annotations

from rulesets.mortalgate import board, heroes
from rulesets.mortalgate.events import AltarCaptured
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.state import State, blessings, blocking, cooldown, find, game_map, stats
from rulesets.mortalgate.table import POOL, TO_PLACE, hero_name
from rulesets.protocol import Place, Progress
from rulesets.view import BoardView, CardRow, Cell, Line, Panel, Piece, Region

OPEN_INFORMATION = "MortalGate is a game of perfect information: every seat sees the whole board."


def view(params: Params, state: State, seat: str | None) -> BoardView:
    """The board as every player sees it (open information: the seat changes nothing)."""
    gmap = game_map(params)
    cells = [Cell(col=c, row=r, kind="impassable") for c, r in sorted(gmap.impassable)]
    for team, nodes in gmap.spawns.items():
        cells += [Cell(col=c, row=r, kind="spawn", owner=team) for c, r in nodes]
    for altar, owner in zip(gmap.altars, state.altars, strict=True):
        cells.append(Cell(col=altar.node[0], row=altar.node[1], kind="altar", owner=owner, label=altar.blessing or altar.name))
    cells += [Cell(col=n[0], row=n[1], kind="enchantment", label=kind) for n, kind in state.enchantments]
    regions = tuple(
        Region(id=a.id, kind="altar-zone", label=a.name, side=owner, cells=tuple(sorted(a.zone)))
        for a, owner in zip(gmap.altars, state.altars, strict=True)
    )
    lines: tuple[Line, ...] = ()
    if state.last_attack is not None:
        a = state.last_attack
        clear = not params.line_of_sight or board.line_of_sight(a.origin, a.target, _sight_blockers(params, state, a.origin))
        lines = (Line(kind="line-of-sight", points=(a.origin, a.target), clear=clear),)
    return BoardView(
        geometry="hex-even-q", width=gmap.width, height=gmap.height, cells=tuple(cells),
        pieces=_pieces(params, state), regions=regions, lines=lines,
        rows=_rows(state), panels=_panels(params, state), seat=seat, note=OPEN_INFORMATION,
    )


def _rows(state: State) -> tuple[CardRow, ...]:
    """Off the board while setting up: the heroes still to draft, then each team's heroes
    still to place (a table taps one, then a spawn)."""
    if state.stage == "draft":
        taken = {hero for hero, _ in state.draft.picks}
        pool = tuple(hero_name(h) for h in heroes.HEROES if h not in taken)
        return (CardRow(id=POOL, label="Heroes to draft", owner=None, cards=pool),)
    if state.stage == "placement":
        return tuple(CardRow(id=f"{TO_PLACE}-{team}", label=f"{team} heroes to place", owner=team,
                             cards=tuple(hero_name(h.id) for h in state.heroes if h.team == team and h.node is None))
                     for team in ("red", "blue"))
    return ()


def _sight_blockers(params: Params, state: State, origin: tuple[int, int]) -> frozenset[tuple[int, int]]:
    """Terrain and the attacker's enemies, as they stand in this state."""
    attacker = next((h for h in state.heroes if h.node == origin), None)
    if attacker is None:
        return game_map(params).impassable
    return blocking(params, state, attacker)


def _pieces(params: Params, state: State) -> tuple[Piece, ...]:
    pieces = []
    for hero in state.heroes:
        if hero.node is None:
            continue
        badges = [f"{e.kind} {e.turns}" for e in hero.effects]
        badges += [f"{name} cd {cooldown(hero, name)}" for name, _ in hero.cooldowns]
        if hero.shield_wall:
            badges.append("shield wall")
        if hero.static_charges:
            badges.append(f"static {hero.static_charges}")
        if hero.enchantment:
            badges.append(f"enchanted: {hero.enchantment}")
        max_health = stats(params, hero.id).health
        pieces.append(Piece(id=hero.id, label=hero.id.title(), side=hero.team, x=hero.node[0], y=hero.node[1],
                            health=(hero.health, max_health), badges=tuple(badges), detail=f"seat {hero.seat}"))
    return tuple(pieces)


def _panels(params: Params, state: State) -> tuple[Panel, ...]:
    grace = Panel(title="Grace", rows=(("red", f"{state.grace[0]} / {params.grace_to_win}"), ("blue", f"{state.grace[1]} / {params.grace_to_win}")))
    held = tuple((team, str(sum(1 for o in state.altars if o == team))) for team in ("red", "blue"))
    altars = Panel(title="Altars held", rows=held)
    slain = tuple((h.id, "slain") for h in state.heroes if not h.alive)
    turn = state.turn
    now = Panel(title="Turn", rows=(("turn", str(state.turns)), ("hero", turn.hero if turn else "-"), ("phase", turn.phase if turn else state.stage)))
    panels = [grace, altars, now]
    if slain:
        panels.append(Panel(title="Slain", rows=slain))
    gifts = {}
    for hero in state.heroes:
        for name, count in blessings(params, state, hero).items():
            gifts[(hero.team, name)] = count
    if gifts:
        panels.append(Panel(title="Blessings", rows=tuple((f"{team}: {name}", str(n)) for (team, name), n in sorted(gifts.items()))))
    return tuple(panels)


def metrics(params: Params, state: State) -> dict[str, float]:
    """Per-step numbers for analytics; `score` (red minus blue Grace) drives lead changes.
    Asked after every event by the warehouse sync, so it counts in one pass, no dicts."""
    red, blue = state.grace
    alive_red = alive_blue = health_red = health_blue = 0
    for hero in state.heroes:
        if hero.alive:
            if hero.team == "red":
                alive_red += 1
                health_red += hero.health
            else:
                alive_blue += 1
                health_blue += hero.health
    held = state.altars
    return {
        "grace_red": red, "grace_blue": blue, "score": red - blue,
        "altars_red": held.count("red"), "altars_blue": held.count("blue"),
        "alive_red": alive_red, "alive_blue": alive_blue,
        "health_red": health_red, "health_blue": health_blue,
    }


def progress(params: Params, state: State) -> Progress:
    """Turn, round (every hero acts once a round), phase and the seat to act."""
    turn = state.turn
    if state.stage != "play" or turn is None:
        return Progress(turn=state.turns, round=0, phase=state.stage, actor=None)
    seat = None
    for hero in state.heroes:
        if hero.id == turn.hero:
            seat = hero.seat
            break
    per_round = max(len(state.heroes), 1)
    return Progress(turn=state.turns, round=(state.turns - 1) // per_round + 1, phase=turn.phase, actor=seat)


def places(params: Params, before: State, after: State, event: object) -> tuple[Place, ...]:
    """Where heroes fall (each hero the event slew, at the node it stood on) and where
    altars change hands (the node of the hero that captured it): the Compare page's
    heatmaps. Asked after every event by the warehouse sync, so heroes are compared only
    where one can have fallen: a hero slain gives the other team Grace (`rules.slay`), so
    while kill Grace is given, an event that left the Grace as it was slew no one."""
    found: tuple[Place, ...] = ()
    if type(event) is AltarCaptured and (capturer := find(before, event.hero)) is not None and capturer.node is not None:
        found = (Place(what="altar captured", col=capturer.node[0], row=capturer.node[1]),)
    if after.heroes is not before.heroes and (after.grace is not before.grace or not params.kill_grace):
        for was, now in zip(before.heroes, after.heroes, strict=False):  # the draft adds heroes
            if was is not now and was.alive and not now.alive and was.id == now.id and was.node is not None:
                found += (Place(what="hero fell", col=was.node[0], row=was.node[1]),)
    return found
