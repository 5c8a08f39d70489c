"""Tie-break 2 as `/tournament rules` states it: the average share of the table winner's
score, the winner being the best-ranked seat played to the end by its player; a seat the AI
played for someone who left never sets it, however high its score."""

from __future__ import annotations

from meeple_hall.bot.standings import TableResult, standings


def test_the_share_is_of_the_winners_score_not_of_the_top_score():
    # The game's ranks put the winner first on a tie-break with a lower score than the
    # AI-played seat, which ranks last (it was played out).
    result = TableResult(
        1, (1, 2, 3), ranks=(1, 2, 3), scores=(40, 30, 60), played_out=(False, False, True)
    )
    assert result.winner_score() == 40
    ranked = {s.user_id: s for s in standings([1, 2, 3], [result], {})}
    assert ranked[1].winner_share == 1.0
    assert ranked[2].winner_share == 0.75
    assert ranked[3].winner_share == 1.5


def test_tied_winners_set_the_share_by_the_best_of_their_scores():
    result = TableResult(1, (1, 2, 3), ranks=(1, 1, 3), scores=(50, 48, 25))
    assert result.winner_score() == 50
    ranked = {s.user_id: s for s in standings([1, 2, 3], [result], {})}
    assert (ranked[1].winner_share, ranked[2].winner_share, ranked[3].winner_share) == (
        1.0,
        0.96,
        0.5,
    )


def test_a_table_the_ai_played_all_of_still_has_a_winner():
    result = TableResult(1, (1, 2), ranks=(2, 1), scores=(10, 20), played_out=(True, True))
    assert result.winner_score() == 20


def test_the_shares_are_averaged_over_a_players_games():
    first = TableResult(1, (1, 2), ranks=(1, 2), scores=(20, 10))
    second = TableResult(2, (1, 2), ranks=(2, 1), scores=(30, 40), played_out=(False, False))
    ranked = {s.user_id: s for s in standings([1, 2], [first, second], {})}
    assert ranked[1].winner_share == round((1.0 + 0.75) / 2, 4)
    assert ranked[2].winner_share == round((0.5 + 1.0) / 2, 4)
