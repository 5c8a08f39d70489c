"""The actions of the action spaces (BB "行動"): harvest, family, crafts, council, travel and
church. Each action is one decision; `skip` is always there because acting is optional."""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement
from typing import Any

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.village import data
from meeple_hall.games.village import words as w
from meeple_hall.games.village.data import Route
from meeple_hall.games.village.death import CATEGORY, describe
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
    Frame,
    Member,
    Player,
    VillageState,
)
from meeple_hall.games.village.steps import SKIP, Fields, VillageStep, option, passing


def log(state: VillageState, seat: int, key: str, **params: Any) -> None:
    """A player's event: `Seat 2 harvests 3 grain.`"""
    state.log.append(event(key, seat, **params))


@lru_cache(maxsize=1024)
def event(key: str, seat: int, **params: Any) -> Msg:
    """A player's event, made once for what it says (a panel's every line logs its move)."""
    return w.m(key, seat=w.seat_name(seat), **params)


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


class Harvest(VillageStep):
    """A member at home harvests grain (more with a plow and a horse or an ox)."""

    kind = "harvest"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        if not farm_members(player):
            return []
        amount = harvest_amount(player)
        return [option("harvest", w.m("label.harvest", n=amount), grain=amount), SKIP]

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        player = state.players[frame.seat]
        amount = harvest_amount(player)
        gain_grain(player, amount)
        log(state, frame.seat, "log.harvests", n=amount)


# -- family ----------------------------------------------------------------------------


class Family(VillageStep):
    """A member is born onto the farm, or one comes home from the board."""

    kind = "family"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        out = []
        unborn = [m.number for m in player.members if m.place == SUPPLY]
        if unborn:
            out.append(_born_option(min(unborn)))
        for place in ON_BOARD:
            for i in distinct(player, place):
                m = player.members[i]
                out.append(_recall_option(i, m.number, m.place, m.where, m.stage))
        return [*out, SKIP] if out else []

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        player = state.players[frame.seat]
        if chosen["how"] == "born":
            unborn = [i for i, m in enumerate(player.members) if m.place == SUPPLY]
            i = min(unborn, key=lambda j: player.members[j].number)
            player.members[i].place = FARM
            log(state, frame.seat, "log.born", member=player.members[i].number)
            return
        m = player.members[chosen["member"]]
        m.place, m.where, m.stage = FARM, "", 0
        log(state, frame.seat, "log.recall", member=m.number)


# A family's options are the same few each time (a panel asks for them for every line that
# ends on family): made once each.
@cache
def _born_option(number: int) -> Option:
    return option("born", w.m("label.born", member=number), how="born")


@lru_cache(maxsize=1024)
def _recall_option(index: int, number: int, at: str, where: str, stage: int) -> Option:
    """Member `index` home from where it is: its `row` (as a death's: `death.CATEGORY`),
    number, and workshop or city (`where`) or stage, for the picture to ring it there."""
    label = w.m("label.recall", who=describe(Member(number, at, where, stage)))
    place = {"stage": stage} if stage else {"where": where}
    return option(
        f"recall-{index}",
        label,
        how="recall",
        member=index,
        row=CATEGORY.get(at, "church"),
        number=number,
        **place,
    )


# -- crafts ----------------------------------------------------------------------------


def workshop_goods(name: str) -> list[str]:
    shop = data.rules()["workshops"][name]
    return list(shop.get("goods", [shop.get("good")]))


def trained(player: Player, name: str) -> bool:
    return any(m.place == WORKSHOP and m.where == name for m in player.members)


def making(player: Player, name: str, good: str) -> list[Option]:
    """The ways to make `good` at workshop `name`: trained (time), training a member from
    home (time), or buying it with grain or cubes."""
    shop = data.rules()["workshops"][name]
    out = []
    if trained(player, name):
        out.append(_make_option(name, good, "time"))
    for i in farm_members(player):
        out.append(_train_make_option(name, good, i, player.members[i].number))
    if "grain" in shop and player.grain >= shop["grain"]:
        out.append(_make_option(name, good, "grain"))
    cubes = _shop_cubes(name)
    if cubes and can_pay(player, cubes):
        out.append(_make_option(name, good, "cubes"))
    return out


