"""Bulk job examples (J1 to J5)."""

JSON_BODY = {"rows": [
    {"item_id": "MLA1500000016", "action": "ADD", "creation_source": "DEFAULT", "products_families": [
        {"domain_id": "MLA-CARS_AND_VANS", "attributes": [{"id": "BRAND", "value_name": "Volkswagen"},
                                                          {"id": "MODEL", "value_name": "Gol"}]}]},
    {"item_id": "MLA1500000017", "action": "REPLACE", "products": [{"id": "MLA15903638", "note": "Solo con ABS"}]},
    {"item_id": "MLA1500000018", "action": "DELETE", "products": [{"id": "MLA15903639"}]},
]}
NDJSON_BODY = ('{"item_id": "MLA1500000016", "action": "ADD", "products": [{"id": "MLA15903638"}]}\n'
               '{"item_id": "MLA1500000017", "action": "DELETE", "products": [{"id": "MLA15903639"}]}\n')
CSV_BODY = ("item_id,action,BRAND,MODEL,VEHICLE_YEAR,note,position\n"
            "MLA1500000016,ADD,Volkswagen,Gol,2010,,Delantera\n"
            "MLA1500000016,ADD,Volkswagen,Gol,2011,Solo con ABS,Delantera\n"
            "MLA1500000017,REPLACE,Toyota,Hilux,,,\n")

JOB = {"id": "3f0c1de5-a0e4-4d9b-9a43-0f5f3b0f2c11", "status": "RUNNING",
       "date_created": "2026-03-02T14:05:09.482113Z", "date_started": "2026-03-02T14:05:09.913020Z",
       "rows": {"total": 3, "done": 1, "ok": 1, "error": 0},
       "compatibilities": {"created": 24, "updated": 0, "deleted": 0}}
JOBS = {"results": [JOB], "paging": {"total": 1, "offset": 0, "limit": 50}}
RESULTS = {"results": [
    {"row": 2, "item_id": "MLA1500000016", "status": "OK", "created": 24, "updated": 0, "deleted": 0},
    {"row": 4, "item_id": "MLA1500000017", "status": "ERROR", "created": 0, "updated": 0, "deleted": 0,
     "error": {"message": "create.products: product MLA99 does not exist", "error": "product_not_found",
               "status": 404, "cause": []}}],
    "paging": {"total": 2, "offset": 0, "limit": 50}}
