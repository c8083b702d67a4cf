"""The vehicle finder (extensions.md F1–F4): what a seller's compatibility manager calls to find the
vehicles (product ids) it then makes compatible."""
from flask.views import MethodView

from app.http.smorest import Blueprint, raw_json
from app.services import finder
from schemas.examples import finder as examples
from schemas.finder import (
    CatalogDomainSchema,
    ProductPageSchema,
    ProductSchema,
    ProductSearchArgsSchema,
    TopValuesArgsSchema,
    TopValueSchema,
    product_page_body,
)

blp = Blueprint("finder", __name__, description="Vehicle finder: catalog domains, top values of an attribute, "
                "product search and products (extensions F1–F4)")


@blp.route("/catalog_domains/<domain_id>")
class CatalogDomain(MethodView):
    @blp.read(CatalogDomainSchema, "not_found", reads="replica", example=examples.DOMAIN)
    def get(self, domain_id):
        """Read a catalog domain and its attributes

        F1. The attributes in refinement order (the finder's cascade), each with `value_type`,
        `hierarchy` (`PARENT_PK` identifies the parent vehicle, `CHILD_PK` refines it) and
        `relevance` (1 primary, 2 secondary, 3 optional).
        """
        return finder.get_domain(domain_id)


@blp.route("/catalog_domains/<domain_id>/attributes/<attribute_id>/top_values")
class TopValues(MethodView):
    @blp.read(TopValueSchema(many=True), "unknown_attribute", "repeated_attribute", "not_found",
              reads="replica", example=examples.TOP_VALUES)
    @blp.arguments(TopValuesArgsSchema, required=False, example=examples.TOP_VALUES_REQUEST)  # {} when absent
    def post(self, args, domain_id, attribute_id):
        """Count the values of an attribute among the matching vehicles

        F2. The values of `attribute_id` among the domain's child products that match every known
        attribute (`value_id`, or any of `value_ids`), with `metric` = how many of them carry the
        value; by `metric` descending, then name; `[]` when none matches.
        """
        return finder.top_values(domain_id, attribute_id, args["known_attributes"], args["limit"])


@blp.route("/catalog_compatibilities/products_search/chunks")
class ProductSearch(MethodView):
    @blp.read(ProductPageSchema, "site_mismatch", "unknown_attribute", "repeated_attribute", "not_found",
              reads="replica", example=examples.SEARCH)
    @blp.arguments(ProductSearchArgsSchema, example=examples.SEARCH_REQUEST)
    def post(self, args):
        """Search the vehicles that match the known attributes

        F3. A page of the domain's child products matching every known attribute, sorted by the
        `sort` attribute's value name (products without it last), else by id; `paging.total` is exact.
        """
        page = finder.search_products(args["domain_id"], args["site_id"], args["known_attributes"],
                                      args["limit"], args["offset"], args.get("sort"))
        return raw_json(product_page_body(page))


@blp.route("/products/<product_id>")
class ProductById(MethodView):
    @blp.read(ProductSchema, "not_found", reads="replica", example=examples.PRODUCT)
    def get(self, product_id):
        """Read a catalog product

        F4. A parent or child product with its attributes.
        """
        return finder.get_product(product_id)