# A workshop's options are the same few each time (a panel asks for them for every line
# that ends on crafts): made once each.
@cache
def _shop_cubes(name: str) -> dict[str, int]:
    return {c: 1 for c in data.rules()["workshops"][name].get("cubes", ())}


def _tag(name: str, good: str) -> str:
    return f"{name}-{good}" if name == "stables" else name


@cache
def _make_option(name: str, good: str, how: str) -> Option:
    """Making `good` at `name` by time (trained there), grain or cubes."""
    shop = data.rules()["workshops"][name]
    shop_name, made = w.workshop(name), w.a_good(good)
    what = {"shop": name, "good": good}
    tag = _tag(name, good)
    if how == "time":
        text = w.m("label.make", shop=shop_name, good=made, time=w.time(shop["produce"]))
        return option(f"{tag}-time", text, **what, how="time")
    if how == "grain":
        text = w.m("label.buy_grain", shop=shop_name, good=made, n=shop["grain"])
        return option(f"{tag}-grain", text, **what, how="grain")
    cubes = _shop_cubes(name)
    text = w.m("label.buy_cubes", shop=shop_name, good=made, cubes=w.cubes(cubes))
    return option(f"{tag}-cubes", text, **what, how="cubes", cost=cubes)


@cache
def _train_make_option(name: str, good: str, index: int, number: int) -> Option:
    shop = data.rules()["workshops"][name]
    cost = w.time(shop["train"] + shop["produce"])
    text = w.m(
        "label.train_make", shop=w.workshop(name), member=number, good=w.a_good(good), time=cost
    )
    what = {"shop": name, "good": good}
    return option(f"{_tag(name, good)}-train-{index}", text, **what, how="train", member=index)


def training(player: Player, name: str) -> list[Option]:
    """Training alone is allowed: the good "may" then be made (EN crafts a)."""
    return [_training_option(name, i, player.members[i].number) for i in farm_members(player)]


@cache
def _training_option(name: str, index: int, number: int) -> Option:
    time = w.time(data.rules()["workshops"][name]["train"])
    text = w.m("label.train_only", shop=w.workshop(name), member=number, time=time)
    return option(f"{name}-trainonly-{index}", text, shop=name, how="trainonly", member=index)


@cache
def _mill_option() -> Option:
    mill = data.rules()["mill"]
    time = w.time(mill["time"])
    text = w.m("label.mill", grain=mill["grain"], time=time, coins=mill["coins"])
    return option("mill", text, how="mill")


class Crafts(VillageStep):
    """A good from a workshop (trained for time, or bought), training alone, or the mill."""

    kind = "crafts"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        out = []
        for name in data.rules()["workshops"]:
            for good in workshop_goods(name):
                out += making(player, name, good)
            out += training(player, name)
        if player.grain >= data.rules()["mill"]["grain"]:
            out.append(_mill_option())
        return [*out, SKIP] if out else []

    def has_choices(self, state: VillageState, frame: Frame) -> bool:
        """As `choices`, without making them: a member at home to train, one trained in a
        workshop, or grain or cubes enough to buy a good or use the mill."""
        player = state.players[frame.seat]
        if any(m.place in (FARM, WORKSHOP) for m in player.members):
            return True
        rules = data.rules()
        if player.grain >= rules["mill"]["grain"]:
            return True
        return any(
            ("grain" in shop and player.grain >= shop["grain"])
            or (bool(_shop_cubes(name)) and can_pay(player, _shop_cubes(name)))
            for name, shop in rules["workshops"].items()
        )

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        if chosen["how"] == "mill":
            mill(state, frame.seat)
        elif chosen["how"] == "trainonly":
            train(state, frame.seat, chosen["shop"], chosen["member"])
        else:
            make(state, frame.seat, chosen)


