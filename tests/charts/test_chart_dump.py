"""Charts are dumped through DirectAccess (schemas/common.py), search results (endpoint 25) and
whole charts alike: the same answer as marshmallow's own dump of ChartSchema."""
from app.models import Chart
from app.services import charts
from app.services.charts.reads import chart_rows, with_rows
from schemas.chart_sheets import ValueSchema
from schemas.charts import ChartAttributeSchema, ChartRowSchema, ChartSchema
from tests.bundles import SELLER
from tests.charts_data import charts_bundle
from tests.helpers import marshmallow_dump

MEN_ADIDAS = [{"id": "GENDER", "values": [{"name": "Hombre"}]}, {"id": "BRAND", "values": [{"name": "adidas"}]}]
DIRECT = (ChartSchema, ChartAttributeSchema, ChartRowSchema, ValueSchema)


def test_search_results_and_whole_charts_dump_as_marshmallow_dumps_them(load_bundle, run_db):
    load_bundle(charts_bundle())

    def dumps():
        body = {"domain_id": "SNEAKERS", "site_id": "MLA", "seller_id": SELLER, "attributes": MEN_ADIDAS}
        found = charts.search_charts(SELLER, body, None, 0, 50).items
        whole = [with_rows(chart, chart_rows(chart)) for chart in Chart.select().order_by(Chart.id)]
        return [(ChartSchema(many=True).dump(group), marshmallow_dump(ChartSchema(many=True), group, DIRECT))
                for group in (found, whole)]

    (found, found_generic), (whole, whole_generic) = run_db(dumps)
    assert len(found) > 2 and found == found_generic
    assert all(chart["rows"] == [] and chart["attributes"] for chart in found)
    assert len(whole) > len(found) and whole == whole_generic
    assert any(chart["rows"] and chart["rows"][0]["attributes"] for chart in whole)
