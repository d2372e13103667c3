#!/usr/bin/env python3
"""Readers of BIF, XMLBIF and Hugin NET written from the formats' published descriptions,
independently of bnsl's C++ readers and writers, to check the files bnsl writes.

- BIF: the interchange format of Cozman (BIF 0.15, "The Interchange Format for Bayesian
  Networks"): blocks "network NAME { }", "variable NAME { type discrete [ K ] { s1, s2 }; }",
  "probability ( CHILD | P1, P2 ) { (ps1, ps2) p1, p2; ... }" or "table ...;", C/C++
  comments, "," and "|" as separators. On top of the grammar, the stricter rules of the readers
  in use: bnlearn's read.bif finds variable names with \\w+ and pgmpy's BIF reader takes states
  of printable ASCII without blanks, so those are required here too.
- XMLBIF 0.3: <BIF><NETWORK> with <VARIABLE TYPE="nature"> (<NAME>, <OUTCOME>s, <PROPERTY>s)
  and <DEFINITION> (<FOR>, <GIVEN>s, <TABLE>: the last GIVEN fastest, FOR fastest of all), read
  with Python's own XML parser.
- Hugin NET: "net { }", "node NAME { states = ("a" "b"); ... }", "potential ( C | P1 P2 ) {
  data = ((...)); }", "%" comments; data nested with the first parent outermost.

Usage: independent_readers.py EXPECTED.json NET.bif NET.xml NET.net
EXPECTED.json: {"names": [...], "states": {name: [...]}, "parents": {name: [...]}} with the
ORIGINAL names. Each file must parse; its structure, states and CPTs (by original name, after
decoding the recorded bnsl_name / bnsl_states) must equal the others' and the expected ones.
Prints "N passed, 0 failed" or exits 1 with the reason.
"""
import json
import re
import sys
import urllib.parse
import xml.etree.ElementTree as ET

BIF_WORD = re.compile(r"^[A-Za-z0-9_]+$")
STATE_WORD = re.compile(r'^[!-~]+$')  # printable ASCII, no blank


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def decode(text):
    return urllib.parse.unquote(text, errors="strict")


# ---------------------------------------------------------------------------- BIF