def mill(state: VillageState, seat: int) -> None:
    player, mill = state.players[seat], data.rules()["mill"]
    player.grain -= mill["grain"]
    spend_time(player, mill["time"])
    player.coins += mill["coins"]
    log(state, seat, "log.mills", grain=mill["grain"], coins=mill["coins"])


def train(state: VillageState, seat: int, name: str, index: int) -> None:
    player = state.players[seat]
    member = player.members[index]
    member.place, member.where = WORKSHOP, name
    spend_time(player, data.rules()["workshops"][name]["train"])
    log(state, seat, "log.trains", member=member.number, shop=w.workshop(name))


def make(state: VillageState, seat: int, chosen: Fields) -> None:
    player = state.players[seat]
    name, good, how = chosen["shop"], chosen["good"], chosen["how"]
    shop = data.rules()["workshops"][name]
    if how == "time":
        spend_time(player, shop["produce"])
    elif how == "train":
        member = player.members[chosen["member"]]
        member.place, member.where = WORKSHOP, name
        spend_time(player, shop["train"] + shop["produce"])
    elif how == "grain":
        player.grain -= shop["grain"]
    else:
        pay(state, player, chosen["cost"])
    player.goods[good] += 1
    log(state, seat, "log.makes", good=w.a_good(good), shop=w.workshop(name))


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


def council_cost(how: str) -> dict[str, int]:
    """The cubes a council step paid `how` costs (a scroll costs none)."""
    return {"green": data.rules()["council"]["green"]} if how == "green" else {}


def pay_council(state: VillageState, player: Player, how: str) -> None:
    if how == "scroll":
        player.goods["scroll"] -= 1
    else:
        pay(state, player, council_cost(how))


class Council(VillageStep):
    """A member enters the council or moves up a stage (a scroll or green cubes, and
    time), then the privilege of its stage; or only the privilege of the top stage."""

    kind = "council"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        out = []
        for how in council_payments(player):
            out += entering(player, how) + promoting(player, how)
        stages = [m.stage for m in player.members if m.place == COUNCIL]
        if stages and Privilege().choices(state, privilege_frame(frame.seat, max(stages))):
            out.append(option("privilege", w.m("label.use_privilege"), how="privilege"))
        return [*out, SKIP] if out else []

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        player = state.players[frame.seat]
        if chosen["how"] == "privilege":
            top = max(m.stage for m in player.members if m.place == COUNCIL)
            state.stack.append(privilege_frame(frame.seat, top))
            return
        rules = data.rules()["council"]
        member = player.members[chosen["member"]]
        pay_council(state, player, chosen["pay"])
        if chosen["how"] == "enter":
            member.place, member.stage = COUNCIL, 1
            spend_time(player, rules["enter_time"])
        else:
            spend_time(player, rules["promote_time"][member.stage - 1])
            member.stage += 1
        log(state, frame.seat, "log.council", member=member.number, stage=member.stage)
        state.stack.append(privilege_frame(frame.seat, member.stage))


def entering(player: Player, how: str) -> list[Option]:
    paid, time = council_payment(how), w.time(data.rules()["council"]["enter_time"])
    cost = council_cost(how)
    out = []
    for i in farm_members(player):
        text = w.m("label.enter", member=player.members[i].number, paid=paid, time=time)
        out.append(option(f"enter-{i}-{how}", text, how="enter", member=i, pay=how, cost=cost))
    return out


def promoting(player: Player, how: str) -> list[Option]:
    council = data.rules()["council"]
    cost = council_cost(how)
    out = []
    for i in distinct(player, COUNCIL):
        member = player.members[i]
        if member.stage < 4:
            time = w.time(council["promote_time"][member.stage - 1])
            n, up = member.number, member.stage + 1
            text = w.m("label.promote", member=n, stage=up, paid=council_payment(how), time=time)
            out.append(
                option(f"promote-{i}-{how}", text, how="promote", member=i, pay=how, cost=cost)
            )
    return out


