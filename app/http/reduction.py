"""`attributes` reduction: keep only the named top-level fields of a successful JSON body."""
from flask import current_app

from app.http.current import current_request


def reduce_fields(response):
    request = current_request()
    if not request.environ.get("QUERY_STRING"):  # no arguments to parse
        return response
    names = request.args.get("attributes")
    if not names or response.status_code >= 400 or not response.is_json:
        return response
    keep = {name.strip() for name in names.split(",") if name.strip()}
    body = response.get_json(silent=True)
    if isinstance(body, dict):
        body = {k: v for k, v in body.items() if k in keep}
    elif isinstance(body, list):
        body = [{k: v for k, v in e.items() if k in keep} if isinstance(e, dict) else e
                for e in body]
    else:
        return response
    response.set_data(current_app.json.response(body).get_data())
    return response
