"""Free text to comparable tokens: lower case, no accents, light Spanish/Portuguese plural stemming.

The category predictor and the chart value matching compare what sellers type ("Zapatillas
Hombre", "zapatilla hombre", "ZAPATILLAS HOMBRÉ") as the same words.
"""
import functools
import re
import unicodedata

# Words that say nothing about a domain in Spanish and Portuguese titles.
_STOPWORDS_TEXT = """
a al algo as c com como con cm da das de del do dos e el em en es et la las lo los mas mais mm na nas no
nos o os ou p para pela pelo por pra que se sem sin su sus un una uno unos unas um uma x y
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())

_TOKEN = re.compile(r"[a-z0-9]+")
# Portuguese plurals first ("botoes" -> "botao", "animais" -> "animal"), then Spanish "-es"
# after a consonant ("motores" -> "motor"), then a plain "-s".
_PLURALS = (("oes", "ao"), ("aes", "ao"), ("ais", "al"), ("eis", "el"), ("ois", "ol"))
_ES_CONSONANTS = frozenset("rlndzj")


def fold(text):
    """Lower case without accents: "Camisetas Ñandú" -> "camisetas nandu"."""
    if not text or text.isascii():  # nothing to decompose: most titles, and the predictor reads them all
        return (text or "").lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def value_key(name):
    """How attribute value names are compared (families' value_name, the finder): case and accents
    ignored, so "citroen" finds "Citroën". Stored by the importer and folded here, in Python, so
    SQLite and PostgreSQL compare alike."""
    return fold(name.strip()) if name is not None else None


# A site's vocabulary is small against the words of its titles, which the predictor stems one by one.
@functools.lru_cache(maxsize=16384)
def stem(word):
    """The singular-ish form of one folded word; short words and numbers are kept whole."""
    if len(word) <= 3 or word.isdigit():
        return word
    for suffix, replacement in _PLURALS:
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            return word[: -len(suffix)] + replacement
    if word.endswith("es") and len(word) > 4 and word[-3] in _ES_CONSONANTS:
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def tokens(text):
    """The stemmed, meaningful words of a text, in order."""
    return [stem(w) for w in _TOKEN.findall(fold(text)) if w not in STOPWORDS and len(w) > 1]


def features(text):
    """Words plus adjacent word pairs: "pastilla freno" says more than "freno" alone."""
    words = tokens(text)
    return words + [f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)]


def domain_name_words(domain_id):
    """The words of a domain id: "MLA-CAR_FLOOR_MATS" -> "car floor mats"."""
    name = domain_id.split("-", 1)[-1]
    return name.replace("_", " ")
