"""Category predictor (endpoint 27): a model learned by one process is written to a file that the
machine's next process reads instead of learning it again from every listing (a new gunicorn
worker, started after GUNICORN_MAX_REQUESTS, made its first caller wait for that). Keyed by the
catalog version; a folder others may open, or a file that does not load, is never trusted."""
import logging
import marshal
import os

import pytest

from app.log_throttle import WARNING_INTERVAL_S, Throttle
from app.services.catalog import model_files, predictor
from tests.bundles import SELLER, item
from tests.catalog.test_predictor import predictor_bundle, top
from tests.helpers import Clock


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture(autouse=True)
def folder(load_bundle, monkeypatch, tmp_path, clock):
    load_bundle(predictor_bundle())
    path = str(tmp_path / "models")
    monkeypatch.setattr(model_files, "folder", lambda: path)
    monkeypatch.setattr(model_files, "_warnings", Throttle(clock=clock))
    monkeypatch.setattr(predictor, "_cache", {})
    return path


@pytest.fixture
def learned(monkeypatch):
    """The sites each call of predictor.learn learned, in order."""
    sites, learn = [], predictor.learn

    def counting(site_id):
        sites.append(site_id)
        return learn(site_id)
    monkeypatch.setattr(predictor, "learn", counting)
    return sites


def new_process():
    predictor._cache.clear()


def files(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def test_the_next_process_reads_the_model_the_first_one_learned(client, folder, learned):
    first = top(client, "Zapatillas deportivas para correr")
    assert learned == ["MLA"] and len(files(folder)) == 1 and files(folder)[0].startswith("MLA.")
    assert os.stat(folder).st_mode & 0o777 == 0o700
    new_process()
    assert top(client, "Zapatillas deportivas para correr") == first == "MLA-SNEAKERS"
    assert top(client, "remera") == "MLA-T_SHIRTS" and top(client, "jean") == "MLA-PANTS"
    assert learned == ["MLA"]  # read, not learned again


def test_a_model_read_from_its_file_ranks_as_the_learned_one(run_db):
    learned = run_db(predictor.site_model, "MLA")
    new_process()
    read = run_db(predictor.site_model, "MLA")
    assert read is not learned
    for text in ("Zapatillas deportivas", "remera algodon", "mochila urbana", "jean azul", "nada que ver"):
        assert read.rank(text) == learned.rank(text)


def test_an_import_is_learned_anew_and_replaces_the_sites_older_file(client, folder, learned, load_bundle):
    top(client, "Zapatillas")
    before = files(folder)
    load_bundle({"items": [item("MLA990", "MLA7777", "MLA-BACKPACKS", seller=SELLER, title="Kanaloa urbana")]})
    new_process()
    assert top(client, "Kanaloa") == "MLA-BACKPACKS"
    assert learned == ["MLA", "MLA"]
    after = files(folder)
    assert len(after) == 1 and after != before


def test_a_folder_that_others_may_open_is_not_used(client, folder, learned, caplog):
    os.makedirs(folder)
    os.chmod(folder, 0o777)
    top(client, "Zapatillas")
    new_process()
    assert top(client, "Zapatillas") == "MLA-SNEAKERS"
    assert learned == ["MLA", "MLA"] and files(folder) == []
    assert "must be a folder of this user's that no one else may open" in caplog.text


@pytest.mark.parametrize("content", [b"not marshal data", marshal.dumps(42), marshal.dumps((1, 2, 3, 4))])
def test_a_file_that_does_not_load_is_learned_again_and_rewritten(client, folder, learned, content):
    top(client, "Zapatillas")
    (name,) = files(folder)
    with open(os.path.join(folder, name), "wb") as f:
        f.write(content)
    new_process()
    assert top(client, "Zapatillas") == "MLA-SNEAKERS"
    assert learned == ["MLA", "MLA"]
    new_process()
    assert top(client, "remera") == "MLA-T_SHIRTS" and learned == ["MLA", "MLA"]  # the rewritten file loads


def test_a_folder_that_cannot_be_made_leaves_the_predictor_learning(client, folder, learned, caplog, clock):
    caplog.set_level(logging.WARNING)
    with open(folder, "w") as f:  # a file where the folder should be
        f.write("")
    assert top(client, "Zapatillas") == "MLA-SNEAKERS"
    new_process()
    assert top(client, "Zapatillas") == "MLA-SNEAKERS"
    assert learned == ["MLA", "MLA"]
    assert caplog.text.count("category predictor:") == 1  # warned once a minute, not once a process
    clock.now += WARNING_INTERVAL_S  # a fault that lasts is told again
    new_process()
    assert top(client, "Zapatillas") == "MLA-SNEAKERS"
    assert caplog.text.count("category predictor:") == 2 and learned == ["MLA", "MLA", "MLA"]


def test_saves_that_overlap_in_one_process_each_write_a_whole_file_without_a_warning(folder, monkeypatch, caplog):
    """Two threads of one process (a threaded server) may save the same model at once: the second
    save starts while the first is writing."""
    caplog.set_level(logging.WARNING)
    dump, saves = marshal.dump, []

    def overlapping_dump(state, f):
        saves.append(state)
        if len(saves) == 1:
            model_files.save("MLA", "v1", ("inner",))
        dump(state, f)

    monkeypatch.setattr(marshal, "dump", overlapping_dump)
    model_files.save("MLA", "v1", ("outer",))
    assert saves == [("outer",), ("inner",)]
    assert model_files.load("MLA", "v1") == ("outer",) and "category predictor:" not in caplog.text
    assert files(folder) == [f"MLA.v1.{model_files.FORMAT}.marshal"]  # no temporary file left behind


def test_an_older_file_another_process_removed_first_is_no_failure(folder, monkeypatch, caplog):
    caplog.set_level(logging.WARNING)
    model_files.save("MLA", "v1", ("old",))
    listdir = os.listdir

    def listed_then_removed(path):  # another process prunes the same file between the listing and the unlink
        names = listdir(path)
        for name in names:
            if ".v1." in name:
                os.unlink(os.path.join(path, name))
        return names

    monkeypatch.setattr(model_files.os, "listdir", listed_then_removed)
    model_files.save("MLA", "v2", ("new",))
    assert model_files.load("MLA", "v2") == ("new",) and "category predictor:" not in caplog.text
