"""The FHIR API checked with tools no one here wrote (run by scripts/fhir-tests.sh).

    fhir_tests.py check BASE EXPORT      every type paged through and exported to EXPORT (NDJSON);
                                         every resource and Bundle parsed by fhir.resources (R4B);
                                         fhirpy searching near, following next, reading includes
    fhir_tests.py compare SOURCE TARGET IDENTITIES
                                         the same searches on both servers, ids of SOURCE mapped
                                         through IDENTITIES (resource type, id, new id): identical
"""

import json
import math
import sys

import requests
from fhir.resources.R4B import get_fhir_model_class
from fhirpy import SyncFHIRClient

TYPES = ["Organization", "Location", "HealthcareService", "Practitioner", "PractitionerRole", "InsurancePlan"]
DENVER = (39.7392, -104.9903)
NEW_YORK = (40.7128, -74.0060)


def parse(resource):
    """Parses a resource with fhir.resources' R4B model of its type (raises when it is invalid)."""
    return get_fhir_model_class(resource["resourceType"]).model_validate(resource)


def get(url, **params):
    answer = requests.get(url, params=params, headers={"Accept": "application/fhir+json"}, timeout=60)
    assert answer.status_code == 200, f"{answer.url}: {answer.status_code} {answer.text[:500]}"
    assert answer.headers["content-type"].startswith("application/fhir+json"), answer.headers
    return answer.json()


def pages(url, **params):
    """Every page of a search, following next links."""
    bundle = get(url, **params)
    while True:
        yield bundle
        following = [link["url"] for link in bundle.get("link", []) if link["relation"] == "next"]
        if not following:
            return
        bundle = get(following[0])


def km(a, b):
    """Great-circle kilometres (haversine), independent of the server."""
    (lat1, lng1), (lat2, lng2) = a, b
    p1, p2 = math.radians(lat1), math.radians(lat2)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lng2 - lng1) / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(h)))


def check(base, export_path):
    parse(get(f"{base}/metadata"))
    bundles = resources = 0
    with open(export_path, "w") as export:
        for kind in TYPES:
            first = None
            for bundle in pages(f"{base}/{kind}", _count=100):
                parse(bundle)
                bundles += 1
                for entry in bundle.get("entry", []):
                    resource = entry["resource"]
                    parse(resource)
                    assert resource["meta"]["profile"], resource
                    first = first or resource
                    export.write(json.dumps(resource) + "\n")
                    resources += 1
            assert first is not None, f"no {kind} served"
            read = get(f"{base}/{kind}/{first['id']}")
            parse(read)
            assert read == first, f"{kind}/{first['id']}: the read differs from the search's entry"
    print(f"fhir.resources: {resources} resources in {bundles} search Bundles parsed (R4B models)")

    # A real client: near, every page to the end, includes.
    client = SyncFHIRClient(base, extra_headers={"Accept": "application/fhir+json"})
    near = f"{NEW_YORK[0]}|{NEW_YORK[1]}|150|km"
    raw = client.resources("Location").search(near=near).limit(10).fetch_raw()
    parse(raw)
    distances = []
    for entry in raw["entry"]:
        extension = entry["search"]["extension"][0]
        assert extension["url"] == "http://hl7.org/fhir/StructureDefinition/location-distance"
        position = entry["resource"]["position"]
        expected = km(NEW_YORK, (position["latitude"], position["longitude"]))
        assert abs(extension["valueDistance"]["value"] - expected) < 0.01, (extension, expected)
        distances.append(extension["valueDistance"]["value"])
    assert distances == sorted(distances), distances
    every = client.resources("Location").search(near=near).limit(10).fetch_all()
    total = get(f"{base}/Location", near=near, _summary="count")["total"]
    assert len(every) == total > 10, (len(every), total)
    assert len({location["id"] for location in every}) == total, "no location twice across pages"
    ordered = [km(NEW_YORK, (l["position"]["latitude"], l["position"]["longitude"])) for l in every]
    assert all(a <= b + 1e-6 for a, b in zip(ordered, ordered[1:])), "pages continue in distance order"
    print(f"fhirpy: near New York 150 km, {total} locations over {math.ceil(total / 10)} pages, in distance order")

    roles = (
        client.resources("PractitionerRole")
        .search(location=f"Location/{every[0]['id']}")
        .include("PractitionerRole", "practitioner")
        .include("PractitionerRole", "location")
        .include("PractitionerRole", "organization")
        .fetch_raw()
    )
    parse(roles)
    included = {
        f"{entry['resource']['resourceType']}/{entry['resource']['id']}"
        for entry in roles.get("entry", [])
        if entry["search"]["mode"] == "include"
    }
    matches = [entry["resource"] for entry in roles.get("entry", []) if entry["search"]["mode"] == "match"]
    assert matches, "the nearest location has clinicians"
    for role in matches:
        for reference in (role["practitioner"]["reference"], role["organization"]["reference"], role["location"][0]["reference"]):
            assert reference in included, (reference, included)
    practitioner = client.reference(reference=matches[0]["practitioner"]["reference"]).to_resource()
    assert practitioner["identifier"][0]["system"] == "http://hl7.org/fhir/sid/us-npi"
    print(f"fhirpy: {len(matches)} roles at Location/{every[0]['id']} with {len(included)} included resources")


