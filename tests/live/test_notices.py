"""The watcher wakes when the file system tells of a save, looks at the files on every wake, and never follows a
link out of the project to watch it."""
import os
import threading

import pytest

from pnpgen.live import notices
from pnpgen.live.notices import MOST_FOLDERS, Saves, folders_of
from pnpgen.live.watch import wait_for_change

LONG = 60.0  # an interval no wake in these tests waits for: a wake that came from it would fail the test by its kind


def test_a_save_in_a_watched_folder_is_told_and_a_first_look_is_due_at_once(tmp_path):
    (tmp_path / "templates").mkdir()
    stop = threading.Event()
    with Saves([tmp_path, tmp_path / "templates"], stop, LONG) as saves:
        assert saves.notices is not None, "watchfiles gives no notices here"
        assert saves.wait() is False  # the first look, before any save
        (tmp_path / "templates" / "front.svg.j2").write_text("<svg/>", encoding="utf-8")
        assert saves.wait() is True
        saving = tmp_path / ".cards.yaml.saving"  # an editor that renames its new file over the old one
        saving.write_text("games: []\n", encoding="utf-8")
        os.replace(saving, tmp_path / "cards.yaml")
        assert saves.wait() is True
        stop.set()
        assert saves.wait() is None


def test_without_notices_every_wake_is_a_look(tmp_path, monkeypatch):
    monkeypatch.setattr(notices, "open_notices", lambda folders: None)
    stop = threading.Event()
    with Saves([tmp_path], stop, 0.001) as saves:
        assert [saves.wait(), saves.wait(), saves.wait(soon=True)] == [False, False, False]
        stop.set()
        assert saves.wait() is None


def test_folders_are_those_of_the_files_inside_the_project(tmp_path):
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / "templates" / "icons").mkdir(parents=True)
    elsewhere.mkdir()
    (project / "linked").symlink_to(elsewhere, target_is_directory=True)
    names = ["cards.yaml", "templates/front.svg.j2", "templates/icons/star.svg", "linked/spy.svg", "gone/x.csv"]
    assert folders_of(project, names) == [project, project / "templates", project / "templates" / "icons"]


def test_folders_are_bounded_nearest_the_top_first(tmp_path):
    names = []
    for n in range(MOST_FOLDERS + 5):
        (tmp_path / "images" / f"set{n:04d}").mkdir(parents=True)
        names.append(f"images/set{n:04d}/card.png")
    folders = folders_of(tmp_path, [*names, "images/cover.png"])
    assert len(folders) == MOST_FOLDERS
    assert folders[:2] == [tmp_path, tmp_path / "images"]


class Told:
    """Saves whose wakes are given: each True (told of a save) or False (a look is due); None once they end."""

    def __init__(self, *wakes):
        self.wakes, self.soon = list(wakes), []

    def wait(self, soon=False):
        self.soon.append(soon)
        return self.wakes.pop(0) if self.wakes else None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        pass


def looks(*states):
    states = list(states)
    return lambda: states.pop(0)


@pytest.mark.parametrize("told", [True, False])
def test_an_unchanged_look_waits_on(told):
    assert wait_for_change({"a": 1}, looks({"a": 1}, {"a": 1}), Told(told, told)) is None


def test_a_change_told_of_is_built_at_once():
    assert wait_for_change({"a": 1}, looks({"a": 2}), Told(True)) == {"a": 2}


def test_a_change_a_look_found_is_built_once_a_second_look_soon_after_sees_it_still():
    saves = Told(False, False, False)
    assert wait_for_change({"a": 1}, looks({"a": 2}, {"a": 3}, {"a": 3}), saves) == {"a": 3}
    assert saves.soon == [False, True, True]


def test_a_change_undone_before_it_settled_is_no_change():
    saves = Told(False, False, False)
    assert wait_for_change({"a": 1}, looks({"a": 2}, {"a": 1}, {"a": 1}), saves) is None
    assert saves.soon == [False, True, False, False]