def privilege_frame(seat: int, stage: int) -> Frame:
    return Frame("privilege", seat, data=[str(stage)])


class Privilege(VillageStep):
    """The privilege of a council stage, or of any stage below it."""

    kind = "privilege"

    def prompt(self, state: VillageState, frame: Frame) -> Msg:
        return w.m("prompt.privilege", stage=int(frame.data[0]))

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        top = int(frame.data[0])
        out = []
        if state.next_start is None:
            # Solo: the player always starts; the marker is a coin until the round ends.
            label = w.m("label.p1_solo" if state.solo else "label.p1")
            out.append(option("p1", label, privilege=1))
        if top >= 2:
            out += cube_privileges(state)
        if top >= 3:
            for good in data.goods():
                out.append(
                    option(
                        f"p3-{good}", w.m("label.p3", good=w.a_good(good)), privilege=3, good=good
                    )
                )
        if top >= 4 and coins_available(player) > 0:
            # The coin paid is the start marker while it is held (economy.pay_coins).
            key = "label.p4_marker" if player.marker_coin else "label.p4"
            n = data.rules()["council"]["stage4_coin_prestige"]
            out.append(option("p4", w.m(key, n=n), privilege=4))
        return [*out, passing("none", w.m("label.no_privilege"))] if out else []

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        seat, player = frame.seat, state.players[frame.seat]
        stage = chosen["privilege"]
        if stage == 1:
            state.next_start = seat
            player.marker_coin = state.solo
            log(state, seat, "log.p1")
        elif stage == 2:
            for colour in chosen["colours"]:
                gain_cube(state, player, colour)
            taken = w.both([w.colour(c) for c in chosen["colours"]])
            log(state, seat, "log.takes_cubes", cubes=taken)
        elif stage == 3:
            player.goods[chosen["good"]] += 1
            log(state, seat, "log.takes_good", good=w.a_good(chosen["good"]))
        else:
            pay_coins(state, player, 1)
            points = data.rules()["council"]["stage4_coin_prestige"]
            player.prestige += points
            log(state, seat, "log.p4", n=points)


def cube_privileges(state: VillageState) -> list[Option]:
    """Two cubes of different colours from the supply, or the one colour it still has."""
    colours = [c for c in data.colours() if state.supply[c] > 0]
    out = []
    for a, b in combinations(colours, 2):
        label = w.m("label.p2", a=w.colour(a), b=w.colour(b))
        out.append(option(f"p2-{a}-{b}", label, privilege=2, colours=[a, b]))
    if len(colours) == 1:
        # The supply holds one colour only: one cube of it is all there is to take.
        label = w.m("label.p2_last", cube=w.a_colour(colours[0]))
        out.append(option(f"p2-{colours[0]}", label, privilege=2, colours=colours))
    return out


# -- travel ----------------------------------------------------------------------------


class Travel(VillageStep):
    """With a wagon, a member from home sets out from the start city, or a traveller moves
    on to a neighbouring city, paying the route's cubes and time."""

    kind = "travel"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        if player.goods["wagon"] == 0:
            return []
        start = data.travel()["start"]
        out = []
        for city in data.neighbours(start):
            for i in farm_members(player):
                out += trip(player, i, start, city, f"go-{city}-{i}", "label.go")
        for i in distinct(player, TRAVEL):
            here = player.members[i].where
            for city in data.neighbours(here):
                out += trip(player, i, here, city, f"move-{i}-{city}", "label.move")
        return [*out, SKIP] if out else []

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        player = state.players[frame.seat]
        rules = data.rules()["travel"]
        city, member = chosen["city"], player.members[chosen["member"]]
        pay(state, player, chosen["cost"])
        player.goods["wagon"] -= rules["wagons"]
        spend_time(player, rules["time"])
        member.place, member.where = TRAVEL, city
        log(state, frame.seat, "log.travels", city=city_name(city))
        if city in player.cities:
            return
        player.cities.append(city)
        reward = data.cities()[city]
        if reward == "prestige":
            player.prestige += rules["reward_prestige"]
        elif reward == "coin":
            player.coins += rules["reward_coins"]
        else:
            state.stack.append(Frame("reward", frame.seat))


