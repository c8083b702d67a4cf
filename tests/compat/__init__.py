"""Vehicle-part compatibilities: writes, reads, items, reports and order snapshots."""
