"""The vehicle finder: an index of the stored pair counts by (known value, value), which
tells in one probe how many products two known values share (app/services/finder/matching.py,
`narrowed`)."""


def up(migrator, db):
    from app.models.finder import FinderPairFacet

    FinderPairFacet._schema.create_indexes(safe=True)
