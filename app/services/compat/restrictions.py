"""Position restrictions: validated against endpoint 7's values for (vehicle domain, item domain),
and echoed with the stable codes (RestrictionAttribute.id, RestrictionValue.id)."""
from app.errors import ApiError
from app.models import RestrictionAttribute, RestrictionValue

MAX_GROUPS = 4
MAX_VALUES_PER_GROUP = 4


class RestrictionCatalog:
    """The restriction attributes and values an item's domain allows, per vehicle domain,
    read with one query per batch of vehicle domains."""

    def __init__(self, item_domain_id):
        self.item_domain_id = item_domain_id
        self._by_domain = {}

    def preload(self, vehicle_domain_ids):
        missing = [d for d in dict.fromkeys(vehicle_domain_ids) if d and d not in self._by_domain]
        if not missing:
            return
        for domain_id in missing:
            self._by_domain[domain_id] = {}
        rows = (RestrictionValue
                .select(RestrictionAttribute.main_domain, RestrictionAttribute.attribute_id,
                        RestrictionAttribute.id, RestrictionValue.id, RestrictionValue.value_id,
                        RestrictionValue.value_name)
                .join(RestrictionAttribute)
                .where(RestrictionAttribute.main_domain.in_(missing),
                       RestrictionAttribute.secondary_domain == self.item_domain_id)
                .tuples())
        for domain_id, attribute_id, attribute_code, value_code, value_id, value_name in rows:
            attribute = self._by_domain[domain_id].setdefault(attribute_id, (attribute_code, {}))
            attribute[1][value_id] = (value_code, value_name)

    def attributes(self, vehicle_domain_id):
        self.preload([vehicle_domain_id])
        return self._by_domain[vehicle_domain_id]

    def validate(self, restrictions, vehicle_domain_id, field="restrictions"):
        """The restrictions in stored form, with the catalog's value names; 400 when an
        attribute or value is not offered for the pair, or a limit is passed."""
        allowed = self.attributes(vehicle_domain_id)
        where = (f"GET /catalog_compatibilities/restrictions/values?main_domain_id={vehicle_domain_id}"
                 f"&secondary_domain_id={self.item_domain_id}")
        normalized, seen_attributes = [], set()
        for r_index, restriction in enumerate(restrictions):
            attribute_id = restriction["attribute_id"]
            path = f"{field}.{r_index}"
            if attribute_id not in allowed:
                raise ApiError("restriction_not_allowed",
                               f"{path}: restriction attribute {attribute_id} is not available for vehicles of "
                               f"{vehicle_domain_id} and items of {self.item_domain_id}; see {where}")
            if attribute_id in seen_attributes:
                raise ApiError("repeated_restriction_attribute",
                               f"{path}: restriction attribute {attribute_id} is given twice; "
                               "put its alternatives as groups of one restriction")
            seen_attributes.add(attribute_id)
            values = allowed[attribute_id][1]
            groups = restriction["attribute_values"]
            if len(groups) > MAX_GROUPS:
                raise ApiError("too_many_restriction_groups",
                               f"{path}: {len(groups)} alternative groups, at most {MAX_GROUPS} are allowed")
            seen_groups, out_groups = set(), []
            for g_index, group in enumerate(groups):
                ids = [v["value_id"] for v in group["values"]]
                gpath = f"{path}.attribute_values.{g_index}"
                if len(ids) > MAX_VALUES_PER_GROUP:
                    raise ApiError("too_many_restriction_values",
                                   f"{gpath}: {len(ids)} values, at most {MAX_VALUES_PER_GROUP} per group")
                if len(set(ids)) != len(ids):
                    raise ApiError("repeated_restriction_value", f"{gpath}: a value is given twice")
                unknown = [v for v in ids if v not in values]
                if unknown:
                    raise ApiError("restriction_not_allowed",
                                   f"{gpath}: value {', '.join(unknown)} of {attribute_id} is not available "
                                   f"for vehicles of {vehicle_domain_id}; see {where}")
                key = frozenset(ids)
                if key in seen_groups:
                    raise ApiError("repeated_restriction_group",
                                   f"{gpath}: the same group of values is given twice")
                seen_groups.add(key)
                out_groups.append({"values": [{"value_id": v, "value_name": values[v][1]} for v in ids]})
            normalized.append({"attribute_id": attribute_id, "attribute_values": out_groups})
        return normalized

    def with_codes(self, restrictions, vehicle_domain_id):
        """Stored restrictions with attribute_code and value_code (null for values the catalog
        no longer offers)."""
        allowed = self.attributes(vehicle_domain_id) if vehicle_domain_id else {}
        coded = []
        for restriction in restrictions or ():
            attribute_code, values = allowed.get(restriction["attribute_id"], (None, {}))
            coded.append({
                "attribute_id": restriction["attribute_id"], "attribute_code": attribute_code,
                "attribute_values": [
                    {"values": [{"value_id": v["value_id"], "value_name": v.get("value_name"),
                                 "value_code": values.get(v["value_id"], (None,))[0]}
                                for v in group["values"]]}
                    for group in restriction["attribute_values"]]})
        return coded
