"""The full-text index of item titles, one backend per database, kept in sync by the database itself.

SQLite: an FTS5 table (unicode61 tokenizer, `remove_diacritics 2`) filled by triggers on `item`.
PostgreSQL: a stored generated tsvector column `item.search_vector` with a GIN index.
Either way writers (the importer, the API, the CLI) do nothing to keep the index current.
"""
import re
import unicodedata

from peewee import SQL, AutoField, CharField, IntegerField, Model, NodeList, TextField, fn

from app.db import db, is_postgres

FTS_TABLE = "item_search"
KEY_TABLE = "item_search_key"
PG_COLUMN = "search_vector"
TRIGGERS = ("item_search_ai", "item_search_au", "item_search_ad")


# Letters unicode61 leaves as they are although they decompose; PostgreSQL must not fold them either.
_UNFOLDED = frozenset("\u01e0\u01e1")


def _accent_fold_table():
    """Latin letters with diacritics mapped to their ASCII base letter ("Í" -> "I", "ñ" -> "n").

    One-to-one, so PostgreSQL's immutable translate() can apply the same table that
    Python applies to the query; unicode61 `remove_diacritics 2` folds these letters alike."""
    pairs = {}
    for start, end in ((0x00C0, 0x024F), (0x1E00, 0x1EFF)):
        for code in range(start, end + 1):
            char = chr(code)
            base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
            if len(base) == 1 and base.isascii() and base.isalpha() and base != char and char not in _UNFOLDED:
                pairs[char] = base
    return pairs


ACCENT_FOLD = _accent_fold_table()
_FOLD = str.maketrans(ACCENT_FOLD)
# unicode61 splits on everything that is not a letter or a digit; "_" is \w in Python but a separator there.
_WORD = re.compile(r"[^\W_]+")


def query_words(text):
    """The words of a user query, accent-folded and lower-cased: only letters and digits,
    so no FTS or tsquery syntax can ever reach the database."""
    return _WORD.findall(text.translate(_FOLD).lower())


class SearchKey(Model):
    """Stable integer document ids for item ids: the FTS5 rowid cannot be the item's own rowid,
    which VACUUM may renumber because `item` has a text primary key."""
    docid = AutoField()
    item_id = CharField(unique=True)

    class Meta:
        database = db
        table_name = KEY_TABLE


class SearchText(Model):
    rowid = IntegerField(primary_key=True, column_name="rowid")
    title = TextField()

    class Meta:
        database = db
        table_name = FTS_TABLE


def _sqlite_ddl():
    fts_row = (f"INSERT INTO {FTS_TABLE}(rowid, title) "
               f"SELECT docid, new.title FROM {KEY_TABLE} WHERE item_id = new.id;")
    # No OR IGNORE: the statement firing a trigger imposes its own conflict policy (an upsert's is
    # ABORT), so the trigger bodies are written never to conflict.
    add_key = (f"INSERT INTO {KEY_TABLE}(item_id) SELECT new.id "
               f"WHERE NOT EXISTS (SELECT 1 FROM {KEY_TABLE} WHERE item_id = new.id);")
    drop_row = f"DELETE FROM {FTS_TABLE} WHERE rowid = (SELECT docid FROM {KEY_TABLE} WHERE item_id = {{}}.id);"
    return [
        # Triggers are recreated every time, so a database always runs this version's definitions.
        *(f"DROP TRIGGER IF EXISTS {name}" for name in TRIGGERS),
        f"CREATE TABLE IF NOT EXISTS {KEY_TABLE} "
        "(docid INTEGER PRIMARY KEY, item_id VARCHAR(40) NOT NULL UNIQUE)",
        # prefix='2 3': the prefix terms every query word becomes are answered from the index.
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
        "title, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3')",
        # The delete first: INSERT OR REPLACE removes the old row without firing delete triggers.
        f"CREATE TRIGGER item_search_ai AFTER INSERT ON item BEGIN "
        f"{drop_row.format('new')} "
        f"{add_key} {fts_row} END",
        f"CREATE TRIGGER item_search_au AFTER UPDATE OF id, title ON item "
        "WHEN old.id IS NOT new.id OR old.title IS NOT new.title BEGIN "
        f"{drop_row.format('old')} "
        f"UPDATE {KEY_TABLE} SET item_id = new.id WHERE item_id = old.id; "
        f"{add_key} {fts_row} END",
        f"CREATE TRIGGER item_search_ad AFTER DELETE ON item BEGIN "
        f"{drop_row.format('old')} DELETE FROM {KEY_TABLE} WHERE item_id = old.id; END",
    ]


def _pg_document_expression():
    """title -> accent-free, lower-case words separated by spaces: every step is immutable, so it
    can be a generated column; no extension needed (unaccent() is only STABLE, and may be absent)."""
    source = "".join(ACCENT_FOLD)
    target = "".join(ACCENT_FOLD.values())
    # Punctuation becomes a space so that "1.6" or "NGK-BKR6E" split into words as unicode61 does,
    # rather than the default parser's compound tokens.
    return (f"to_tsvector('simple'::regconfig, regexp_replace(lower(translate(coalesce(title, ''), "
            f"'{source}', '{target}')), '[^[:alnum:]]+', ' ', 'g'))")


def ensure_search_index():
    """Create the index of the database in use if it is missing, and fill it from existing items."""
    if is_postgres():
        # Checked first because ALTER TABLE locks the whole table even when it has nothing to do.
        exists = db.execute_sql("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                                "AND table_name = 'item' AND column_name = %s", (PG_COLUMN,)).fetchone()
        if not exists:
            db.execute_sql(f"ALTER TABLE item ADD COLUMN {PG_COLUMN} tsvector "
                           f"GENERATED ALWAYS AS ({_pg_document_expression()}) STORED")
        db.execute_sql(f"CREATE INDEX IF NOT EXISTS item_search_vector_gin ON item USING GIN ({PG_COLUMN})")
        return
    existed = db.table_exists(FTS_TABLE)
    for statement in _sqlite_ddl():
        db.execute_sql(statement)
    if not existed:
        db.execute_sql(f"INSERT OR IGNORE INTO {KEY_TABLE}(item_id) SELECT id FROM item")
        db.execute_sql(f"INSERT INTO {FTS_TABLE}(rowid, title) "
                       f"SELECT k.docid, i.title FROM item i JOIN {KEY_TABLE} k ON k.item_id = i.id")


def match(query, item_model, words):
    """Restrict an item query to items whose title holds every word (each as a prefix).

    Returns (query, rank) where ordering by `rank` puts the best matches first."""
    if is_postgres():
        tsquery = fn.to_tsquery("simple", " & ".join(f"'{w}':*" for w in words))
        vector = SQL(PG_COLUMN)  # only `item` has this column, so it needs no table alias
        query = query.where(NodeList((vector, SQL("@@"), tsquery)))
        return query, fn.ts_rank(vector, tsquery).desc()
    text = SearchText.alias(FTS_TABLE)
    key = SearchKey.alias(KEY_TABLE)
    expression = " ".join(f'"{w}"*' for w in words)
    query = (query.join(key, on=(key.item_id == item_model.id))
             .join(text, on=(text.rowid == key.docid))
             .where(SQL(f'"{FTS_TABLE}" MATCH ?', [expression])))
    # bm25() is lower for better matches.
    return query, fn.bm25(SQL(f'"{FTS_TABLE}"')).asc()
