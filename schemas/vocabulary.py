"""The words and limits that the API, its schemas and the bundle importer share, each defined once.

Schemas never import `app`, so the services import these from here too.
"""

# Size charts (decisions.md): BRAND and STANDARD charts are shared, SPECIFIC ones are a seller's own.
BRAND, STANDARD, SPECIFIC = "BRAND", "STANDARD", "SPECIFIC"
CHART_TYPES = (BRAND, STANDARD, SPECIFIC)

# The flow that created a compatibility, required on every element a write creates.
DEFAULT, ITEM_SUGGESTIONS, NEW_VEHICLES, AUTOMATION = "DEFAULT", "ITEM_SUGGESTIONS", "NEW_VEHICLES", "AUTOMATION"
CREATION_SOURCES = (DEFAULT, ITEM_SUGGESTIONS, NEW_VEHICLES, AUTOMATION)

# Who made a compatibility: the seller through this API, or the marketplace through the catalog import.
SELLER, CATALOGO = "SELLER", "CATALOGO"
COMPATIBILITY_SOURCES = (SELLER, CATALOGO)

# Moderation of a compatibility's note: others than the seller see it once APPROVED or CHECKED.
PENDING, APPROVED, CHECKED = "PENDING", "APPROVED", "CHECKED"
NOTE_STATUSES = (PENDING, APPROVED, CHECKED)
VISIBLE_NOTE_STATUSES = (APPROVED, CHECKED)

# Identifiers: an item or product id is a site id and digits; a domain id is site-prefixed.
ITEM_ID_PATTERN = r"^[A-Z]{3}\d+$"
PRODUCT_ID_PATTERN = ITEM_ID_PATTERN
DOMAIN_ID_PATTERN = r"^[A-Z]{3}-[A-Z0-9_]+$"

# How a catalog domain's attribute places a product: PARENT_PK names the parent vehicle, CHILD_PK refines it.
ATTRIBUTE_HIERARCHIES = ("PARENT_PK", "CHILD_PK", "FAMILY", "ITEM", "CHILD_DEPENDENT")

# OAuth 2 grants POST /oauth/token exchanges.
GRANT_TYPES = ("client_credentials", "authorization_code", "refresh_token")

# Text a request may hold: anything but NUL, which PostgreSQL cannot store (app/json_input.py).
NO_NUL_PATTERN = r"^[^\x00]*$"

# Pagination (decisions.md): limit 1 to 200, default 50; offset 0 to 10,000.
PAGE_LIMIT_DEFAULT = 50
PAGE_LIMIT_MAX = 200
PAGE_OFFSET_MAX = 10000