def trip(player: Player, index: int, origin: str, city: str, oid: str, key: str) -> list[Option]:
    """Member `index` travelling from `origin` to `city` (`label.go` from the start city,
    `label.move` between cities), if the player can pay the route."""
    route = data.route(origin, city)
    if not route or not can_pay(player, route.cubes):
        return []
    n, cost = player.members[index].number, trip_text(player, route, city)
    if key == "label.go":
        text = w.m(key, member=n, city=city_name(city), trip=cost)
    else:
        text = w.m(key, member=n, a=city_name(origin), b=city_name(city), trip=cost)
    return [option(oid, text, member=index, origin=origin, city=city, cost=dict(route.cubes))]


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


class Reward(VillageStep):
    """A city's reward of two cubes, of one colour or two."""

    kind = "reward"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        out = []
        for a, b in combinations_with_replacement(data.colours(), 2):
            need = {a: 1, b: 1} if a != b else {a: 2}
            if all(state.supply[c] >= n for c, n in need.items()):
                text = (
                    w.m("label.take_two", colour=w.colour(a))
                    if a == b
                    else w.m("label.take_pair", a=w.colour(a), b=w.colour(b))
                )
                out.append(option(f"{a}-{b}", text, colours=[a, b]))
        if not out:
            # A single cube left in the whole supply: the reward is that cube.
            out = [
                option(c, w.m("label.take_last", cube=w.a_colour(c)), colours=[c])
                for c in data.colours()
                if state.supply[c]
            ]
        return out

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        player = state.players[frame.seat]
        for colour in chosen["colours"]:
            gain_cube(state, player, colour)
        taken = w.both([w.colour(c) for c in chosen["colours"]])
        log(state, frame.seat, "log.takes_cubes", cubes=taken)


# -- church ----------------------------------------------------------------------------


class Church(VillageStep):
    """A member from home goes into the black bag, for brown cubes or time."""

    kind = "church"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        out = []
        for i in farm_members(player):
            n = player.members[i].number
            if can_pay(player, _church_brown()):
                out.append(_church_option(i, n, "brown"))
            out.append(_church_option(i, n, "time"))
        return [*out, SKIP] if out else []

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        player = state.players[frame.seat]
        if chosen["pay"] == "brown":
            pay(state, player, chosen["cost"])
        else:
            spend_time(player, data.rules()["church"]["time"])
        index = chosen["member"]
        member = player.members[index]
        member.place = BAG
        state.black_bag.append(f"{frame.seat}:{index}")
        log(state, frame.seat, "log.church", member=member.number)


@cache
def _church_brown() -> dict[str, int]:
    return {"brown": data.rules()["church"]["brown"]}


@cache
def _church_option(index: int, number: int, how: str) -> Option:
    """Member `index` (its `number`) into the black bag, paying brown cubes or time: the
    same few options each time, made once."""
    if how == "brown":
        brown = _church_brown()
        text = w.m("label.church", member=number, paid=w.cubes(brown))
        return option(f"church-{index}-brown", text, member=index, pay="brown", cost=brown)
    text = w.m("label.church", member=number, paid=w.time(data.rules()["church"]["time"]))
    return option(f"church-{index}-time", text, member=index, pay="time")


STEPS = (Harvest(), Family(), Crafts(), Council(), Privilege(), Travel(), Reward(), Church())
ACTIONS = ("harvest", "family", "crafts", "market", "travel", "council", "church")
