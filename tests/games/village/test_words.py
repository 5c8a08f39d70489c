"""Village's words in every language (issue 13): the coin labels of issue 14, the log, the
status line and the names every language gives colours, goods and workshops."""

from __future__ import annotations

import re

from meeple_hall.games.core import Msg
from meeple_hall.games.core.catalogues import LANGUAGES, render, score_category
from meeple_hall.games.village import actions, data, death, engine, karla, mass
from meeple_hall.games.village import words as w
from tests.games.village.helpers import playout
from tests.games.village.test_rulebook_examples import at_turn, choose
from tests.games.village.test_rules import fresh


def labels(state, lang: str) -> dict[str, str]:
    return {o.id: render(lang, o.label, strict=True) for o in engine.decisions(state)[0].options}


def test_coin_labels_say_which_cube_a_coin_stands_in_for_in_every_language() -> None:
    state = at_turn(fresh(), 0, crafts=["pink", "green"])
    state.players[0].coins = 2
    state = choose(state, 0, "crafts-pink")
    zh, ja = labels(state, "zh-TW"), labels(state, "ja")
    assert zh["office-cubes-coins1"] == "抄寫室：花費 1 枚金幣換 1 個卷軸"
    assert zh["smithy-cubes"] == "鐵匠鋪：花費 1 個粉色 + 1 枚金幣換 1 個犁具"
    assert "2 枚金幣" in zh["smithy-cubes-coins2"]
    assert ja["office-cubes-coins1"] == "写字室：コイン1枚で巻物1個"
    # Solo: the next-start-player marker spent as the coin is named in every language.
    state.players[0].marker_coin = True
    zh, ja = labels(state, "zh-TW"), labels(state, "ja")
    assert "起始玩家標記" in zh["office-cubes-coins1"]
    assert "スタートプレイヤーマーカー" in ja["office-cubes-coins1"]
    for lang in LANGUAGES:
        assert all(len(label) <= 80 for label in labels(state, lang).values())


def test_the_log_and_the_status_are_messages_in_the_view() -> None:
    state = at_turn(fresh(), 0, harvest=["green"])
    state = choose(state, 0, "harvest-green")
    state = choose(state, 0, "harvest")
    view = engine.view(state, None)
    events = [Msg.from_json(e) for e in view["log"]]
    harvest = next(e for e in events if e.key == "village.log.harvests")
    assert render("en", harvest) == "Seat 1 harvests 2 grain."
    assert render("zh-TW", harvest) == "1 號玩家收穫 2 袋穀物。"
    assert render("ja", harvest) == "プレイヤー1が穀物を2個収穫した。"
    assert render("zh-TW", view["status"]).startswith("第 ")


def test_every_colour_good_and_workshop_has_its_own_name_in_each_language() -> None:
    names = [
        *(w.colour(c) for c in [*data.colours(), "black"]),
        *(w.good(g) for g in data.goods()),
        *(w.workshop(s) for s in data.rules()["workshops"]),
        *(w.city(c) for c in data.cities()),
    ]
    for lang in LANGUAGES:
        shown = [render(lang, name, strict=True) for name in names]
        assert len(set(shown)) == len(shown), (lang, shown)
    for name in names:
        assert render("en", name) not in (render("zh-TW", name), render("ja", name))


def test_the_final_scores_name_every_category_without_english() -> None:
    """The breakdown's categories (ids kept for stored results) as the final scores show
    them; the SimCord language tests stop before the end to stay fast."""
    for players, seed in ((1, 4), (3, 2)):
        *_, state = playout(players, seed)
        result = engine.result(state)
        assert result is not None
        for parts in result.breakdown:
            for category in parts:
                name = score_category("village", category)
                assert isinstance(name, Msg), category
                for lang in ("zh-TW", "ja"):
                    assert not re.search(r"[A-Za-z]{2,}", render(lang, name, strict=True))


def solo_with_marker(**spaces: list[str]):
    state = engine.new(1, seed=3, options={"karla": "standard"})
    state = at_turn(state, 0, **spaces)
    player = state.players[0]
    player.marker_coin, state.next_start = True, 0
    return state, player


