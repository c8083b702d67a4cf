"""Change history example (H1): what the demo answers after the walk-through's steps 4 and 6."""

# GET /items/MLA1500000016/compatibilities/history?limit=3
HISTORY_PAGE = {
    "results": [
        {"id": 1812, "date_created": "2026-03-02T14:05:09.482113Z", "action": "DELETE",
         "compatibility_id": "b3f0c1de-5a0e-4d9b-9a43-0f5f3b0f2c11", "product_id": "MLA15903639",
         "source": "SELLER", "creation_source": "DEFAULT",
         "changes": {"note": {"from": "Solo discos de 280 mm", "to": None},
                     "note_status": {"from": "PENDING", "to": None},
                     "restrictions": {"from": [{"attribute_id": "POSITION", "attribute_values": [
                         {"values": [{"value_id": "13701104", "value_name": "Delantera"}]}]}], "to": None}},
         "actor": {"user_id": 1001, "client_id": "5501", "kind": "API"},
         "request_id": "9c1f7e2ab04d4a4c8e7f1d2b3a4c5d6e"},
        {"id": 1811, "date_created": "2026-03-02T14:05:09.482113Z", "action": "UPDATE",
         "compatibility_id": "af17b70a-3c2e-4f51-8a6d-2b9e0c7d4e13", "product_id": "MLA15903638",
         "source": "SELLER", "creation_source": "DEFAULT",
         "changes": {"note": {"from": "Solo discos de 280 mm", "to": None},
                     "note_status": {"from": "PENDING", "to": None}},
         "actor": {"user_id": 1001, "client_id": "5501", "kind": "API"},
         "request_id": "9c1f7e2ab04d4a4c8e7f1d2b3a4c5d6e"},
        {"id": 1803, "date_created": "2026-03-01T10:12:44.031877Z", "action": "CREATE",
         "compatibility_id": "af17b70a-3c2e-4f51-8a6d-2b9e0c7d4e13", "product_id": "MLA15903638",
         "source": "SELLER", "creation_source": "DEFAULT",
         "changes": {"note": {"from": None, "to": "Solo discos de 280 mm"},
                     "note_status": {"from": None, "to": "PENDING"}},
         "actor": {"user_id": 1001, "kind": "API"}, "request_id": "1b2c3d4e5f60718293a4b5c6d7e8f901"},
    ],
    "paging": {"total": 23, "offset": 0, "limit": 3},
}
