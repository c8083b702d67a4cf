"""Which tables a large import analyses on PostgreSQL: those it wrote and grew by a quarter or more."""
import app.services.bundle as bundle


class RecordingDb:
    def __init__(self):
        self.statements = []

    def execute_sql(self, sql, params=None):
        self.statements.append(sql)


def analysed(monkeypatch, sections, estimates):
    fake = RecordingDb()
    monkeypatch.setattr(bundle, "db", fake)
    monkeypatch.setattr(bundle, "is_postgres", lambda: True)
    monkeypatch.setattr(bundle, "stored_rows_estimate", lambda table: estimates.get(table, 0))
    bundle._analyze_after_bulk_load(sections)
    return fake.statements


def test_a_chunk_that_grows_a_large_table_little_does_not_sample_it_again(monkeypatch):
    chunk = {"compatibilities": [{}] * 100_000}
    assert analysed(monkeypatch, chunk, {"compatibility": 300_000, "compatibility_change": 300_000}) == [
        'ANALYZE "item", "compatibility", "compatibility_change"']
    assert analysed(monkeypatch, chunk, {"compatibility": 500_000, "compatibility_change": 500_000}) == [
        'ANALYZE "item"']
    assert analysed(monkeypatch, chunk, {"compatibility": 900_000, "compatibility_change": 900_000,
                                         "item": 1_000_000}) == []


def test_small_imports_analyse_nothing(monkeypatch):
    assert analysed(monkeypatch, {"compatibilities": [{}] * 10}, {}) == []
