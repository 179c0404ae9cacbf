"""A run's budget (steps, time, output in all) stops it with the spender that spent the most, wherever it spent."""
import os

import pytest

from pnpgen.errors import Location, PnpError
from pnpgen.templating import limits, run_budget
from pnpgen.templating.run_budget import Limits, RunBudget, RunOutOfBudget, Spender, whole_run
from pnpgen.templating.sandbox import make_environment

DECK = Spender("templates/front.svg.j2 for component g/deck", Location("cards.yaml", 8, 9))
BACK = Spender("templates/back.svg.j2 for component g/deck", Location("cards.yaml", 8, 9))


class Clock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_steps_past_the_limit_stop_the_run_naming_the_spender_that_spent_the_most():
    run = RunBudget("build", Limits(steps=1000))
    run.charge(BACK, steps=300)
    run.charge(DECK, steps=350)
    run.charge(DECK, steps=350)  # 1000 in all: at the limit, not past it
    with pytest.raises(RunOutOfBudget) as raised:
        run.charge(BACK, steps=1)
    assert str(raised.value) == (
        "cards.yaml:8:9: the build used more than 1,000 template steps in all (loop iterations and calls; the limit "
        "for one run); most went to templates/front.svg.j2 for component g/deck (700 steps over 2 faces); expected "
        "templates that do bounded work")
    assert isinstance(raised.value, PnpError)


def test_output_past_the_limit_stops_the_run_and_a_pdf_is_named_without_a_count():
    run = RunBudget("build", Limits(output=5000))
    run.charge(DECK, output=2000)
    pdf = Spender("the PDF of component g/deck", Location("cards.yaml", 8, 9), "")
    with pytest.raises(RunOutOfBudget) as raised:
        run.charge(pdf, output=3001, count=0)
    assert str(raised.value) == (
        "cards.yaml:8:9: the build wrote more than 5,000 characters of SVG and PDF in all (the limit for one run); "
        "most went to the PDF of component g/deck (3,001 characters); expected faces of ordinary size")


def test_the_deadline_is_checked_as_faces_are_charged_with_the_time_each_took():
    clock = Clock()
    run = RunBudget("export", Limits(seconds=60), clock)
    clock.now += 25
    run.charge(BACK, seconds=5)
    clock.now += 35  # 60 s since the run began: at the deadline, not past it
    run.charge(DECK, seconds=35)
    clock.now += 0.5
    with pytest.raises(RunOutOfBudget) as raised:
        run.charge(DECK, seconds=0.5)
    assert str(raised.value) == (
        "cards.yaml:8:9: the export was still rendering and writing after 60 seconds (the limit for one run); most "
        "went to templates/front.svg.j2 for component g/deck (36 seconds over 2 faces); expected templates that do "
        "bounded work")


def test_renders_are_charged_to_the_run_going_on_with_their_steps_output_and_time():
    clock = Clock()
    env = make_environment()
    template = env.from_string("{% for i in range(10) %}<g/>{% endfor %}")
    with whole_run("check", Limits(steps=15), clock) as run:
        limits.render(template, {}, DECK)
        clock.now += 2  # a clock that moves between renders only: the first render took no time
        with pytest.raises(RunOutOfBudget) as raised:
            limits.render(template, {}, DECK)
    assert run.spent[DECK] == [22, 80, 0.0, 2]  # each render: ten iterations and the call of range(), 40 characters
    assert str(raised.value).startswith("cards.yaml:8:9: the check used more than 15 template steps in all")
    assert run_budget.current() is None
    assert limits.render(template, {}, DECK) == "<g/>" * 10  # outside a run nothing is charged


def test_a_run_inside_a_run_spends_from_the_outer_one():
    with whole_run("preview", Limits(steps=10)) as outer:
        with whole_run("build") as inner:
            assert inner is outer
            with pytest.raises(RunOutOfBudget, match="^cards.yaml:8:9: the preview used more than 10 "):
                run_budget.charge(DECK, steps=11)


def test_what_a_helper_spent_is_handed_back_and_counts_in_the_run():
    parent = RunBudget("build", Limits(steps=1000))
    parent.charge(DECK, steps=400)
    helper = RunBudget("build", Limits(steps=1000))  # as forked: it holds what the parent had spent
    helper.spent, helper.steps = {DECK: [400, 0, 0.0, 1]}, 400
    helper.start_share()
    helper.charge(DECK, steps=300, output=10)
    helper.charge(Spender("rules/r.md, the rulebook of game g", None, "rulebook"), steps=2)
    handed = helper.hand_over()
    parent.take(handed)
    assert parent.steps == 702
    assert parent.spent[DECK] == [700, 10, 0.0, 2]
    with pytest.raises(RunOutOfBudget, match=r"most went to templates/front.svg.j2 for component g/deck "
                                             r"\(1,000 steps over 3 faces\)"):
        parent.take(handed)  # as a second helper spending as much
    parent.take(None)  # a job run in this very process hands nothing back


def test_a_job_run_in_this_very_process_hands_back_nothing():
    ran = []
    with whole_run("build", Limits()) as run:
        assert run_budget.apart(lambda: ran.append(run_budget.charge(DECK, steps=5)))() is None
    assert ran == [None] and run.steps == 5 and run.share is None


@pytest.mark.parametrize("setting, expected", [
    ("", Limits()),
    ("steps=5000", Limits(steps=5000)),
    (" steps = 7 , output=9,seconds=30,", Limits(steps=7, seconds=30, output=9)),
])
def test_the_environment_may_set_other_limits(monkeypatch, setting, expected):
    monkeypatch.setenv(run_budget.LIMITS_VARIABLE, setting)
    assert run_budget.limits_from_environment() == expected


@pytest.mark.parametrize("setting", ["steps", "steps=0", "steps=-5", "time=60", "steps=1e9"])
def test_a_limit_the_environment_sets_must_be_a_whole_number_of_a_known_kind(monkeypatch, setting):
    monkeypatch.setenv(run_budget.LIMITS_VARIABLE, setting)
    with pytest.raises(PnpError) as raised:
        run_budget.limits_from_environment()
    assert str(raised.value) == (f"$PNPGEN_RUN_LIMITS is '{setting}'; expected limits such as steps=100000,"
                                 "seconds=600,output=50000000 (whole numbers above 0; any of steps, seconds and output)")
    assert os.environ[run_budget.LIMITS_VARIABLE] == setting
