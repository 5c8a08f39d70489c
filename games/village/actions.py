"""The actions of the action spaces (BB "行動"): harvest, family, crafts, council, travel and
church. Each action is one decision; `skip` is always there because acting is optional."""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.village import data
from meeple_hall.games.village import words as w
from meeple_hall.games.village.data import Route
from meeple_hall.games.village.death import describe
from meeple_hall.games.village.economy import (
    can_pay,
    coins_available,
    gain_cube,
    gain_grain,
    pay,
    pay_coins,
    spend_time,
)
from meeple_hall.games.village.state import (
    BAG,
    COUNCIL,
    FARM,
    ON_BOARD,
    SUPPLY,
    TRAVEL,
    WORKSHOP,
    Player,
    Step,
    VillageState,
)

SKIP = Option("skip", w.m("label.skip"))


def log(state: VillageState, seat: int, key: str, **params: object) -> None:
    """A player's event: `Seat 2 harvests 3 grain.`"""
    state.log.append(w.m(key, seat=w.seat_name(seat), **params))


def farm_members(player: Player) -> list[int]:
    """One farm member per number: members of one number are interchangeable."""
    out: dict[int, int] = {}
    for i, m in enumerate(player.members):
        if m.place == FARM:
            out.setdefault(m.number, i)
    return [out[n] for n in sorted(out)]


def distinct(player: Player, place: str) -> list[int]:
    seen: set[tuple[int, str, int]] = set()
    out = []
    for i, m in enumerate(player.members):
        key = (m.number, m.where, m.stage)
        if m.place == place and key not in seen:
            seen.add(key)
            out.append(i)
    return out


# -- harvest ---------------------------------------------------------------------------


def harvest_amount(player: Player) -> int:
    h = data.rules()["harvest"]
    plow = player.goods["plow"] > 0
    if plow and player.goods["ox"] > 0:
        return h["ox_plow"]
    if plow and player.goods["horse"] > 0:
        return h["horse_plow"]
    return h["base"]


def harvest_options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    if not farm_members(player):
        return []
    return [Option("harvest", w.m("label.harvest", n=harvest_amount(player))), SKIP]


