"""Reads a bnsl pool file (PREFIX.pool.json) into the shape of format 1, whatever its format.

Format 2 (a "format" field) names variables and gives every class but the first as changes
against the first or against the earlier class its "base" names (by rank), and every listed
DAG as reversals of its class's DAG; it gives no essential graph, which `essential` computes
here from each class's DAG. Format 1 (no "format" field) gave whole DAGs and CPDAGs and
0-based indices. `load` returns format 1's shape either way:
variables as 0-based indices into "variables"; each class with "score", "size" (a decimal
string), "log10_size", "dag" (parent lists), "arcs" (compelled, [from, to]) and "edges"
(reversible, [u, v] with u < v), "members" and "first" (its DAGs in "dags"); "dags" with
"score", "mec" and "parents"; "edges" with "from", "to", "p", "p_edge"; "dag_count" an int.

Written from the format's description in docs/design.md ("Outputs"), apart from the C++ reader
(src/io/pool_json_read.cpp) and its essential graphs (src/pool/cpdag.cpp labels arcs by
Chickering's 1995 algorithm; `essential` here applies Meek's rules), for the command-line
tests and the benchmarks:

    sys.path.insert(0, "tests/cli/lib"); import pool_file
    pool = pool_file.load("out/alarm.pool.json")
"""
import json
import math


def essential(parents):
    """The essential graph (CPDAG) of the DAG given as parent lists: (compelled, reversible),
    compelled a set of arcs (u, v), reversible a set of pairs (u, v) with u < v. The pattern
    (the skeleton with the v-structures directed) closed under Meek's (1995) rules 1 to 3,
    which from a pattern give the essential graph (rule 4 is needed only with background
    knowledge)."""
    n = len(parents)
    adj = [set() for _ in range(n)]
    for v, ps in enumerate(parents):
        for u in ps:
            adj[u].add(v)
            adj[v].add(u)
    directed = {(a, v) for v, ps in enumerate(parents) for a in ps for b in ps
                if a != b and b not in adj[a]}

    def undirected(a, b):
        return b in adj[a] and (a, b) not in directed and (b, a) not in directed

    def forced(x, y):  # whether a rule orients the undirected x - y as x -> y
        if any((a, x) in directed and y not in adj[a] for a in adj[x]):  # rule 1
            return True
        if any((x, c) in directed and (c, y) in directed for c in adj[x]):  # rule 2
            return True
        into_y = [c for c in adj[x] if undirected(x, c) and (c, y) in directed]
        return any(d not in adj[c] for c in into_y for d in into_y if c != d)  # rule 3

    changed = True
    while changed:
        changed = False
        for v in range(n):
            for u in adj[v]:
                if undirected(u, v) and forced(u, v):
                    directed.add((u, v))
                    changed = True
    reversible = {(min(u, v), max(u, v)) for v in range(n) for u in adj[v] if undirected(u, v)}
    return directed, reversible


def load(path):
    with open(path) as f:
        return decode(json.load(f))


def decode(p):
    if "format" not in p:
        return p
    if p["format"] != 2:
        raise ValueError("pool format %r: this reader knows 2" % p["format"])
    names = p["variables"]
    index = {name: i for i, name in enumerate(names)}
    n = len(names)

    def arc(a):
        return index[a[0]], index[a[1]]

    def parents_of(arcs):
        parents = [[] for _ in range(n)]
        for u, v in arcs:
            parents[v].append(u)
        return [sorted(ps) for ps in parents]

    def arcs_of(parents):
        return {(u, v) for v, ps in enumerate(parents) for u in ps}

    def changed(base, c):
        arcs = arcs_of(base)
        for a in c.get("removed", []):
            arcs.remove(arc(a))
        for a in c.get("reversed", []):
            u, v = arc(a)
            arcs.remove((v, u))
            arcs.add((u, v))
        for a in c.get("added", []):
            arcs.add(arc(a))
        return parents_of(arcs)

    out = {k: v for k, v in p.items()
           if k not in ("classes", "dags", "edges", "format", "variable_bytes")}
    # Names that are not UTF-8 are written with U+FFFD in "variables" and given byte for byte
    # (hex) in "variable_bytes"; here as Python reads such bytes from a file name or argv
    # (surrogateescape: name.encode("utf-8", "surrogateescape") gives the bytes back).
    raw = p.get("variable_bytes", {})
    out["variables"] = [bytes.fromhex(raw[name]).decode("utf-8", "surrogateescape")
                        if name in raw else name for name in names]
    out["dag_count"] = int(p.get("dag_count_exact", p["dag_count"]))
    if p.get("constraints"):
        c = dict(p["constraints"])
        c["required"] = [list(arc(a)) for a in c.get("required", [])]
        c["forbidden"] = [list(arc(a)) for a in c["forbidden"]]
        out["constraints"] = c
    out["edges"] = [dict(e, **{"from": index[e["from"]], "to": index[e["to"]]})
                    for e in p["edges"]]
    out["classes"], out["dags"] = [], []
    if "dags" in p:  # a list of DAGs without classes
        base = None
        for d in p["dags"]:
            if base is None:
                base = parents_of({(index[u], index[v]) for v, ps in d["dag"].items()
                                   for u in ps})
                parents = base
            else:
                parents = changed(base, d)
            out["dags"].append({"score": d["score"], "mec": -1, "parents": parents})
        return out
    dags = []  # each class's DAG, for the later ones
    for k, c in enumerate(p["classes"]):
        if k == 0:
            dag = parents_of({(index[u], index[v]) for v, ps in c["dag"].items() for u in ps})
        else:
            base = c.get("base", 1) - 1  # the rank of the class it changes, the first by default
            assert 0 <= base < k, "classes[%d].base: not an earlier class" % k
            dag = changed(dags[base], c)
        dags.append(dag)
        compelled, reversible = essential(dag)
        size = int(c.get("size_exact", c["size"]))
        numbered = [(u, v) for v in range(n) for u in dag[v]]
        first = len(out["dags"])
        for m in c.get("members", []):
            score, flips = (m["score"], m["reversed"]) if isinstance(m, dict) else (c["score"], m)
            arcs = arcs_of(dag)
            for number in flips:
                u, v = numbered[number - 1]
                arcs.remove((u, v))
                arcs.add((v, u))
            out["dags"].append({"score": score, "mec": k, "parents": parents_of(arcs)})
        listed = len(out["dags"]) - first
        out["classes"].append({
            "score": c["score"], "size": str(size), "log10_size": math.log10(size),
            "members": listed, "first": first if listed else None,
            "arcs": sorted(map(list, compelled)), "edges": sorted(map(list, reversible)),
            "dag": dag})
    # Class by class is best first up to rounding: the DAGs in order of score (stably), and
    # each class's first DAG where it lands.
    out["dags"].sort(key=lambda d: -d["score"])
    for i in reversed(range(len(out["dags"]))):
        out["classes"][out["dags"][i]["mec"]]["first"] = i
    return out
