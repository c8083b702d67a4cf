"""Item search of a site, with paging, sorts and filters"""
from flask.views import MethodView

from app.http.smorest import Blueprint
from app.services import search
from schemas.examples import search as examples
from schemas.search import SearchQueryArgsSchema, SearchResponseSchema

blp = Blueprint("search", __name__, description="Item search of a site, with paging, sorts and filters")


@blp.route("/sites/<site_id>/search")
class SiteSearch(MethodView):
    @blp.auth("public")
    @blp.errors(400, 404)
    @blp.arguments(SearchQueryArgsSchema, location="query", as_kwargs=True)
    @blp.response(200, SearchResponseSchema, example=examples.SEARCH)
    def get(self, site_id, q, limit, offset, sort, category=None):
        """Search the site's active items by the words of their titles

        Common conventions: paging, results, sort, available_sorts, filters, available_filters.
        """
        return search.search_items(site_id, q, limit=limit, offset=offset, sort=sort, category_id=category)