def harvest(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    amount = harvest_amount(player)
    gain_grain(player, amount)
    log(state, step.seat, "log.harvests", n=amount)


# -- family ----------------------------------------------------------------------------


def family_options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    out = []
    unborn = [m.number for m in player.members if m.place == SUPPLY]
    if unborn:
        out.append(Option("born", w.m("label.born", member=min(unborn))))
    for place in ON_BOARD:
        for i in distinct(player, place):
            m = player.members[i]
            out.append(Option(f"recall-{i}", w.m("label.recall", who=describe(m))))
    return [*out, SKIP] if out else []


def family(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    if choice == "born":
        unborn = [i for i, m in enumerate(player.members) if m.place == SUPPLY]
        i = min(unborn, key=lambda j: player.members[j].number)
        player.members[i].place = FARM
        log(state, step.seat, "log.born", member=player.members[i].number)
        return
    m = player.members[int(choice.removeprefix("recall-"))]
    m.place, m.where, m.stage = FARM, "", 0
    log(state, step.seat, "log.recall", member=m.number)


# -- crafts ----------------------------------------------------------------------------


def workshop_goods(name: str) -> list[str]:
    shop = data.rules()["workshops"][name]
    return list(shop.get("goods", [shop.get("good")]))


def trained(player: Player, name: str) -> bool:
    return any(m.place == WORKSHOP and m.where == name for m in player.members)


def crafts_options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    rules = data.rules()
    out = []
    for name, shop in rules["workshops"].items():
        for good in workshop_goods(name):
            tag = f"{name}-{good}" if name == "stables" else name
            shop_name, made = w.workshop(name), w.a_good(good)
            if trained(player, name):
                text = w.m("label.make", shop=shop_name, good=made, time=w.time(shop["produce"]))
                out.append(Option(f"{tag}-time", text))
            for i in farm_members(player):
                n = player.members[i].number
                cost = w.time(shop["train"] + shop["produce"])
                text = w.m("label.train_make", shop=shop_name, member=n, good=made, time=cost)
                out.append(Option(f"{tag}-train-{i}", text))
            if "grain" in shop and player.grain >= shop["grain"]:
                text = w.m("label.buy_grain", shop=shop_name, good=made, n=shop["grain"])
                out.append(Option(f"{tag}-grain", text))
            if "cubes" in shop and can_pay(player, {c: 1 for c in shop["cubes"]}):
                paid = w.cubes({c: 1 for c in shop["cubes"]})
                text = w.m("label.buy_cubes", shop=shop_name, good=made, cubes=paid)
                out.append(Option(f"{tag}-cubes", text))
        # Training alone is allowed: the good "may" then be made (EN crafts a).
        for i in farm_members(player):
            n = player.members[i].number
            text = w.m(
                "label.train_only", shop=w.workshop(name), member=n, time=w.time(shop["train"])
            )
            out.append(Option(f"{name}-trainonly-{i}", text))
    mill = rules["mill"]
    if player.grain >= mill["grain"]:
        text = w.m(
            "label.mill", grain=mill["grain"], time=w.time(mill["time"]), coins=mill["coins"]
        )
        out.append(Option("mill", text))
    return [*out, SKIP] if out else []


def crafts(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    rules = data.rules()
    if choice == "mill":
        mill = rules["mill"]
        player.grain -= mill["grain"]
        spend_time(player, mill["time"])
        player.coins += mill["coins"]
        log(state, step.seat, "log.mills", grain=mill["grain"], coins=mill["coins"])
        return
    parts = choice.split("-")
    name = parts[0]
    shop = rules["workshops"][name]
    if parts[1] == "trainonly":
        member = player.members[int(parts[2])]
        member.place, member.where = WORKSHOP, name
        spend_time(player, shop["train"])
        log(state, step.seat, "log.trains", member=member.number, shop=w.workshop(name))
        return
    if name == "stables":
        good, how = parts[1], parts[2:]
    else:
        good, how = shop["good"], parts[1:]
    if how[0] == "time":
        spend_time(player, shop["produce"])
    elif how[0] == "train":
        member = player.members[int(how[1])]
        member.place, member.where = WORKSHOP, name
        spend_time(player, shop["train"] + shop["produce"])
    elif how[0] == "grain":
        player.grain -= shop["grain"]
    else:
        pay(state, player, {c: 1 for c in shop["cubes"]})
    player.goods[good] += 1
    log(state, step.seat, "log.makes", good=w.a_good(good), shop=w.workshop(name))


# -- council ---------------------------------------------------------------------------


def council_payment(how: str) -> Msg:
    if how == "scroll":
        return w.m("label.one_scroll")
    return w.cubes({"green": data.rules()["council"]["green"]})


def council_payments(player: Player) -> list[str]:
    out = []
    if player.goods["scroll"] > 0:
        out.append("scroll")
    if can_pay(player, {"green": data.rules()["council"]["green"]}):
        out.append("green")
    return out


def pay_council(state: VillageState, player: Player, how: str) -> None:
    if how == "scroll":
        player.goods["scroll"] -= 1
    else:
        pay(state, player, {"green": data.rules()["council"]["green"]})


def council_options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    council = data.rules()["council"]
    out = []
    for how in council_payments(player):
        for i in farm_members(player):
            n = player.members[i].number
            paid, t = council_payment(how), w.time(council["enter_time"])
            text = w.m("label.enter", member=n, paid=paid, time=t)
            out.append(Option(f"enter-{i}-{how}", text))
        for i in distinct(player, COUNCIL):
            member = player.members[i]
            if member.stage < 4:
                t = w.time(council["promote_time"][member.stage - 1])
                paid = council_payment(how)
                text = w.m(
                    "label.promote", member=member.number, stage=member.stage + 1, paid=paid, time=t
                )
                out.append(Option(f"promote-{i}-{how}", text))
    stages = [m.stage for m in player.members if m.place == COUNCIL]
    if stages and privilege_options(state, Step("privilege", step.seat, data=[str(max(stages))])):
        out.append(Option("privilege", w.m("label.use_privilege")))
    return [*out, SKIP] if out else []


def council(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    rules = data.rules()["council"]
    if choice == "privilege":
        top = max(m.stage for m in player.members if m.place == COUNCIL)
        state.stack.append(Step("privilege", step.seat, data=[str(top)]))
        return
    verb, index, how = choice.split("-")
    member = player.members[int(index)]
    pay_council(state, player, how)
    if verb == "enter":
        member.place, member.stage = COUNCIL, 1
        spend_time(player, rules["enter_time"])
    else:
        spend_time(player, rules["promote_time"][member.stage - 1])
        member.stage += 1
    log(state, step.seat, "log.council", member=member.number, stage=member.stage)
    state.stack.append(Step("privilege", step.seat, data=[str(member.stage)]))


def privilege_options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    top = int(step.data[0])
    out = []
    if state.next_start is None:
        # Solo: the player always starts; the marker is a coin until the round ends.
        out.append(Option("p1", w.m("label.p1_solo" if state.solo else "label.p1")))
    if top >= 2:
        colours = [c for c in data.colours() if state.supply[c] > 0]
        for a, b in combinations(colours, 2):
            out.append(Option(f"p2-{a}-{b}", w.m("label.p2", a=w.colour(a), b=w.colour(b))))
        if len(colours) == 1:
            # The supply holds one colour only: one cube of it is all there is to take.
            text = w.m("label.p2_last", cube=w.a_colour(colours[0]))
            out.append(Option(f"p2-{colours[0]}", text))
    if top >= 3:
        for good in data.goods():
            out.append(Option(f"p3-{good}", w.m("label.p3", good=w.a_good(good))))
    if top >= 4 and coins_available(player) > 0:
        # The coin paid is the start marker while it is held (economy.pay_coins).
        key = "label.p4_marker" if player.marker_coin else "label.p4"
        out.append(Option("p4", w.m(key, n=data.rules()["council"]["stage4_coin_prestige"])))
    return [*out, Option("none", w.m("label.no_privilege"))] if out else []


def privilege(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    parts = choice.split("-")
    if parts[0] == "p1":
        state.next_start = step.seat
        player.marker_coin = state.solo
        log(state, step.seat, "log.p1")
    elif parts[0] == "p2":
        for colour in parts[1:]:
            gain_cube(state, player, colour)
        log(state, step.seat, "log.takes_cubes", cubes=w.both([w.colour(c) for c in parts[1:]]))
    elif parts[0] == "p3":
        player.goods[parts[1]] += 1
        log(state, step.seat, "log.takes_good", good=w.a_good(parts[1]))
    elif parts[0] == "p4":
        pay_coins(state, player, 1)
        points = data.rules()["council"]["stage4_coin_prestige"]
        player.prestige += points
        log(state, step.seat, "log.p4", n=points)


# -- travel ----------------------------------------------------------------------------


def travel_options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    if player.goods["wagon"] == 0:
        return []
    start = data.travel()["start"]
    out = []
    for city in data.neighbours(start):
        route = data.route(start, city)
        if route and can_pay(player, route.cubes):
            for i in farm_members(player):
                n = player.members[i].number
                trip = trip_text(player, route, city)
                text = w.m("label.go", member=n, city=city_name(city), trip=trip)
                out.append(Option(f"go-{city}-{i}", text))
    for i in distinct(player, TRAVEL):
        here = player.members[i].where
        for city in data.neighbours(here):
            route = data.route(here, city)
            if route and can_pay(player, route.cubes):
                n = player.members[i].number
                trip = trip_text(player, route, city)
                text = w.m("label.move", member=n, a=city_name(here), b=city_name(city), trip=trip)
                out.append(Option(f"move-{i}-{city}", text))
    return [*out, SKIP] if out else []


def city_name(name: str) -> Msg:
    return w.city(name)


def trip_text(player: Player, route: Route, city: str) -> Msg:
    """The trip's cost, and its reward if the city is new to the player."""
    rules = data.rules()["travel"]
    cost = {"cubes": w.cubes(route.cubes), "time": w.time(rules["time"])}
    if city in player.cities:
        return w.m("trip.visited", **cost)
    kind = data.cities()[city]
    n = {"prestige": rules["reward_prestige"], "coin": rules["reward_coins"]}
    reward = w.m(f"reward.{kind}", n=n.get(kind, rules["reward_cubes"]))
    return w.m("trip.reward", **cost, reward=reward)


def travel(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    rules = data.rules()["travel"]
    verb, a, b = choice.split("-")
    if verb == "go":
        city, member = a, player.members[int(b)]
        origin = data.travel()["start"]
    else:
        member, city = player.members[int(a)], b
        origin = member.where
    route = data.route(origin, city)
    assert route is not None
    pay(state, player, route.cubes)
    player.goods["wagon"] -= rules["wagons"]
    spend_time(player, rules["time"])
    member.place, member.where = TRAVEL, city
    log(state, step.seat, "log.travels", city=city_name(city))
    if city in player.cities:
        return
    player.cities.append(city)
    reward = data.cities()[city]
    if reward == "prestige":
        player.prestige += rules["reward_prestige"]
    elif reward == "coin":
        player.coins += rules["reward_coins"]
    else:
        state.stack.append(Step("reward", step.seat))


def reward_options(state: VillageState, step: Step) -> list[Option]:
    out = []
    for a, b in combinations_with_replacement(data.colours(), 2):
        need = {a: 1, b: 1} if a != b else {a: 2}
        if all(state.supply[c] >= n for c, n in need.items()):
            text = (
                w.m("label.take_two", colour=w.colour(a))
                if a == b
                else w.m("label.take_pair", a=w.colour(a), b=w.colour(b))
            )
            out.append(Option(f"{a}-{b}", text))
    if not out:
        # A single cube left in the whole supply: the reward is that cube.
        out = [
            Option(c, w.m("label.take_last", cube=w.a_colour(c)))
            for c in data.colours()
            if state.supply[c]
        ]
    return out


def reward(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    for colour in choice.split("-"):
        gain_cube(state, player, colour)
    log(state, step.seat, "log.takes_cubes", cubes=w.both([w.colour(c) for c in choice.split("-")]))


# -- church ----------------------------------------------------------------------------


def church_options(state: VillageState, step: Step) -> list[Option]:
    player = state.players[step.seat]
    church = data.rules()["church"]
    out = []
    for i in farm_members(player):
        n = player.members[i].number
        if can_pay(player, {"brown": church["brown"]}):
            text = w.m("label.church", member=n, paid=w.cubes({"brown": church["brown"]}))
            out.append(Option(f"church-{i}-brown", text))
        text = w.m("label.church", member=n, paid=w.time(church["time"]))
        out.append(Option(f"church-{i}-time", text))
    return [*out, SKIP] if out else []


def church(state: VillageState, step: Step, choice: str) -> None:
    player = state.players[step.seat]
    rules = data.rules()["church"]
    _, index, how = choice.split("-")
    if how == "brown":
        pay(state, player, {"brown": rules["brown"]})
    else:
        spend_time(player, rules["time"])
    member = player.members[int(index)]
    member.place = BAG
    state.black_bag.append(f"{step.seat}:{index}")
    log(state, step.seat, "log.church", member=member.number)


def cube_cost(state: VillageState, step: Step, option: str) -> dict[str, int]:
    """The influence cubes an action option costs (coins may stand in for any of them)."""
    rules = data.rules()
    parts = option.split("-")
    if step.kind == "crafts" and parts[-1] == "cubes":
        return {c: 1 for c in rules["workshops"][parts[0]]["cubes"]}
    if step.kind == "council" and parts[-1] == "green":
        return {"green": rules["council"]["green"]}
    if step.kind == "church" and parts[-1] == "brown":
        return {"brown": rules["church"]["brown"]}
    if step.kind == "travel" and parts[0] in ("go", "move"):
        if parts[0] == "go":
            origin, city = data.travel()["start"], parts[1]
        else:
            origin, city = state.players[step.seat].members[int(parts[1])].where, parts[2]
        route = data.route(origin, city)
        return dict(route.cubes) if route else {}
    return {}


OPTIONS = {
    "harvest": harvest_options,
    "family": family_options,
    "crafts": crafts_options,
    "council": council_options,
    "privilege": privilege_options,
    "travel": travel_options,
    "reward": reward_options,
    "church": church_options,
}
PERFORM = {
    "harvest": harvest,
    "family": family,
    "crafts": crafts,
    "council": council,
    "privilege": privilege,
    "travel": travel,
    "reward": reward,
    "church": church,
}
ACTIONS = ("harvest", "family", "crafts", "market", "travel", "council", "church")
