"""Category predictor (endpoint 27)."""
import marshmallow as ma
from marshmallow import fields, validate

from schemas.common import Answer

PREDICTOR_LIMIT_DEFAULT = 4
PREDICTOR_LIMIT_MAX = 10


class DomainDiscoveryQuerySchema(ma.Schema):
    q = fields.String(required=True, validate=validate.Length(min=1, max=500), metadata={
        "description": "The listing's title or any free text", "example": "Zapatillas running hombre"})
    limit = fields.Integer(load_default=PREDICTOR_LIMIT_DEFAULT, validate=validate.Range(
        min=1, max=PREDICTOR_LIMIT_MAX, error=f"limit must be between 1 and {PREDICTOR_LIMIT_MAX}"),
        metadata={"description": f"Most predictions (default {PREDICTOR_LIMIT_DEFAULT}, "
                                 f"at most {PREDICTOR_LIMIT_MAX})"})


class DomainPredictionSchema(Answer, ma.Schema):
    domain_id = fields.String(metadata={"example": "MLA-SNEAKERS"})
    domain_name = fields.String(metadata={"example": "Zapatillas"})
    category_id = fields.String(allow_none=True, metadata={"example": "MLA109027"})
    category_name = fields.String(allow_none=True, metadata={"example": "Zapatillas"})
    attributes = fields.List(fields.Dict(), metadata={"description": "Always empty"})
