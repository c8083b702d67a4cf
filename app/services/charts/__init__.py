"""Size charts: chart domains (22, 26), technical sheets (23, 24), search (25) and a seller's own
charts (beyond the spec: create, read, rename, rows, delete)."""
from app.services.charts.reads import active_domains, domains_with_charts, read_chart
from app.services.charts.search import search_charts
from app.services.charts.sheets import chart_sheet, domain_sheet
from app.services.charts.writes import add_row, create_chart, delete_chart, rename_chart, update_row

__all__ = ["active_domains", "add_row", "chart_sheet", "create_chart", "delete_chart", "domain_sheet",
           "domains_with_charts", "read_chart", "rename_chart", "search_charts", "update_row"]
