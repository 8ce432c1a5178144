"""MortalGate at the table: each event in words, and where on the board it is made.

`describe` reads an event in the state before it, in the text's own terms ("Seiren moves
3 to F7", "tens 4, ones 7: 47, a hit (needs 35 or more), 3 damage"); `touch` says which
hero or card a table taps and where, so recording a move or an attack is a tap or two.
"""

from __future__ import annotations

from events.base import Event
from rulesets.mortalgate import heroes
from rulesets.mortalgate.events import (
    AbilityUsed,
    AltarCaptured,
    AttackDeclared,
    AttackRolled,
    DraftChoiceMade,
    DraftRolled,
    EnchantmentTaken,
    HeroMoved,
    HeroPicked,
    HeroPlaced,
    HeroRespawned,
    Node,
    TurnOrderSet,
    TurnStarted,
)
from rulesets.mortalgate.maps import Altar
from rulesets.mortalgate.params import Params
from rulesets.mortalgate.rules import attack_damage
from rulesets.mortalgate.state import State, chance_to_hit, find, game_map, is_hit, roll_value
from rulesets.view import Compose, Part, Touch, card_key, piece_key, space_key, space_name

POOL = "pool"
"""The card row of heroes still to draft."""
TO_PLACE = "to-place"
"""The card rows (one a team: `to-place-red`) of drafted heroes not yet on the board."""


def hero_name(hero_id: str) -> str:
    """A hero as the text names it: `Seiren`."""
    hero = heroes.HEROES.get(hero_id)
    return hero.name if hero else hero_id


def ability_name(hero_id: str, ability_id: str) -> str:
    """An ability as its card names it: `Fireball`."""
    hero = heroes.HEROES.get(hero_id)
    found = next((a.name for a in hero.abilities if a.id == ability_id), None) if hero else None
    return found or ability_id.replace("_", " ")


def at(node: Node) -> str:
    """A node as the board's edges print it: `F7`."""
    return space_name("hex-even-q", node[0], node[1])


def _where(params: Params, node: Node) -> str:
    """A node by its name, and the altar whose zone it lies in, if any."""
    for altar in game_map(params).altars:
        if node in altar.zone:
            return f"{at(node)} ({altar.name}'s zone)" if node != altar.node else f"{at(node)} ({altar.name})"
    return at(node)


def _altar(params: Params, altar_id: str) -> Altar | None:
    return next((a for a in game_map(params).altars if a.id == altar_id), None)


def describe(params: Params, state: State, event: Event) -> str:
    """One event in words, read in the state it was played in."""
    match event:
        case DraftRolled(red=red, blue=blue):
            lead = "red wins the roll" if red > blue else "blue wins the roll" if blue > red else "a tie: roll again"
            return f"draft roll: red {red}, blue {blue}: {lead}"
        case DraftChoiceMade(team=team, choice=choice):
            return f"{team} takes the {'first pick' if choice == 'first_pick' else 'first turn'}"
        case HeroPicked(hero=hero):
            return f"{event.by or 'a seat'} drafts {hero_name(hero)}"
        case HeroPlaced(hero=hero, node=node):
            return f"{hero_name(hero)} is placed at {at(node)}"
        case TurnOrderSet(team=team, heroes=order):
            return f"{team}'s turn order: " + ", ".join(hero_name(h) for h in order)
        case TurnStarted(hero=hero):
            return f"{hero_name(hero)}'s turn begins"
        case HeroRespawned(hero=hero, node=node):
            return f"{hero_name(hero)} respawns at {at(node)}"
        case HeroMoved(hero=hero, path=path):
            return f"{hero_name(hero)} moves {len(path)} to {_where(params, path[-1])}" if path else f"{hero_name(hero)} stays"
        case EnchantmentTaken(hero=hero):
            found = find(state, hero)
            kind = next((k for n, k in state.enchantments if found and n == found.node), "")
            return f"{hero_name(hero)} takes the enchantment{f' ({kind})' if kind else ''}"
        case AttackDeclared(hero=hero, target=target):
            return f"{hero_name(hero)} attacks {hero_name(target)}"
        case AbilityUsed(hero=hero, ability=ability, target=target):
            on = f" on {hero_name(target)}" if target else ""
            return f"{hero_name(hero)} uses {ability_name(hero, ability)}{on}"
        case AttackRolled():
            return _rolled(params, state, event)
        case AltarCaptured(hero=hero, altar=altar):
            shrine = _altar(params, altar)
            return f"{hero_name(hero)} captures {shrine.name if shrine else altar}" + (f" ({shrine.blessing})" if shrine and shrine.blessing else "")
    return type(event).__name__