def test_coins_are_written_where_the_cubes_are_paid_before_a_trips_reward() -> None:
    """A coin label reads as what leaves the farmyard: `1 pink + 1 coin + wagon + 2 time →
    1 coin`, not a coin clause after the city's reward (issue 14's play-through: `→ 1 coin,
    1 coin instead of 1 pink`), and never cut short on a button in any language."""
    state = at_turn(fresh(), 0, travel=["green"])
    player = state.players[0]
    player.cubes["pink"], player.coins, player.goods["wagon"] = 1, 2, 1
    state = choose(state, 0, "travel-green")
    en = labels(state, "en")
    assert en["go-west-0"] == "#1 travels to West: 1 pink + 1 coin + wagon + 2 time → 1 coin"
    assert en["go-north-0"] == "#1 travels to North: 2 coins + wagon + 2 time → 3 prestige"
    # Solo, the start marker held: the longest trips still fit a button everywhere.
    state, player = solo_with_marker(travel=["green"])
    player.coins, player.goods["wagon"] = 1, 1
    member = player.members[0]
    member.place, member.where = "travel", "capital"
    player.cities = ["north", "forest", "capital"]
    state = choose(state, 0, "travel-green")
    for lang in LANGUAGES:
        shown = labels(state, lang)
        assert all(len(label) <= 80 for label in shown.values()), (lang, shown)
    en = labels(state, "en")
    assert en["move-0-hill"] == (
        "#1 moves Capital → Hill: start marker + 1 coin + wagon + 2 time → 2 cubes"
    )
    assert en["go-north-1"] == (
        "#1 travels to North: start marker + 1 coin + wagon + 2 time (visited)"
    )


def test_a_paid_sale_pays_its_green_in_a_coin_in_the_brackets() -> None:
    state = at_turn(fresh(), 0, market=["orange"])
    state.stalls = ["c01", "c02", "c03", "", ""]
    state.players[1].grain, state.players[1].coins = 3, 1
    state = choose(state, 0, "market-orange")
    en = labels(state, "en")
    assert en["serve-c02"] == "Serve for 3 prestige: 3 grain (+ 1 coin + 1 time)"
    assert labels(state, "ja")["serve-c02"] == "名声3点の客に応対：穀物×3（＋コイン1枚＋1時間）"


def test_the_well_says_which_of_its_three_cubes_a_coin_pays() -> None:
    state = at_turn(fresh(), 0, harvest=["green"])
    state.players[0].cubes["brown"], state.players[0].coins = 2, 1
    en = labels(state, "en")
    assert en["well-brown-crafts"] == "Well: 2 brown + 1 coin for crafts"
    state, player = solo_with_marker(harvest=["green"])
    player.cubes["brown"] = 2
    assert labels(state, "en")["well-brown-crafts"] == (
        "Well: 2 brown + the start marker as a coin for crafts"
    )


def test_the_mass_log_names_whose_members_were_drawn() -> None:
    """`Drawn from the black bag: Seat 1's #2, Seat 2's #2, 2 monks.`: a player reading the
    log learns whose members came out, not only how many."""
    state = fresh()
    state.players[0].members[4].place = state.players[1].members[5].place = "bag"
    state.black_bag = ["0:4", "monk", "1:5", "monk"]
    mass.draw_rest(state)
    drawn = render("en", state.log[-1])
    assert drawn.startswith("Drawn from the black bag: ") and drawn.endswith(", 2 monks.")
    assert "Seat 1's #2" in drawn and "Seat 2's #2" in drawn
    assert "1 號玩家的 #2" in render("zh-TW", state.log[-1])


def test_karlas_death_says_where_she_lies_and_a_full_graveyard_says_so() -> None:
    state = engine.new(1, seed=3, options={"karla": "standard"})
    karla.dies(state, "council")
    assert render("en", state.log[-1]) == "Karla's #1 dies (cube from council): into the chronicle."
    karla.dies(state, "market")
    assert render("en", state.log[-1]) == "Karla's #1 dies (cube from market): into a grave."
    # The last grave taken ends the game, and the log says it was the graves.
    state = fresh()
    state.graves = ["x" if g == "x" else "1" for g in state.graves]
    state.graves[state.graves.index("1")] = ""
    state.chronicle["farm"] = ["1" if s != "x" else "x" for s in state.chronicle["farm"]]
    member = state.players[0].members[0]
    death.die(state, 0, 0)
    assert member.place == "grave" and state.ending
    assert render("en", state.log[-2]) == "The last grave is taken: the game is ending."


