"""Buyer fitment examples (extensions.md B): answers of the demo."""
from schemas.examples.search import SEARCH

SEARCH_EXAMPLES = {"words": {"summary": "?q=pastillas freno&limit=2", "value": SEARCH}}
CHECK_REQUEST_EXAMPLES = {"product": {"summary": "A vehicle", "value": {"product_id": "MLA15900013"}}}
CHECK_EXAMPLES = {"compatible": {"summary": "Fits", "value": {"compatibility_status": "COMPATIBLE",
                                                              "product_ids": ["MLA15900013"]}}}
