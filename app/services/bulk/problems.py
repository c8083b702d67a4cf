"""The 400s of a J1 body that cannot be read whole: each names the line or row at fault."""
from app.errors import ApiError


def invalid(code, message, field):
    return ApiError(code, message, [{"code": code, "message": message, "field": field}])


def too_many(max_rows, where):
    return invalid("too_many_rows", f"{where}: more than {max_rows} rows (BULK_MAX_ROWS); split the upload into "
                    "several jobs", where)
