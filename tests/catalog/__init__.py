"""The catalog: domain dump, site search, the category predictor and the bundle import."""
