"""Fashion size charts: chart domains, a seller's own charts, chart search and the technical specs."""