def test_the_status_line_says_what_happened_last() -> None:
    """The table's status names the latest event: what the player before did, and in solo
    Karla's cube, which she takes without anyone being asked."""
    state = at_turn(fresh(), 0, harvest=["green"], family=["brown"])
    state.log.append(w.m("log.round", n=1))
    assert render("en", engine.view(state, None)["status"]) == "Round 1"
    state = choose(state, 0, "harvest-green")
    state = choose(state, 0, "harvest")
    status = engine.view(state, None)["status"]
    assert render("en", status) == "Round 1 · Seat 1 harvests 2 grain."
    assert render("ja", status) == "ラウンド1・プレイヤー1が穀物を2個収穫した。"
    solo = engine.new(1, seed=3, options={"karla": "standard"})
    solo = at_turn(solo, 0, harvest=["green", "green"], family=["brown"])
    solo = choose(solo, 0, "harvest-green")
    solo = choose(solo, 0, "skip")
    assert render("en", engine.view(solo, None)["status"]).endswith(
        "Karla takes green from harvest."
    )


def test_karlas_question_says_why_the_player_chooses_her_cube() -> None:
    """BB solo: she takes the colour the player took, from the same space or the next
    one clockwise; only when none is left does the player choose, from that space."""
    state = engine.new(1, seed=3, options={"karla": "standard"})
    two = ["brown", "black"]
    spaces = {s: two for s in data.spaces() if s not in ("harvest", "market")}
    state = at_turn(state, 0, harvest=["pink"], **spaces)
    state = choose(state, 0, "harvest-pink")
    state = choose(state, 0, "skip")
    (decision,) = engine.decisions(state)
    assert decision.kind == "karla"
    space = render("en", w.space(state.stack[-1].space))
    assert render("en", decision.prompt) == (
        f"Karla's turn: no pink is left on the board, so choose her cube from {space}"
    )
    for lang in LANGUAGES:
        assert render(lang, decision.prompt, strict=True)


def test_a_death_is_asked_with_the_quill_the_picture_and_the_big_box_show() -> None:
    # The English base rulebook's "bridge" is the Big Box's quill, drawn on every track.
    from meeple_hall.games.village.death import Death
    from meeple_hall.games.village.state import Frame

    assert "quill" in render("en", Death().prompt(fresh(), Frame("die", 0)))


def test_solo_labels_name_the_start_marker_as_the_coin_it_is() -> None:
    """Solo (BB): the player always starts, so the council's first privilege gives a coin
    for the round; while it is held, a coin paid for 3 prestige or a buy-out at the mass is
    the marker (economy.pay_coins spends it first)."""
    from meeple_hall.games.village.state import Frame

    state = engine.new(1, seed=3, options={"karla": "standard"})
    player = state.players[0]
    for member in player.members[:1]:
        member.place, member.stage = "council", 4
    options = {
        o.id: render("en", o.label)
        for o in actions.Privilege().choices(state, Frame("privilege", 0, data=["4"]))
    }
    assert options["p1"] == "Take the start marker (a coin to spend this round)"
    assert options["p4"] == "Pay 1 coin for 3 prestige"
    player.marker_coin, state.next_start = True, 0
    options = {
        o.id: render("en", o.label)
        for o in actions.Privilege().choices(state, Frame("privilege", 0, data=["4"]))
    }
    assert options["p4"] == "Pay the start marker as a coin for 3 prestige"
    player.members[5].place = "bag"
    state.black_bag = ["0:5", "monk"]
    bought = {o.id: render("en", o.label) for o in mass.BuyOut().choices(state, Frame("buy", 0))}
    assert bought["buy-5"] == "Buy #2 out of the black bag (the start marker as a coin)"
    # With more players the marker is only the next start player's.
    two = fresh()
    assert render(
        "en", actions.Privilege().choices(two, Frame("privilege", 0, data=["1"]))[0].label
    ) == ("Take the next start marker")
