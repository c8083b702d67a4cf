"""Notification examples (N1 to N4): the demo application of seller 1001, subscribed to both topics."""

# GET /applications/5501 (N1), and what PUT answers after the update below (N2)
APPLICATION = {"id": "5501", "owner_id": 1001, "redirect_uri": "https://example.org/cb",
               "callback_url": "https://integrator.example/notifications",
               "topics": ["items_compatibilities", "bulk_jobs"],
               "signing_secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}
# PUT /applications/5501 (N2)
APPLICATION_UPDATE = {"callback_url": "https://integrator.example/notifications",
                      "topics": ["items_compatibilities", "bulk_jobs"]}
# GET /missed_feeds?app_id=5501 (N3)
MISSED_FEEDS = {
    "messages": [{"_id": "8f14e45f-ceea-467f-a0e6-4c3b2d1e0f9a", "resource": "/items/MLA1500000016/compatibilities",
                  "user_id": 1001, "topic": "items_compatibilities", "application_id": "5501", "attempts": 12,
                  "sent": "2026-03-02T15:05:09.482113Z", "received": "2026-03-02T14:05:09.482113Z"}],
    "paging": {"total": 1, "offset": 0, "limit": 50},
}
# GET /users/1001/compatibilities/changes?limit=1 (N4): the cursor of the next page is `next_after`
CHANGES = {
    "results": [{"id": 1803, "date_created": "2026-03-01T10:12:44.031877Z", "action": "CREATE",
                 "compatibility_id": "af17b70a-3c2e-4f51-8a6d-2b9e0c7d4e13", "product_id": "MLA15903638",
                 "source": "SELLER", "creation_source": "DEFAULT",
                 "changes": {"note": {"from": None, "to": "Solo discos de 280 mm"},
                             "note_status": {"from": None, "to": "PENDING"}},
                 "actor": {"user_id": 1001, "kind": "API"}, "request_id": "1b2c3d4e5f60718293a4b5c6d7e8f901",
                 "item_id": "MLA1500000016"}],
    "next_after": "1803",
}
