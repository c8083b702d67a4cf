"""Category predictor (endpoint 27): ranks a site's domains for a free-text title.

A multinomial naive Bayes over folded, stemmed words and word pairs, learned per site from
the domain names, category names, the catalog's domain_discovery terms and the titles of the
listings already in each domain. It is learned at request time and kept per process, keyed by
the catalog version the importer bumps (app.models.CatalogVersion): a new import or listing is
seen on the next request without a rebuild step. The first process of the machine to learn a model
writes it to a file that the others read instead of learning it again (model_files.py).
"""
import math
import threading
from collections import Counter, defaultdict

from app.db import db
from app.errors import ApiError
from app.models import Category, Domain, DomainDiscoveryTerm, Item
from app.services.catalog import model_files, queries
from app.services.catalog.text_normalize import domain_name_words, features, tokens

# How much one mention in each source weighs against one listing title.
WEIGHT_DOMAIN_NAME = 4.0
WEIGHT_DOMAIN_ID = 4.0  # the English words of the id ("MLA-CAR_FLOOR_MATS"), not the site's language
WEIGHT_CATEGORY_NAME = 3.0
WEIGHT_TERM = 4.0
WEIGHT_TITLE = 1.0
ALPHA = 0.1  # additive smoothing
# A word of a domain's own names and terms outweighs a coincidence in listing titles (a car
# model that also appears in another part's listings).
LEXICON_BONUS = 3.0
# A popularity prior: between equal matches, the domain with more listings wins.
PRIOR_WEIGHT = 1.0
# Share of the title's information (idf mass) a domain must explain to be answered at all;
# a word never seen (a model number, a new brand) counts this much against it.
MIN_COVERAGE = 0.12
UNKNOWN_WORD_WEIGHT = 1.0

_cache = {}
_lock = threading.Lock()


class SiteModel:
    """Token weights per domain, with what the answer shows of each domain."""

    def __init__(self):
        self.weights = defaultdict(Counter)  # domain id -> feature -> weight
        self.lexicon = defaultdict(set)  # domain id -> features of its names and terms
        self.info = {}  # domain id -> (name, category id, category name)
        self.listings = Counter()  # domain id -> listings learned from

    def add(self, domain_id, text, weight, curated=False):
        counter, found = self.weights[domain_id], features(text)
        if weight == 1:
            counter.update(found)  # a title: counted in C, the same sums
        else:
            for feature in found:
                counter[feature] += weight
        if curated:
            self.lexicon[domain_id].update(found)

    def state(self):
        """What `from_state` rebuilds the model from, in plain dicts, sets and tuples (model_files)."""
        return ({d: dict(c) for d, c in self.weights.items()}, dict(self.lexicon), self.info, dict(self.listings))

    @classmethod
    def from_state(cls, state):
        weights, lexicon, info, listings = state
        model = cls()
        model.weights.update((d, Counter(c)) for d, c in weights.items())
        model.lexicon.update(lexicon)
        model.info, model.listings = info, Counter(listings)
        return model.finish()

    def finish(self):
        self.totals = {d: sum(c.values()) for d, c in self.weights.items()}
        postings = defaultdict(list)
        for domain_id, counter in self.weights.items():
            for feature in counter:
                postings[feature].append(domain_id)
        # Tuples: every worker holds its sites' models, and most features are one domain's, for which
        # a set costs several times a tuple.
        self.postings = {feature: tuple(domain_ids) for feature, domain_ids in postings.items()}
        self.vocabulary = max(len(self.postings), 1)
        count = max(len(self.weights), 1)
        self.idf = {f: math.log((count + 1) / (len(ds) + 0.5)) for f, ds in self.postings.items()}
        self.unknown_idf = math.log((count + 1) / 0.5)
        return self

    def rank(self, text):
        """[(domain id, score)] best first, only domains that explain enough of the text."""
        words = set(tokens(text))
        known = [f for f in features(text) if f in self.postings]
        if not known:
            return []
        candidates = set().union(*(self.postings[w] for w in words if w in self.postings))
        mass = sum(self.idf.get(w, UNKNOWN_WORD_WEIGHT) for w in words if not w.isdigit()) or 1.0
        ranked = []
        for domain_id in candidates:
            counter, total, lexicon = self.weights[domain_id], self.totals[domain_id], self.lexicon[domain_id]
            covered = sum(self.idf[w] for w in words if counter.get(w))
            if covered / mass < MIN_COVERAGE:
                continue
            denominator = math.log(total + ALPHA * self.vocabulary)
            score = sum(self.idf[f] * (math.log(counter.get(f, 0.0) + ALPHA) - denominator) for f in known)
            score += LEXICON_BONUS * sum(self.idf[f] for f in set(known) if f in lexicon)
            score += PRIOR_WEIGHT * math.log(self.listings[domain_id] + 1)
            ranked.append((domain_id, score))
        ranked.sort(key=lambda pair: (-pair[1], pair[0]))
        return ranked


