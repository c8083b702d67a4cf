"""Marshmallow schemas: request validation, response serialisation and the OpenAPI document.

Schemas never import `app`: they describe the wire format only.
"""
