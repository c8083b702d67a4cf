"""Examples of the OpenAPI document, one module per area: answers of the demo (`flask --app wsgi demo`),
trimmed where long. tests/http/test_openapi.py validates each against its schema and replays the key ones."""
