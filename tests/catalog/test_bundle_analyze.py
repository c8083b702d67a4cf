"""Which tables a large import analyses on PostgreSQL: those it wrote and grew by a quarter or more;
the VACUUM after a large product load samples only the rest of its tables."""
import app.services.bundle.pipeline as bundle


class RecordingDb:
    def __init__(self):
        self.statements = []

    def execute_sql(self, sql, params=None):
        self.statements.append(sql)


def analysed(monkeypatch, sections, estimates, refreshed_items=None):
    fake = RecordingDb()
    monkeypatch.setattr(bundle, "db", fake)
    monkeypatch.setattr(bundle, "is_postgres", lambda: True)
    monkeypatch.setattr(bundle, "stored_rows_estimate", lambda table: estimates.get(table, 0))
    bundle._analyze_after_bulk_load(sections, refreshed_items)
    return fake.statements


def test_a_chunk_that_grows_a_large_table_little_does_not_sample_it_again(monkeypatch):
    chunk = {"compatibilities": [{}] * 100_000}
    assert analysed(monkeypatch, chunk, {"compatibility": 300_000, "compatibility_change": 300_000}) == [
        'ANALYZE "item", "compatibility", "compatibility_change"']
    assert analysed(monkeypatch, chunk, {"compatibility": 500_000, "compatibility_change": 500_000}) == [
        'ANALYZE "item"']
    assert analysed(monkeypatch, chunk, {"compatibility": 900_000, "compatibility_change": 900_000,
                                         "item": 1_000_000}) == []


def test_items_whose_state_a_chunk_refreshed_count_as_the_rows_it_changed(monkeypatch):
    chunk = {"compatibilities": [{}] * 100_000}
    items = {f"MLA{n}" for n in range(500)}
    large = {"compatibility": 900_000, "compatibility_change": 900_000}
    # 500 of 10,000 items changed: not sampled again, however many compatibilities came.
    assert analysed(monkeypatch, chunk, {**large, "item": 10_000}, items) == []
    # 500 of 1,500 changed: a third of the table, sampled again.
    assert analysed(monkeypatch, chunk, {**large, "item": 1_500}, items) == ['ANALYZE "item"']
    # An items section writes the items themselves: they count as the records loaded.
    with_items = {**chunk, "items": [{}] * 500}
    assert analysed(monkeypatch, with_items, {**large, "item": 10_000}, items) == ['ANALYZE "item"']


def test_small_imports_analyse_nothing(monkeypatch):
    assert analysed(monkeypatch, {"compatibilities": [{}] * 10}, {}) == []


def test_the_vacuum_after_a_product_load_samples_only_what_the_transaction_did_not(monkeypatch):
    fake = RecordingDb()
    fake.in_transaction = lambda: False
    monkeypatch.setattr(bundle, "db", fake)
    monkeypatch.setattr(bundle, "is_postgres", lambda: True)
    products = {"products": [{}] * 100_000}
    bundle._vacuum_after_bulk_load(products, ["product", "finder_domain", "finder_facet", "finder_pair_facet"])
    assert fake.statements == ['VACUUM (ANALYZE) "product_attribute"',
                               'VACUUM "product", "finder_facet", "finder_pair_facet"']
    fake.statements.clear()
    bundle._vacuum_after_bulk_load(products)
    assert fake.statements == ['VACUUM (ANALYZE) "product", "product_attribute", "finder_facet", "finder_pair_facet"']
    fake.statements.clear()
    bundle._vacuum_after_bulk_load({"products": [{}] * 10})
    assert fake.statements == []
