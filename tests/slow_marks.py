"""The repetitions the default `pytest` leaves out (pyproject.toml: `-m "not slow"`).

In the tests that drive the bot through SimCord (ROTATED: a case costs seconds), a test
parametrised over the real games (a `game_id` or `game` parameter) keeps ONE of its
real-game cases in the default run: the first on the game it is assigned, in the language it
is assigned where it has a language parameter (`lang`, `language`, `locale`). Both are picked
from the test's name, so the tests spread over every game and language. Its other real-game
cases are marked `slow`; its cases on the test games (`pebbles`, `draft`) stay. A test that
repeats other parameters (player counts, seeds) keeps the case KEEP_ONE_CASE names. A test
repeated over the languages alone (no game parameter) keeps the cases in its assigned
language. Whole games played where another test covers the feature in the default run are
listed in ALL_SLOW, or in REAL_GAME_CASES_SLOW for their real-game cases only (or are marked
in their own module: `pytest.param(..., marks=pytest.mark.slow)`).

`pytest -m slow` runs what is left out, and .ci/run runs it after the default run. A name in
KEEP_ONE_CASE, ALL_SLOW or REAL_GAME_CASES_SLOW that no longer matches a collected test stops
the run, so a renamed test cannot fall back into the default run silently."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import pytest

from meeple_hall import games

ROTATED = ("tests/bot/", "tests/community/", "tests/simulation/", "tests/playground/")
GAME_PARAMETERS = ("game_id", "game")
LANGUAGE_PARAMETERS = ("lang", "language", "locale")
LANGUAGES = ("en", "zh-TW", "ja")

# "path::test name" -> the id of the case the default run keeps (what pytest shows in [...]).
KEEP_ONE_CASE = {
    # 17 whole games (every game at every count) with a save checked at every state: 3 min.
    "tests/games/test_saves.py::test_a_loaded_state_is_the_live_state_at_every_step": (
        "1-keyflower-2"
    ),
    # The language play (a whole game through the panels): Keyflower's is the shortest, about
    # 45 % of Coffee Traders' or Village's and 60 % of Burgundy's.
    "tests/bot/test_languages.py::test_a_game_to_its_final_scores_holds_no_english_word": (
        "keyflower-zh-TW-2"
    ),
    # The two-clicks measure's play (panels driven through whole games): Burgundy's is 21 s,
    # the others 2-3 s; Keyflower's folds are the newest.
    "tests/bot/test_folded_panels.py::test_the_most_frequent_moves_take_at_most_two_clicks": (
        "keyflower"
    ),
    # One way to stop the playground in the default run; SIGTERM in the slow part.
    "tests/playground/test_clean_stop.py::test_the_playground_stops_cleanly": "ctrl-c",
    # A Village action folded with what it brings, through the bot: the council step and its
    # privilege in the default run. A trip and its city's cubes is the same fold of the
    # action's panel, reached after about 200 random moves (made through the bot's move path
    # since session 14, 2-4 s; typed one at a time before, 15-26 s): in the slow part, in
    # every language.
    "tests/bot/test_two_clicks.py::test_a_village_action_and_what_it_brings_are_one_click": (
        "council-privilege-13-zh-TW"
    ),
}

# Whole tests left to the slow run, each with the default-run test that covers its feature.
ALL_SLOW = {
    (
        "tests/bot/test_keyflower_table.py::"
        "test_a_whole_game_ends_with_the_scores_and_their_breakdown"
    ): (
        "a whole game to the final scores and their categories: tests/bot/test_languages.py's "
        "play and test_coffee_table.py's game against André"
    ),
    (
        "tests/bot/test_burgundy_table.py::"
        "test_a_whole_game_against_an_ai_seat_ends_with_the_breakdown"
    ): ("the same, and a whole game typed through /move: test_coffee_table.py's"),
    "tests/bot/test_village_table.py::test_a_whole_game_with_an_ai_seat_ends_with_the_breakdown": (
        "a whole Village game to its final scores and breakdown: test_village_table.py's "
        "test_a_solo_game_against_karla_ends_with_the_achievement_title; against an AI seat: "
        "test_coffee_table.py's game against André"
    ),
    # Whole games played in a real Chromium (20-30 s each).
    "tests/playground/test_browser.py::test_a_person_plays_in_the_browser": (
        "the page in a real Chromium: tests/playground/test_menus.py (menus opened by real "
        "pointer events) and test_companion_fonts.py; the playground's companion and session: "
        "test_bad_requests.py and test_session.py"
    ),
    "tests/playground/test_reopen.py::test_reopening_the_page_mid_game_lands_at_the_latest_table": (
        "the same; the table found again after it scrolled away, in Discord: "
        "tests/bot/test_table_findable.py"
    ),
    # The simulator's seasons (minutes each): CI runs them in its slow part.
    "tests/simulation/test_season.py::test_a_short_season_keeps_every_invariant": (
        "the simulator's command and plants listed: the other tests of test_season.py"
    ),
    "tests/simulation/test_season.py::test_every_planted_bug_is_caught": "the same",
    "tests/simulation/test_season.py::test_a_season_replays_the_same": "the same",
}

# Tests whose every real-game case is left to the slow run (their test-game case stays), each
# with the default-run test that plays the feature on a real game.
REAL_GAME_CASES_SLOW = {
    "tests/bot/test_tournament.py::test_a_two_round_swiss_of_seven": (
        "a real game's tournament to its end: test_tournament_formats.py's "
        "test_a_real_game_played_to_the_end_of_its_tournament_through_move"
    ),
    (
        "tests/bot/test_tournament_formats.py::"
        "test_a_round_robin_of_five_at_tables_of_three_to_its_end"
    ): "the same",
    (
        "tests/bot/test_tournament.py::"
        "test_an_earlier_tournament_is_reached_by_number_or_name_on_its_server_only"
    ): "the same (a tournament is found by number or name whatever its game)",
    (
        "tests/bot/test_tournament_formats.py::"
        "test_an_elimination_of_six_at_tables_of_three_down_to_one_final_table"
    ): "the same",
    (
        "tests/bot/test_tournament_drop.py::"
        "test_a_drop_mid_game_hands_the_seat_to_the_ai_ranks_last_and_ends_the_pairings"
    ): "a dropped seat in a real game: test_a_dropped_seat_in_a_real_game_is_played_by_the_good_ai",
    (
        "tests/bot/test_tournament_drop.py::"
        "test_a_drop_while_the_next_round_opens_hands_the_new_seat_over_at_once"
    ): "the same",
    # Whole tournaments through restarts (30-45 s a real game).
    (
        "tests/bot/test_tournament_restarts.py::"
        "test_a_round_robin_keeps_its_schedule_through_a_restart_after_a_removal"
    ): (
        "a real game's tournament through a restart: test_tournament_events.py's "
        "test_a_check_in_window_and_a_deadline_survive_a_restart"
    ),
    (
        "tests/bot/test_tournament_restarts.py::"
        "test_stopped_before_the_standings_post_it_is_sent_after_the_restart"
    ): "the same",
    (
        "tests/bot/test_tournament_restarts.py::"
        "test_stopped_after_the_post_before_its_step_is_stored_nothing_is_sent_twice"
    ): "the same",
    (
        "tests/bot/test_tournament_restarts.py::"
        "test_a_standings_post_discord_fails_is_sent_later_without_a_restart"
    ): (
        "a real game's round closed and the next one paired: test_tournament_formats.py's "
        "test_a_real_game_played_to_the_end_of_its_tournament_through_move (the step tried "
        "again is the tournament's, whatever the game)"
    ),
    (
        "tests/bot/test_tournament_restarts.py::"
        "test_a_round_robin_started_before_schedules_were_stored_gets_its_own_once"
    ): "the same (a round-robin's schedule is the tournament's, whatever the game)",
    # Bot processes on one PostgreSQL database route by guild, whatever the game: the test
    # game shows it; each real game's case starts two more processes.
    "tests/bot/test_shards.py::test_each_shard_process_serves_only_its_own_guilds_tables": (
        "a real game through two processes: test_a_panel_still_valid_after_another_process_"
        "moved_is_taken[keyflower]"
    ),
    (
        "tests/bot/test_shards.py::test_what_a_player_changes_through_one_process_the_others_follow"
    ): "the same",
    "tests/bot/test_shards.py::test_a_bot_process_killed_mid_game_loses_no_move": "the same",
    # Whole real games played out by the AI or typed through /move (5-8 s each), where the
    # test-game case shows the feature and another default test plays the real game.
    (
        "tests/bot/test_abandon.py::"
        "test_a_request_nobody_is_left_to_answer_is_closed_and_the_ai_plays_on"
    ): (
        "the request closed: its test-game case; a real game played out by the AI once its "
        "players resign: test_abandon.py's "
        "test_alone_at_a_rated_game_the_host_resigns_and_the_ai_plays_it_out"
    ),
    ("tests/bot/test_tournament_events.py::test_a_passed_deadline_has_the_ai_play_out_the_round"): (
        "the deadline, the AI's play-out, the podium and the export: its test-game case; a real "
        "game's tournament seat played by the AI: test_tournament_drop.py's "
        "test_a_dropped_seat_in_a_real_game_is_played_by_the_good_ai; a real game's tournament "
        "to its end: test_tournament_formats.py's "
        "test_a_real_game_played_to_the_end_of_its_tournament_through_move"
    ),
    (
        "tests/bot/test_tournament_formats.py::"
        "test_an_abandoned_elimination_table_is_settled_by_its_scores_at_that_moment"
    ): (
        "the settling: its test-game case; each real game's points at any moment: "
        "tests/ai/test_evaluate.py; a real game's tournament to its end: "
        "test_a_real_game_played_to_the_end_of_its_tournament_through_move"
    ),
}


def real_games() -> list[str]:
    """The games of `games.ids()` that Meeple Hall ships (not the tests' own test games)."""
    return [
        game_id
        for game_id in games.ids()
        if type(games.get(game_id)).__module__.startswith("meeple_hall.games.")
    ]


def assigned(name: str, choices: Sequence[str]) -> str:
    return choices[zlib.crc32(name.encode()) % len(choices)]


def parameter(item: pytest.Item, names: Sequence[str]) -> object:
    params = item.callspec.params if hasattr(item, "callspec") else {}
    return next((params[name] for name in names if name in params), None)


def kept_real_game_case(test: str, cases: list[pytest.Item]) -> pytest.Item:
    """Of a test's real-game cases, the one the default run keeps."""
    game = assigned(test, real_games())
    language = assigned(test, LANGUAGES)
    on_game = [case for case in cases if parameter(case, GAME_PARAMETERS) == game] or cases
    in_language = [
        case for case in on_game if parameter(case, LANGUAGE_PARAMETERS) in (None, language)
    ]
    return (in_language or on_game)[0]


def name_of(item: pytest.Item) -> str:
    return item.nodeid.split("[", 1)[0]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    real = set(real_games())
    on_real_games: dict[str, list[pytest.Item]] = {}
    named: dict[str, list[pytest.Item]] = {}
    for item in items:
        test = name_of(item)
        if test in ALL_SLOW:
            mark_slow([item])
        elif test in KEEP_ONE_CASE:
            named.setdefault(test, []).append(item)
        elif item.nodeid.startswith(ROTATED) and parameter(item, GAME_PARAMETERS) in real:
            on_real_games.setdefault(test, []).append(item)
        elif item.nodeid.startswith(ROTATED) and parameter(item, GAME_PARAMETERS) is None:
            language = parameter(item, LANGUAGE_PARAMETERS)
            if language in LANGUAGES and language != assigned(test, LANGUAGES):
                mark_slow([item])
    for test, cases in on_real_games.items():
        kept = None if test in REAL_GAME_CASES_SLOW else kept_real_game_case(test, cases)
        mark_slow([case for case in cases if case is not kept])
    for test, cases in named.items():
        mark_slow([case for case in cases if case.callspec.id != KEEP_ONE_CASE[test]])
    if not any("::" in arg for arg in config.args):  # whole files: every case was collected
        check_the_names(items, named)


def mark_slow(items: list[pytest.Item]) -> None:
    for item in items:
        item.add_marker(pytest.mark.slow)


def check_the_names(items: list[pytest.Item], named: dict[str, list[pytest.Item]]) -> None:
    files = {item.nodeid.split("::", 1)[0] for item in items}
    tests = {name_of(item) for item in items}
    for test in (*ALL_SLOW, *REAL_GAME_CASES_SLOW):
        if test.split("::", 1)[0] in files and test not in tests:
            raise pytest.UsageError(f"tests/slow_marks.py names {test}, which is not a test")
    for test, keep in KEEP_ONE_CASE.items():
        if test.split("::", 1)[0] not in files:
            continue
        ids = [item.callspec.id for item in named.get(test, [])]
        if keep not in ids:
            raise pytest.UsageError(f"tests/slow_marks.py keeps {test}[{keep}], not in {ids}")