def _fingerprint(site_id):
    """The catalog version, which the importer (the only writer of titles, domains, categories
    and terms) changes with each import of them; the API's compatibility and chart writes don't,
    so they never relearn for nothing. One primary-key read, however many listings the site has,
    in the statement that checks the site: 404 `site_not_found` without it."""
    row = queries.site_catalog_version(site_id)
    if row is None:
        raise ApiError("site_not_found", f"Site {site_id} does not exist")
    return (db.obj.database, row[1])


def learn(site_id):
    """The model of a site, learned from what the database holds now."""
    model = SiteModel()
    names = {}
    for domain_id, name in Domain.select(Domain.id, Domain.name).where(Domain.site == site_id).tuples():
        names[domain_id] = name
        model.add(domain_id, name, WEIGHT_DOMAIN_NAME, curated=True)
        model.add(domain_id, domain_name_words(domain_id), WEIGHT_DOMAIN_ID)
    categories, chosen = {}, {}
    for category_id, name, domain_id in Category.select(Category.id, Category.name, Category.domain).where(
            (Category.site == site_id) & Category.domain.is_null(False)).tuples():
        categories[category_id] = name
        chosen.setdefault(domain_id, category_id)
        model.add(domain_id, name, WEIGHT_CATEGORY_NAME, curated=True)
    for domain_id, category_id, terms in DomainDiscoveryTerm.select(
            DomainDiscoveryTerm.domain, DomainDiscoveryTerm.category, DomainDiscoveryTerm.terms).where(
            DomainDiscoveryTerm.site == site_id).tuples():
        for term in terms or ():
            model.add(domain_id, term, WEIGHT_TERM, curated=True)
        if category_id is not None:
            chosen[domain_id] = category_id  # the catalog's explicit mapping wins
    usage = Counter()
    # The cursor's own rows: the listings are the bulk of the work, and these three columns need no
    # conversion by peewee.
    listings = db.execute(Item.select(Item.domain, Item.category, Item.title).where(Item.site == site_id))
    for domain_id, category_id, title in listings:
        model.add(domain_id, title, WEIGHT_TITLE)
        model.listings[domain_id] += 1
        usage[(domain_id, category_id)] += 1
    if usage:  # categories not named by domain_discovery: the one most listings of the domain use
        explicit = {d for d, c in chosen.items() if c is not None}
        for (domain_id, category_id), _ in sorted(usage.items(), key=lambda kv: kv[1]):
            if domain_id not in explicit:
                chosen[domain_id] = category_id
        missing = {c for c in chosen.values() if c not in categories}
        if missing:
            categories.update(Category.select(Category.id, Category.name).where(
                Category.id.in_(sorted(missing))).tuples())
    for domain_id in model.weights:
        category_id = chosen.get(domain_id)
        model.info[domain_id] = (names.get(domain_id, domain_id), category_id, categories.get(category_id))
    return model.finish()


def _stored_model(site_id, version):
    """The model another process learned for this catalog version, or None."""
    state = model_files.load(site_id, version)
    try:
        return None if state is None else SiteModel.from_state(state)
    except (TypeError, ValueError, AttributeError):  # a file of another layout: learned again
        return None


def site_model(site_id):
    key = _fingerprint(site_id)
    cached = _cache.get(site_id)
    if cached is not None and cached[0] == key:
        return cached[1]
    model = _stored_model(site_id, key[1])
    if model is None:
        model = learn(site_id)
        model_files.save(site_id, key[1], model.state())
    with _lock:
        _cache[site_id] = (key, model)
    return model


def predict(site_id, text, limit):
    """Endpoint 27's answer: the best domains for the text, [] when none is relevant; 404
    `site_not_found` for an unknown site."""
    model = site_model(site_id)
    answer = []
    for domain_id, _score in model.rank(text)[:limit]:
        name, category_id, category_name = model.info[domain_id]
        answer.append({"domain_id": domain_id, "domain_name": name, "category_id": category_id,
                       "category_name": category_name, "attributes": []})
    return answer
