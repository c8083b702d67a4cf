"""Category predictor (endpoint 27)"""
from app.http.smorest import Blueprint

blp = Blueprint("domain_discovery", __name__, description="Category predictor (endpoint 27)")
