"""Every error code the compatibility services raise is documented in the OpenAPI document."""
import pathlib
import re

SERVICES = ["compat/*.py", "auth/ownership.py"]
ROOT = pathlib.Path(__file__).resolve().parent.parent


def raised_codes():
    codes = set()
    for name in SERVICES:
        for module in (ROOT / "app" / "services").glob(name):
            source = module.read_text()
            codes.update(re.findall(r'ApiError\(\s*\d{3},\s*"([a-z_]+)"', source))
    return codes


def test_every_raised_code_is_in_the_openapi_document(client):
    document = client.get("/openapi.json").get_data(as_text=True)
    codes = raised_codes()
    assert len(codes) > 20
    assert sorted(code for code in codes if f"`{code}`" not in document) == []