def bif_tokens(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    out = []
    for m in re.finditer(r'[{}()\[\];]|[^\s{}()\[\];,|]+', text):
        out.append(m.group(0))
    return out


def read_bif(path):
    toks = bif_tokens(open(path, encoding="ascii").read())  # BIF is ASCII
    pos = 0

    def take():
        nonlocal pos
        pos += 1
        return toks[pos - 1]

    def expect(t):
        got = take()
        if got != t:
            fail(f"{path}: expected '{t}', got '{got}'")

    variables, records, probs = [], {}, []
    while pos < len(toks):
        key = take()
        if key == "network":
            while toks[pos] != "{":
                take()
            expect("{")
            depth = 1
            while depth:
                t = take()
                depth += {"{": 1, "}": -1}.get(t, 0)
        elif key == "variable":
            name = take()
            if not BIF_WORD.match(name):
                fail(f"{path}: variable name '{name}' is not a \\w+ word")
            expect("{")
            states = None
            while toks[pos] != "}":
                k = take()
                if k == "type":
                    expect("discrete")
                    expect("[")
                    n = int(take())
                    expect("]")
                    expect("{")
                    states = []
                    while toks[pos] != "}":
                        s = take()
                        if not STATE_WORD.match(s) or '"' in s:
                            fail(f"{path}: state '{s}' is not printable ASCII without quotes")
                        states.append(s)
                    expect("}")
                    expect(";")
                    if len(states) != n:
                        fail(f"{path}: {name} declares {n} states, lists {len(states)}")
                elif k == "property":
                    words = []
                    while toks[pos] != ";":
                        words.append(take())
                    expect(";")
                    if len(words) >= 3 and words[1] == "=" and words[0] in ("bnsl_name", "bnsl_states"):
                        records.setdefault(name, {})[words[0]] = [decode(w) for w in words[2:]]
                else:
                    fail(f"{path}: unexpected '{k}' in variable {name}")
            expect("}")
            variables.append((name, states))
        elif key == "probability":
            expect("(")
            head = []
            while toks[pos] != ")":
                head.append(take())
            expect(")")
            expect("{")
            rows = []
            while toks[pos] != "}":
                if toks[pos] == "(":
                    take()
                    cfg = []
                    while toks[pos] != ")":
                        cfg.append(take())
                    take()
                else:
                    word = take()
                    if word != "table":
                        fail(f"{path}: expected 'table' or '(', got '{word}'")
                    cfg = None
                vals = []
                while toks[pos] != ";":
                    vals.append(float(take()))
                take()
                rows.append((cfg, vals))
            expect("}")
            probs.append((head, rows))
        else:
            fail(f"{path}: unexpected block '{key}'")
    states = dict(variables)
    net = {"names": [n for n, _ in variables], "states": states, "parents": {}, "cpt": {}}
    for head, rows in probs:
        child, parents = head[0], head[1:]
        net["parents"][child] = parents
        cpt = {}
        for cfg, vals in rows:
            if cfg is None:
                if parents:
                    fail(f"{path}: bnsl writes conditional CPTs row by row")
                cpt[()] = vals
            else:
                cpt[tuple(cfg)] = vals
        net["cpt"][child] = cpt
    return restore(net, records)


# ---------------------------------------------------------------------------- XMLBIF


def read_xmlbif(path):
    root = ET.parse(path).getroot()
    if root.tag != "BIF" or root.get("VERSION") != "0.3":
        fail(f"{path}: root is not <BIF VERSION=\"0.3\">")
    network = root.find("NETWORK")
    net = {"names": [], "states": {}, "parents": {}, "cpt": {}}
    records = {}
    for var in network.findall("VARIABLE"):
        name = var.find("NAME").text
        net["names"].append(name)
        net["states"][name] = [o.text for o in var.findall("OUTCOME")]
        for p in var.findall("PROPERTY"):
            key, _, value = p.text.partition("=")
            if key.strip() in ("bnsl_name", "bnsl_states"):
                records.setdefault(name, {})[key.strip()] = [decode(w) for w in value.split()]
    for d in network.findall("DEFINITION"):
        child = d.find("FOR").text
        parents = [g.text for g in d.findall("GIVEN")]
        values = [float(x) for x in d.find("TABLE").text.split()]
        net["parents"][child] = parents
        net["cpt"][child] = table_by_config(values, child, parents, net["states"])
    return restore(net, records)


def table_by_config(values, child, parents, states):
    """Flat values, the last parent fastest and the child fastest of all."""
    r = len(states[child])
    configs = [()]
    for p in parents:  # the first parent slowest
        configs = [c + (s,) for c in configs for s in states[p]]
    if len(values) != r * len(configs):
        fail(f"{child}: {len(values)} values for {len(configs)} configurations of {r} states")
    return {c: values[i * r:(i + 1) * r] for i, c in enumerate(configs)}


# ---------------------------------------------------------------------------- Hugin NET


def net_tokens(text):
    out = []
    for m in re.finditer(r'%[^\n]*|"((?:[^"\\]|\\.)*)"|[{}()=;|]|[^\s{}()=;|"%]+', text):
        t = m.group(0)
        if t.startswith("%"):
            continue
        out.append(("str", m.group(1)) if t.startswith('"') else ("tok", t))
    return out


def read_net(path):
    toks = net_tokens(open(path, encoding="utf-8").read())
    pos = 0
    net = {"names": [], "states": {}, "parents": {}, "cpt": {}}
    records = {}

    def value():
        nonlocal pos
        if toks[pos][1] == "(":
            depth = 0
            items = []
            while True:
                kind, t = toks[pos]
                pos += 1
                if kind == "tok" and t == "(":
                    depth += 1
                elif kind == "tok" and t == ")":
                    depth -= 1
                    if depth == 0:
                        return items
                else:
                    items.append((kind, t))
        pos += 1
        return [toks[pos - 1]]

    def attributes(name):
        nonlocal pos
        attrs = {}
        pos += 1  # '{'
        while toks[pos][1] != "}":
            key = toks[pos][1]
            if toks[pos + 1][1] != "=":
                fail(f"{path}: expected '=' after {key}")
            pos += 2
            attrs[key] = value()
            if toks[pos][1] != ";":
                fail(f"{path}: expected ';' after {key}")
            pos += 1
        pos += 1
        return attrs

    while pos < len(toks):
        key = toks[pos][1]
        pos += 1
        if key == "net":
            attributes(None)
        elif key == "node":
            name = toks[pos][1]
            pos += 1
            if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name):
                fail(f"{path}: node name '{name}' is not an identifier")
            attrs = attributes(name)
            net["names"].append(name)
            net["states"][name] = [t for _, t in attrs["states"]]
            for k in ("bnsl_name", "bnsl_states"):
                if k in attrs:
                    records.setdefault(name, {})[k] = [decode(w) for w in attrs[k][0][1].split()]
        elif key == "potential":
            pos += 1  # '('
            head = []
            while toks[pos][1] != ")":
                if toks[pos][1] != "|":
                    head.append(toks[pos][1])
                pos += 1
            pos += 1
            attrs = attributes(head[0])
            values = [float(t) for _, t in attrs["data"]]
            net["parents"][head[0]] = head[1:]
            net["cpt"][head[0]] = table_by_config(values, head[0], head[1:], net["states"])
        else:
            fail(f"{path}: unexpected '{key}'")
    return restore(net, records)