def compare(source, target, identities_path):
    mapping = {}
    with open(identities_path) as identities:
        for line in identities:
            kind, resource_id, entity_id = line.split()
            mapping[(kind, resource_id)] = int(entity_id)

    def mapped(kind, value):
        return mapping[(kind, str(value))]

    def map_card(card):
        card = dict(card)
        if card["entity"] == "location":
            card["id"] = mapped("Organization", card["id"])
        else:
            card["id"] = mapped("Practitioner", card["id"])
        card["locationId"] = mapped("Location", card["locationId"])
        return card

    def search(base, origin, filters, page):
        body = {"search": {"filters": filters}}
        answer = requests.post(
            f"{base}/member/app/market/search",
            params={"lat": origin[0], "lng": origin[1], "page": page, "limit": 6},
            json=body,
            timeout=60,
        )
        assert answer.status_code == 200, answer.text
        return answer.json()

    # Origins: some seeded locations, and Denver.
    locations = get(f"{source}/fhir/r4/Location", _count=100)["entry"]
    origins = [DENVER] + [
        (entry["resource"]["position"]["latitude"] + 0.03, entry["resource"]["position"]["longitude"] - 0.02)
        for entry in locations[::17]
        if "position" in entry["resource"] and not entry["resource"]["id"].startswith("state-")
    ]
    filter_sets = [
        {},
        {"newPatients": True},
        {"pediatrics": True, "searchDistance": 9},
        {"searchByName": "family"},
        {"selectedCredentials": ["MD"], "searchDistance": 0},
        {"selectedGenders": ["F"], "newPatients": True, "searchDistance": 7},
        {"selectedLanguages": ["es"]},
        {"selectedAccessibility": ["handiaccess"], "searchDistance": 0},
    ]
    compared = 0
    for origin in origins:
        for filters in filter_sets:
            for page in (1, 2):
                before = search(source, origin, filters, page)
                after = search(target, origin, filters, page)
                expected = dict(before)
                expected["clinics"] = [map_card(card) for card in before["clinics"]]
                expected["clinicians"] = [map_card(card) for card in before["clinicians"]]
                assert expected == after, f"marketplace search differs at {origin} {filters} page {page}:\n{expected}\n{after}"
                compared += 1
        near = f"{origin[0]}|{origin[1]}|80|km"
        before = get(f"{source}/fhir/r4/Location", near=near, _count=50)
        after = get(f"{target}/fhir/r4/Location", near=near, _count=50)

        def listed(bundle, translate):
            return [
                (translate(entry["resource"]["id"]), entry["search"]["extension"][0]["valueDistance"]["value"])
                for entry in bundle.get("entry", [])
            ]

        assert listed(before, lambda id: mapped("Location", id)) == listed(after, int), f"near differs at {origin}"
        compared += 1
    print(f"round trip: {compared} searches identical on the imported catalogue (ids mapped)")
    compare_listing_facts(source, target, mapped)


EXTENSIONS = "http://hl7.org/fhir/us/davinci-pdex-plan-net/StructureDefinition/"
FACTS = {
    "Location": {
        "elements": ["hoursOfOperation"],
        "extensions": [EXTENSIONS + "accessibility", "http://hl7.org/fhir/StructureDefinition/timezone",
                       EXTENSIONS + "newpatients", "https://nearcare.example/fhir/StructureDefinition/last-verified"],
    },
    "HealthcareService": {
        "elements": ["communication", "type"],
        "extensions": [EXTENSIONS + "delivery-method", "https://nearcare.example/fhir/StructureDefinition/telehealth",
                       "https://nearcare.example/fhir/StructureDefinition/pediatric-age-range"],
    },
    "Practitioner": {
        "elements": ["communication"],
        "extensions": ["https://nearcare.example/fhir/StructureDefinition/telehealth",
                       "https://nearcare.example/fhir/StructureDefinition/last-verified"],
    },
}


def compare_listing_facts(source, target, mapped):
    """Export -> import -> export: each listing's facts (issue 23's: hours, time zone, languages,
    accessibility, telehealth, services, new patients, last verified) are the same on both sides,
    and the seeded catalogue has some of each."""
    def everything(base, kind):
        found = {}
        for bundle in pages(f"{base}/fhir/r4/{kind}", _count=100):
            for entry in bundle.get("entry", []):
                found[entry["resource"]["id"]] = entry["resource"]
        return found

    def facts(resource, kind):
        extensions = [e for e in resource.get("extension", []) if e["url"] in FACTS[kind]["extensions"]]
        return {
            "elements": {key: resource.get(key) for key in FACTS[kind]["elements"]},
            "extensions": sorted(extensions, key=json.dumps),
        }

    seen = {}
    for kind in FACTS:
        before = everything(source, kind)
        after = everything(target, kind)
        compared = 0
        for resource_id, resource in before.items():
            if resource_id.startswith("state-"):
                continue
            imported = after[str(mapped(kind, resource_id))]
            assert facts(resource, kind) == facts(imported, kind), (
                f"{kind}/{resource_id}: listing facts differ after the round trip:\n"
                f"{facts(resource, kind)}\n{facts(imported, kind)}"
            )
            compared += 1
            for key in FACTS[kind]["elements"]:
                if resource.get(key):
                    seen[f"{kind}.{key}"] = seen.get(f"{kind}.{key}", 0) + 1
            for extension in resource.get("extension", []):
                name = extension["url"].rsplit("/", 1)[-1]
                if extension.get("valueBoolean") is not False:
                    seen[f"{kind}.{name}"] = seen.get(f"{kind}.{name}", 0) + 1
        print(f"round trip: {compared} {kind} resources with the same listing facts")
    wanted = ["Location.hoursOfOperation", "Location.accessibility", "Location.timezone", "HealthcareService.communication",
              "HealthcareService.telehealth", "HealthcareService.type", "Practitioner.communication",
              "Practitioner.telehealth", "Location.last-verified", "Practitioner.last-verified"]
    missing = [fact for fact in wanted if not seen.get(fact)]
    assert not missing, f"the seed exports none of {missing}: the round trip would not check them ({seen})"
    print("round trip: listing facts carried: " + ", ".join(f"{fact} {seen[fact]}" for fact in wanted))


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)
