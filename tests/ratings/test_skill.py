"""The ratings module against OpenSkill's own Plackett–Luce numbers, and the rating shown."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from ginnyo.ratings.skill import NEWCOMER, Skill, display_rating, rate_match, rate_order, skill_of_rating


def test_a_match_moves_the_skills_as_openskill_does() -> None:
    model = PlackettLuce()
    [[winner], [loser]] = model.rate([[model.rating(mu=25, sigma=25 / 3)], [model.rating(mu=30, sigma=7)]])
    won, lost = rate_match(NEWCOMER, Skill(30, 7))
    assert (won.mu, won.sigma, lost.mu, lost.sigma) == pytest.approx((winner.mu, winner.sigma, loser.mu, loser.sigma))


def test_an_order_of_four_is_rated_as_openskill_ranks_it() -> None:
    skills = [Skill(25, 8), Skill(28, 6), Skill(20, 5), Skill(31, 4)]
    model = PlackettLuce()
    rated = model.rate([[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills], ranks=[1, 2, 3, 4])
    ours = [number for skill in rate_order(skills) for number in (skill.mu, skill.sigma)]
    assert ours == pytest.approx([number for team in rated for number in (team[0].mu, team[0].sigma)])


def test_the_winner_gains_and_the_loser_loses() -> None:
    won, lost = rate_match(NEWCOMER, NEWCOMER)
    assert display_rating(won) > display_rating(NEWCOMER) > display_rating(lost)


@pytest.mark.parametrize("count", [1, 7])
def test_an_order_of_fewer_than_two_or_more_than_six_is_refused(count: int) -> None:
    with pytest.raises(ValueError, match="2 to 6"):
        rate_order([NEWCOMER] * count)


def test_a_newcomer_shows_1500_and_a_puzzles_rating_reads_back() -> None:
    assert display_rating(NEWCOMER) == 1500
    assert [display_rating(skill_of_rating(rating)) for rating in (1500, 1700, 2000)] == [1500, 1700, 2000]
