#!/usr/bin/env python3
"""Edit MacMD's string catalog, Sources/Localization/Localizable.xcstrings, from compact fragments.

    Scripts/catalog.py add FRAGMENT.json...   merge keys into the catalog (a key given again is replaced)
    Scripts/catalog.py format                 rewrite the catalog in its one layout (after a merge by hand)
    Scripts/catalog.py missing LANG           list the keys LANG lacks
    Scripts/catalog.py export LANG            print every key with its comment, English and LANG, as a fragment
    Scripts/catalog.py merge BASE OURS THEIRS [OUT]
                                              three-way merge (a git merge driver): a key, comment or
                                              language changed on one side wins; changed differently on both, it fails

A fragment is a JSON object of keys; each key holds "comment" and one member per language code:
a string, or for a plural an object of CLDR categories ("one", "other", ...).

    {"hover.backlinks.count": {"comment": "...", "en": {"one": "%lld backlink", "other": "%lld backlinks"},
                               "de": {"one": "%lld eingehender Link", "other": "%lld eingehende Links"}}}

The layout is the one of the checked-in file: keys sorted, one line per language, plural
categories in CLDR order, so merges of separate changes rarely touch the same lines.
The build does not need this script (CatalogPlugin compiles the file in); it is for people.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "Sources", "Localization", "Localizable.xcstrings")
CATEGORIES = ["zero", "one", "two", "few", "many", "other"]


def load():
    with open(CATALOG, encoding="utf-8") as f:
        return json.load(f)


def unit(value):
    return {"stringUnit": {"state": "translated", "value": value}}


def dump(catalog):
    def s(value):
        return json.dumps(value, ensure_ascii=False)

    lines = ["{", '  "sourceLanguage" : %s,' % s(catalog.get("sourceLanguage", "en")),
             '  "version" : %s,' % s(catalog.get("version", "1.0")), '  "strings" : {']
    keys = sorted(catalog["strings"])
    for k_index, key in enumerate(keys):
        entry = catalog["strings"][key]
        lines.append("    %s : {" % s(key))
        if "comment" in entry:
            lines.append('      "comment" : %s,' % s(entry["comment"]))
        lines.append('      "localizations" : {')
        languages = sorted(entry.get("localizations", {}))
        for l_index, language in enumerate(languages):
            localization = entry["localizations"][language]
            comma = "," if l_index < len(languages) - 1 else ""
            if "stringUnit" in localization:
                lines.append('        %s : { "stringUnit" : { "state" : %s, "value" : %s } }%s' % (
                    s(language), s(localization["stringUnit"].get("state", "translated")),
                    s(localization["stringUnit"]["value"]), comma))
            else:
                plural = localization["variations"]["plural"]
                lines.append('        %s : { "variations" : { "plural" : {' % s(language))
                present = [c for c in CATEGORIES if c in plural]
                for c_index, category in enumerate(present):
                    unit_ = plural[category]["stringUnit"]
                    lines.append('          %s : { "stringUnit" : { "state" : %s, "value" : %s } }%s' % (
                        s(category), s(unit_.get("state", "translated")), s(unit_["value"]),
                        "," if c_index < len(present) - 1 else ""))
                lines.append("        } } }%s" % comma)
        lines.append("      }")
        lines.append("    }%s" % ("," if k_index < len(keys) - 1 else ""))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def save(catalog):
    text = dump(catalog)
    json.loads(text)
    with open(CATALOG, "w", encoding="utf-8") as f:
        f.write(text)


def add(paths):
    catalog = load()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            fragment = json.load(f)
        for key, members in fragment.items():
            entry = {"localizations": {}}
            for name, value in members.items():
                if name == "comment":
                    entry["comment"] = value
                elif isinstance(value, str):
                    entry["localizations"][name] = unit(value)
                elif isinstance(value, dict):
                    unknown = set(value) - set(CATEGORIES)
                    if unknown:
                        sys.exit("%s: %s: unknown plural categories %s" % (path, key, sorted(unknown)))
                    entry["localizations"][name] = {"variations": {"plural": {c: unit(v) for c, v in value.items()}}}
                else:
                    sys.exit("%s: %s.%s: a string or an object of plural categories" % (path, key, name))
            if "comment" not in entry or "en" not in entry["localizations"]:
                sys.exit("%s: %s needs a comment and en" % (path, key))
            catalog["strings"][key] = entry
    save(catalog)


def flatten(localization):
    if "stringUnit" in localization:
        return localization["stringUnit"]["value"]
    return {c: v["stringUnit"]["value"] for c, v in localization["variations"]["plural"].items()}


def merge(base_path, ours_path, theirs_path, out_path):
    def read(path):
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    base, ours, theirs = read(base_path), read(ours_path), read(theirs_path)
    merged = dict(ours)
    strings = {}
    conflicts = []
    def pick(b, o, t, place):
        if o == t or t == b:
            return o
        if o == b:
            return t
        # Both sides changed an entry: merge it member by member (its comment, each language).
        if isinstance(b, dict) and isinstance(o, dict) and isinstance(t, dict) and place.count("/") < 2:
            members = {}
            for name in sorted(set(b) | set(o) | set(t)):
                value = pick(b.get(name), o.get(name), t.get(name), place + "/" + name)
                if value is not None:
                    members[name] = value
            return members
        conflicts.append(place)
        return o

    for key in sorted(set(base["strings"]) | set(ours["strings"]) | set(theirs["strings"])):
        b, o, t = base["strings"].get(key), ours["strings"].get(key), theirs["strings"].get(key)
        if b is not None and o is not None and t is not None:
            value = pick(b, o, t, key)
        else:
            value = pick(b, o, t, key + "/x/x")
        if value is not None:
            strings[key] = value
    merged["strings"] = strings
    with open(out_path, "w", encoding="utf-8") as f:
        f.write(dump(merged))
    if conflicts:
        sys.stderr.write("changed on both sides: %s\n" % ", ".join(conflicts))
        return 1
    return 0


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    command = argv[1]
    if command == "add":
        add(argv[2:])
    elif command == "merge":
        sys.exit(merge(argv[2], argv[3], argv[4], argv[5] if len(argv) > 5 else argv[3]))
    elif command == "format":
        save(load())
    elif command == "missing":
        for key, entry in sorted(load()["strings"].items()):
            if argv[2] not in entry.get("localizations", {}):
                print(key)
    elif command == "export":
        out = {}
        for key, entry in sorted(load()["strings"].items()):
            item = {"comment": entry.get("comment", ""), "en": flatten(entry["localizations"]["en"])}
            if argv[2] in entry["localizations"]:
                item[argv[2]] = flatten(entry["localizations"][argv[2]])
            out[key] = item
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