def _rolled(params: Params, state: State, event: AttackRolled) -> str:
    """The two d10 read as a number, and what they do: hit or miss, and the damage."""
    roll = roll_value(event.tens, event.ones)
    head = f"tens {event.tens}, ones {event.ones}: {roll} against {hero_name(event.target)}"
    turn = state.turn
    pending = next((p for p in turn.pending if p.target == event.target), None) if turn else None
    attacker = find(state, pending.attacker) if pending else None
    target = find(state, event.target)
    if attacker is None or target is None:
        return head
    chance = chance_to_hit(params, state, attacker, target)
    hit = event.hit if event.hit is not None else is_hit(chance, event.tens, event.ones)
    needed = f"needs {100 - chance} or more"
    if not hit:
        return f"{head}, a miss ({needed})"
    damage = event.damage if event.damage is not None else attack_damage(params, state, attacker, target, turn)
    return f"{head}, a hit ({needed}), {damage} damage"


def touch(params: Params, state: State, event: Event) -> Touch:
    """Where an event is made: the hero (or a hero card), then the node, hero or altar. A
    hero's actions are named short (the picker lists the few that share a tap); the rest in
    `describe`'s words, read only for them: a turn offers hundreds of moves."""
    match event:
        case HeroPicked(hero=hero):
            return Touch(target=card_key(POOL, hero_name(hero)), words=describe(params, state, event))
        case HeroPlaced(hero=hero, node=node):
            found = find(state, hero)
            row = f"{TO_PLACE}-{found.team if found else 'red'}"
            return Touch(source=card_key(row, hero_name(hero)), target=space_key(*node), words=describe(params, state, event))
        case HeroRespawned(node=node):
            return Touch(target=space_key(*node), words=describe(params, state, event))
        case HeroMoved(hero=hero, path=path) if path:
            return Touch(source=piece_key(hero), target=space_key(*path[-1]), words=f"move to {at(path[-1])}")
        case EnchantmentTaken(hero=hero):
            return Touch(source=piece_key(hero), target=piece_key(hero), words="take the enchantment")
        case AttackDeclared(hero=hero, target=target):
            return Touch(source=piece_key(hero), target=piece_key(target), words="basic attack")
        case AbilityUsed(hero=hero, ability=ability, target=target):
            return Touch(source=piece_key(hero), target=piece_key(target or hero), words=ability_name(hero, ability))
        case AltarCaptured(hero=hero, altar=altar):
            shrine = _altar(params, altar)
            return Touch(source=piece_key(hero), target=space_key(*shrine.node) if shrine else None,
                         words=f"capture {shrine.name if shrine else altar}")
        case TurnStarted(hero=hero):
            turn = state.turn
            return Touch(words=f"end {hero_name(turn.hero)}'s turn ({hero_name(hero)} is next)" if turn
                         else describe(params, state, event))
    return Touch(words=describe(params, state, event))


def compose(params: Params, state: State) -> tuple[Compose, ...]:
    """Each team's turn order while it is still to be set, made by tapping its heroes first
    to act first ("teams will decide within themselves the order in which the players will
    act", mortalgate.txt, Set up): four taps, not a list of the 24 orders."""
    if state.stage != "placement":
        return ()
    made = []
    for index, team in enumerate(("red", "blue")):
        mine = [h.id for h in state.heroes if h.team == team]
        if state.order[index] or not mine:
            continue
        seat = next(s for s, t in state.seats if t == team)
        made.append(Compose(title=f"{team}'s turn order", template=TurnOrderSet(by=seat, team=team, heroes=()), field="heroes",  # type: ignore[arg-type]
                            parts=tuple(Part(value=h, words=hero_name(h)) for h in mine), ordered=True, size=len(mine),
                            hint="tap the heroes, first to act first"))
    return tuple(made)