# ---------------------------------------------------------------------------- comparison


def restore(net, records):
    """Renames variables and states by the recorded originals (bnsl_name, bnsl_states)."""
    rename = {n: records.get(n, {}).get("bnsl_name", [n])[0] for n in net["names"]}
    states = {}
    for n in net["names"]:
        old = net["states"][n]
        new = records.get(n, {}).get("bnsl_states", old)
        if len(new) != len(old):
            fail(f"recorded states of {n}: {len(new)}, not {len(old)}")
        states[n] = dict(zip(old, new))
    out = {"names": [rename[n] for n in net["names"]], "states": {}, "parents": {}, "cpt": {}}
    for n in net["names"]:
        out["states"][rename[n]] = [states[n][s] for s in net["states"][n]]
        parents = net["parents"][n]
        out["parents"][rename[n]] = [rename[p] for p in parents]
        cpt = {}
        for cfg, vals in net["cpt"][n].items():
            key = tuple(sorted(zip([rename[p] for p in parents],
                                   [states[p][s] for p, s in zip(parents, cfg)])))
            cpt[key] = vals
        out["cpt"][rename[n]] = cpt
    return out


def same(a, b, what):
    if a["names"] != b["names"]:
        fail(f"{what}: names {a['names']} != {b['names']}")
    for n in a["names"]:
        if a["states"][n] != b["states"][n]:
            fail(f"{what}: states of {n}: {a['states'][n]} != {b['states'][n]}")
        if sorted(a["parents"][n]) != sorted(b["parents"][n]):
            fail(f"{what}: parents of {n}: {a['parents'][n]} != {b['parents'][n]}")
        if a["cpt"][n] != b["cpt"][n]:
            fail(f"{what}: CPT of {n} differs")


def main():
    expected = json.load(open(sys.argv[1], encoding="utf-8"))
    bif, xml, net = read_bif(sys.argv[2]), read_xmlbif(sys.argv[3]), read_net(sys.argv[4])
    passed = 0
    for what, got in (("BIF", bif), ("XMLBIF", xml), ("NET", net)):
        if got["names"] != expected["names"]:
            fail(f"{what}: names {got['names']} != {expected['names']}")
        for n in expected["names"]:
            if sorted(got["parents"][n]) != sorted(expected["parents"][n]):
                fail(f"{what}: parents of {n}: {got['parents'][n]}")
            if n in expected["states"] and sorted(got["states"][n]) != sorted(expected["states"][n]):
                fail(f"{what}: states of {n}: {got['states'][n]}")
        passed += 1
    same(bif, xml, "BIF vs XMLBIF")
    same(bif, net, "BIF vs NET")
    passed += 2
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
