"""Compatibility catalog: domain rules, family counts and restriction values (endpoints 1, 2, 7)."""
from app.http.smorest import Blueprint

blp = Blueprint("compatibility_catalog", __name__,
                description="Compatibility catalog: domain rules, family counts and restriction values")
