// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
#pragma once
// Built-in classic social networks (edge lists as published with NetworkX 3).
// Node orders (documented in docs/reference/graph.md):
//  - florentine: Padgett's Florentine families, marriage ties; 15 families,
//    20 edges; nodes in lexicographic order of family name (labels).
//  - davis: Davis' Southern women; 18 women (labels = names, in Davis' table
//    order) then 14 events E1..E14; 32 nodes, 89 woman–event edges.
//  - karate: Zachary's karate club; 34 members, 78 edges; node i is member
//    i+1 of Zachary's paper; no labels.
//  - lesmis: Les Misérables co-appearances (Knuth); 77 characters, 254 edges;
//    nodes in lexicographic order of name (labels).

#include "netdp/graph/graph.hpp"

namespace netdp::graph {

Graph florentine_families();
Graph davis_southern_women();
Graph karate_club();
Graph les_miserables();

}  // namespace netdp::graph
