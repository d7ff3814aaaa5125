// SPDX-FileCopyrightText: 2026 The netdp authors
// SPDX-License-Identifier: Apache-2.0
// Built-in classic graphs. Edge lists as shipped by NetworkX 3.6
// (florentine_families_graph, davis_southern_women_graph, karate_club_graph,
// les_miserables_graph), renumbered in the node orders of classic.hpp.
// Generated once by a script printing the lists; the tests check node and edge
// counts and published facts (degrees, diameters).
#include "netdp/graph/classic.hpp"

#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <vector>

namespace netdp::graph {
namespace {

constexpr const char* kFlorentineNames[] = {
    "Acciaiuoli", "Albizzi", "Barbadori", "Bischeri", "Castellani", "Ginori",  "Guadagni",   "Lamberteschi",
    "Medici",     "Pazzi",   "Peruzzi",   "Ridolfi",  "Salviati",   "Strozzi", "Tornabuoni",
};
constexpr std::uint8_t kFlorentineEdges[][2] = {
    {0, 8},  {1, 5}, {1, 6},  {1, 8},  {2, 4},  {2, 8},  {3, 6},  {3, 10},  {3, 13},  {4, 10},
    {4, 13}, {6, 7}, {6, 14}, {8, 11}, {8, 12}, {8, 14}, {9, 12}, {10, 13}, {11, 13}, {11, 14},
};
static_assert(std::size(kFlorentineEdges) == 20);
constexpr const char* kDavisNames[] = {
    "Evelyn Jefferson",
    "Laura Mandeville",
    "Theresa Anderson",
    "Brenda Rogers",
    "Charlotte McDowd",
    "Frances Anderson",
    "Eleanor Nye",
    "Pearl Oglethorpe",
    "Ruth DeSand",
    "Verne Sanderson",
    "Myra Liddel",
    "Katherina Rogers",
    "Sylvia Avondale",
    "Nora Fayette",
    "Helen Lloyd",
    "Dorothy Murchison",
    "Olivia Carleton",
    "Flora Price",
    "E1",
    "E2",
    "E3",
    "E4",
    "E5",
    "E6",
    "E7",
    "E8",
    "E9",
    "E10",
    "E11",
    "E12",
    "E13",
    "E14",
};
constexpr std::uint8_t kDavisEdges[][2] = {
    {0, 18},  {0, 19},  {0, 20},  {0, 21},  {0, 22},  {0, 23},  {0, 25},  {0, 26},  {1, 18},  {1, 19},
    {1, 20},  {1, 22},  {1, 23},  {1, 24},  {1, 25},  {2, 19},  {2, 20},  {2, 21},  {2, 22},  {2, 23},
    {2, 24},  {2, 25},  {2, 26},  {3, 18},  {3, 20},  {3, 21},  {3, 22},  {3, 23},  {3, 24},  {3, 25},
    {4, 20},  {4, 21},  {4, 22},  {4, 24},  {5, 20},  {5, 22},  {5, 23},  {5, 25},  {6, 22},  {6, 23},
    {6, 24},  {6, 25},  {7, 23},  {7, 25},  {7, 26},  {8, 22},  {8, 24},  {8, 25},  {8, 26},  {9, 24},
    {9, 25},  {9, 26},  {9, 29},  {10, 25}, {10, 26}, {10, 27}, {10, 29}, {11, 25}, {11, 26}, {11, 27},
    {11, 29}, {11, 30}, {11, 31}, {12, 24}, {12, 25}, {12, 26}, {12, 27}, {12, 29}, {12, 30}, {12, 31},
    {13, 23}, {13, 24}, {13, 26}, {13, 27}, {13, 28}, {13, 29}, {13, 30}, {13, 31}, {14, 24}, {14, 25},
    {14, 27}, {14, 28}, {14, 29}, {15, 25}, {15, 26}, {16, 26}, {16, 28}, {17, 26}, {17, 28},
};
static_assert(std::size(kDavisEdges) == 89);
constexpr std::uint8_t kKarateEdges[][2] = {
    {0, 1},   {0, 2},   {0, 3},   {0, 4},   {0, 5},   {0, 6},   {0, 7},   {0, 8},   {0, 10},  {0, 11},
    {0, 12},  {0, 13},  {0, 17},  {0, 19},  {0, 21},  {0, 31},  {1, 2},   {1, 3},   {1, 7},   {1, 13},
    {1, 17},  {1, 19},  {1, 21},  {1, 30},  {2, 3},   {2, 7},   {2, 8},   {2, 9},   {2, 13},  {2, 27},
    {2, 28},  {2, 32},  {3, 7},   {3, 12},  {3, 13},  {4, 6},   {4, 10},  {5, 6},   {5, 10},  {5, 16},
    {6, 16},  {8, 30},  {8, 32},  {8, 33},  {9, 33},  {13, 33}, {14, 32}, {14, 33}, {15, 32}, {15, 33},
    {18, 32}, {18, 33}, {19, 33}, {20, 32}, {20, 33}, {22, 32}, {22, 33}, {23, 25}, {23, 27}, {23, 29},
    {23, 32}, {23, 33}, {24, 25}, {24, 27}, {24, 31}, {25, 31}, {26, 29}, {26, 33}, {27, 33}, {28, 31},
    {28, 33}, {29, 32}, {29, 33}, {30, 32}, {30, 33}, {31, 32}, {31, 33}, {32, 33},
};
static_assert(std::size(kKarateEdges) == 78);
constexpr const char* kLesMisNames[] = {
    "Anzelma",        "Babet",          "Bahorel",        "Bamatabois",       "BaronessT",     "Blacheville",
    "Bossuet",        "Boulatruelle",   "Brevet",         "Brujon",           "Champmathieu",  "Champtercier",
    "Chenildieu",     "Child1",         "Child2",         "Claquesous",       "Cochepaille",   "Combeferre",
    "Cosette",        "Count",          "CountessDeLo",   "Courfeyrac",       "Cravatte",      "Dahlia",
    "Enjolras",       "Eponine",        "Fameuil",        "Fantine",          "Fauchelevent",  "Favourite",
    "Feuilly",        "Gavroche",       "Geborand",       "Gervais",          "Gillenormand",  "Grantaire",
    "Gribier",        "Gueulemer",      "Isabeau",        "Javert",           "Joly",          "Jondrette",
    "Judge",          "Labarre",        "Listolier",      "LtGillenormand",   "Mabeuf",        "Magnon",
    "Marguerite",     "Marius",         "MlleBaptistine", "MlleGillenormand", "MlleVaubois",   "MmeBurgon",
    "MmeDeR",         "MmeHucheloup",   "MmeMagloire",    "MmePontmercy",     "MmeThenardier", "Montparnasse",
    "MotherInnocent", "MotherPlutarch", "Myriel",         "Napoleon",         "OldMan",        "Perpetue",
    "Pontmercy",      "Prouvaire",      "Scaufflaire",    "Simplice",         "Thenardier",    "Tholomyes",
    "Toussaint",      "Valjean",        "Woman1",         "Woman2",           "Zephine",
};
constexpr std::uint8_t kLesMisEdges[][2] = {
    {0, 25},  {0, 58},  {0, 70},  {1, 9},   {1, 15},  {1, 25},  {1, 31},  {1, 37},  {1, 39},  {1, 58},
    {1, 59},  {1, 70},  {1, 73},  {2, 6},   {2, 17},  {2, 21},  {2, 24},  {2, 30},  {2, 31},  {2, 35},
    {2, 40},  {2, 46},  {2, 49},  {2, 55},  {2, 67},  {3, 8},   {3, 10},  {3, 12},  {3, 16},  {3, 27},
    {3, 39},  {3, 42},  {3, 73},  {4, 34},  {4, 49},  {5, 23},  {5, 26},  {5, 27},  {5, 29},  {5, 44},
    {5, 71},  {5, 76},  {6, 17},  {6, 21},  {6, 24},  {6, 30},  {6, 31},  {6, 35},  {6, 40},  {6, 46},
    {6, 49},  {6, 55},  {6, 67},  {6, 73},  {7, 70},  {8, 10},  {8, 12},  {8, 16},  {8, 42},  {8, 73},
    {9, 15},  {9, 25},  {9, 31},  {9, 37},  {9, 59},  {9, 70},  {10, 12}, {10, 16}, {10, 42}, {10, 73},
    {11, 62}, {12, 16}, {12, 42}, {12, 73}, {13, 14}, {13, 31}, {14, 31}, {15, 24}, {15, 25}, {15, 37},
    {15, 39}, {15, 58}, {15, 59}, {15, 70}, {15, 73}, {16, 42}, {16, 73}, {17, 21}, {17, 24}, {17, 30},
    {17, 31}, {17, 35}, {17, 40}, {17, 46}, {17, 49}, {17, 67}, {18, 34}, {18, 39}, {18, 45}, {18, 49},
    {18, 51}, {18, 58}, {18, 70}, {18, 71}, {18, 72}, {18, 73}, {18, 75}, {19, 62}, {20, 62}, {21, 24},
    {21, 25}, {21, 30}, {21, 31}, {21, 35}, {21, 40}, {21, 46}, {21, 49}, {21, 55}, {21, 67}, {22, 62},
    {23, 26}, {23, 27}, {23, 29}, {23, 44}, {23, 71}, {23, 76}, {24, 30}, {24, 31}, {24, 35}, {24, 39},
    {24, 40}, {24, 46}, {24, 49}, {24, 55}, {24, 67}, {24, 73}, {25, 37}, {25, 46}, {25, 49}, {25, 58},
    {25, 59}, {25, 70}, {26, 27}, {26, 29}, {26, 44}, {26, 71}, {26, 76}, {27, 29}, {27, 39}, {27, 44},
    {27, 48}, {27, 58}, {27, 65}, {27, 69}, {27, 70}, {27, 71}, {27, 73}, {27, 76}, {28, 36}, {28, 39},
    {28, 60}, {28, 73}, {29, 44}, {29, 71}, {29, 76}, {30, 31}, {30, 35}, {30, 40}, {30, 46}, {30, 49},
    {30, 67}, {31, 35}, {31, 37}, {31, 39}, {31, 40}, {31, 46}, {31, 49}, {31, 53}, {31, 55}, {31, 59},
    {31, 67}, {31, 70}, {31, 73}, {32, 62}, {33, 73}, {34, 45}, {34, 47}, {34, 49}, {34, 51}, {34, 73},
    {35, 40}, {35, 55}, {35, 67}, {37, 39}, {37, 58}, {37, 59}, {37, 70}, {37, 73}, {38, 73}, {39, 58},
    {39, 59}, {39, 69}, {39, 70}, {39, 72}, {39, 73}, {39, 74}, {39, 75}, {40, 46}, {40, 49}, {40, 55},
    {40, 67}, {41, 53}, {42, 73}, {43, 73}, {44, 71}, {44, 76}, {45, 49}, {45, 51}, {46, 49}, {46, 61},
    {47, 58}, {48, 73}, {49, 51}, {49, 66}, {49, 70}, {49, 71}, {49, 73}, {50, 56}, {50, 62}, {50, 73},
    {51, 52}, {51, 57}, {51, 73}, {54, 73}, {56, 62}, {56, 73}, {57, 66}, {58, 70}, {58, 73}, {59, 70},
    {59, 73}, {60, 73}, {62, 63}, {62, 64}, {62, 73}, {65, 69}, {66, 70}, {68, 73}, {69, 73}, {70, 73},
    {71, 76}, {72, 73}, {73, 74}, {73, 75},
};
static_assert(std::size(kLesMisEdges) == 254);

Graph build(std::size_t n, std::span<const std::uint8_t[2]> pairs) {
  std::vector<Edge> edges;
  edges.reserve(pairs.size());
  for (const auto& pair : pairs) edges.push_back({pair[0], pair[1]});
  return Graph::from_edges(n, edges);
}

Graph build_labelled(std::span<const char* const> names, std::span<const std::uint8_t[2]> pairs) {
  Graph g = build(names.size(), pairs);
  g.set_labels(std::vector<std::string>(names.begin(), names.end()));
  return g;
}

}  // namespace

Graph florentine_families() { return build_labelled(kFlorentineNames, kFlorentineEdges); }

Graph davis_southern_women() { return build_labelled(kDavisNames, kDavisEdges); }

Graph karate_club() { return build(34, kKarateEdges); }

Graph les_miserables() { return build_labelled(kLesMisNames, kLesMisEdges); }

}  // namespace netdp::graph
