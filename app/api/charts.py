"""Size charts (endpoints 22 to 26) and chart management"""
from flask import g
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import charts
from schemas.chart_sheets import ChartSheetQuerySchema, ChartSheetRequestSchema, TechnicalSheetSchema
from schemas.charts import (
    ChartCreateSchema,
    ChartDeletedSchema,
    ChartDomainsSearchSchema,
    ChartRenameSchema,
    ChartRowSchema,
    ChartSchema,
    ChartSearchHeadersSchema,
    ChartSearchResultSchema,
    ChartSearchSchema,
    DomainListSchema,
    RowInputSchema,
)
from schemas.common import PagingQuerySchema
from schemas.examples import chart_sheets as sheets
from schemas.examples import charts as examples

blp = Blueprint("charts", __name__, description="Size charts (endpoints 22 to 26) and chart management")


@blp.route("/catalog/charts/<site_id>/configurations/active_domains")
class ChartActiveDomains(MethodView):
    @blp.read(DomainListSchema, "config_not_found", reads="replica", example=examples.ACTIVE_DOMAINS)
    def get(self, site_id):
        """List the domains active for size charts in a site

        Endpoint 22. Site-prefixed domain ids; a site without any answers not found.
        """
        return charts.active_domains(site_id)


@blp.route("/domains/<domain_id>/technical_specs")
class DomainTechnicalSpecs(MethodView):
    @blp.read(TechnicalSheetSchema, "domain_not_found", "technical_specs_not_found", reads="replica",
              example=sheets.DOMAIN_SHEET)
    def get(self, domain_id):
        """Read the technical specification sheet of a domain

        Endpoint 23. The SPECIFICATIONS sheet.
        """
        return charts.domain_sheet(domain_id)

    @blp.read(TechnicalSheetSchema, "missing_required_attributes", "domain_not_found", "chart_tech_specs_not_found",
              reads="replica", example=sheets.CHART_SHEET)
    @blp.arguments(ChartSheetQuerySchema, location="query")
    @blp.arguments(ChartSheetRequestSchema, example=sheets.CHART_SHEET_REQUEST)
    def post(self, _query, body, domain_id):
        """Read the technical specification sheet of a size chart

        Endpoint 24. Send every grid_template_required attribute; the sheet is the one their
        values select.
        """
        return charts.chart_sheet(domain_id, body["attributes"])


@blp.route("/catalog/charts/search")
class ChartSearch(MethodView):
    @blp.read(ChartSearchResultSchema, "domain_not_active", "missing_required_attributes", "forbidden",
              "site_not_found", example=examples.SEARCH)
    @blp.arguments(ChartSearchHeadersSchema, location="headers")
    @blp.arguments(PagingQuerySchema, location="query")
    @blp.arguments(ChartSearchSchema, example=examples.SEARCH_REQUEST)
    def post(self, headers, paging, body):
        """Search size charts

        Endpoint 25. BRAND, STANDARD and the caller's SPECIFIC charts of an active domain; seller_id
        and x-caller-id must be the caller.
        """
        return charts.search_charts(g.caller_id, body, headers.get("caller_id"),
                                          paging["offset"], paging["limit"])


@blp.route("/catalog/charts/domains/search")
class ChartDomainsSearch(MethodView):
    @blp.read(DomainListSchema, "site_not_found", reads="replica", example=examples.DOMAINS_WITH_CHARTS)
    @blp.arguments(ChartDomainsSearchSchema, example=examples.DOMAINS_SEARCH_REQUEST)
    def post(self, body):
        """List the chart domains that have charts of a type

        Endpoint 26. Domain ids without site prefix.
        """
        return charts.domains_with_charts(body["site_id"], body["type"])


@blp.route("/catalog/charts")
class Charts(MethodView):
    @blp.auth("token")
    @blp.errors("chart_validation_error", "domain_not_active", "domain_not_found", "site_not_found")
    @blp.arguments(ChartCreateSchema, example=examples.CREATE_REQUEST)
    @blp.response(201, ChartSchema, example=examples.CHART)
    def post(self, body):
        """Create a customized (SPECIFIC) size chart of the caller

        Beyond the spec. Validated against the chart sheet: a chart that does not fit it is refused
        with every problem in `errors`.
        """
        return charts.create_chart(g.caller_id, body)


@blp.route("/catalog/charts/<chart_id>")
class ChartById(MethodView):
    @blp.read(ChartSchema, "forbidden", "chart_not_found", example=examples.CHART)
    def get(self, chart_id):
        """Read a size chart with its rows

        Beyond the spec. Another seller's SPECIFIC chart is forbidden.
        """
        return charts.read_chart(chart_id, g.caller_id)

    @blp.auth("token")
    @blp.errors("chart_validation_error", "chart_read_only", "forbidden", "chart_not_found")
    @blp.arguments(ChartRenameSchema, example=examples.RENAME_REQUEST)
    @blp.response(200, ChartSchema, example=examples.RENAMED)
    def put(self, body, chart_id):
        """Rename a customized size chart

        Beyond the spec. Only names change; BRAND and STANDARD charts are read-only.
        """
        return charts.rename_chart(chart_id, g.caller_id, body["names"])

    @blp.auth("token")
    @blp.errors("chart_read_only", "forbidden", "chart_not_found", "chart_in_use")
    @blp.response(200, ChartDeletedSchema, example=examples.DELETED)
    def delete(self, chart_id):
        """Delete a customized size chart that no listing uses

        Beyond the spec. Refused while a listing's SIZE_GRID_ID names it.
        """
        return charts.delete_chart(chart_id, g.caller_id)


@blp.route("/catalog/charts/<chart_id>/rows")
class ChartRows(MethodView):
    @blp.auth("token")
    @blp.errors("chart_validation_error", "chart_read_only", "forbidden", "chart_not_found", "domain_not_found")
    @blp.arguments(RowInputSchema, example=examples.ROW_REQUEST)
    @blp.response(201, ChartRowSchema, example=examples.ROW)
    def post(self, body, chart_id):
        """Add a row to a customized size chart

        Beyond the spec. At most 75 rows; the main size must be new.
        """
        return charts.add_row(chart_id, g.caller_id, body["attributes"])


@blp.route("/catalog/charts/<chart_id>/rows/<row_id>")
class ChartRowById(MethodView):
    @blp.auth("token")
    @blp.errors("chart_validation_error", "chart_read_only", "forbidden", "chart_not_found", "chart_row_not_found",
                "domain_not_found")
    @blp.arguments(RowInputSchema, example=examples.ROW_UPDATE_REQUEST)
    @blp.response(200, ChartRowSchema, example=examples.ROW_UPDATED)
    def put(self, body, chart_id, row_id):
        """Add values to a row of a customized size chart

        Beyond the spec. Never changes the row's main size.
        """
        return charts.update_row(chart_id, row_id, g.caller_id, body["attributes"])
