# SPDX-FileCopyrightText: 2026 The netdp authors
# SPDX-License-Identifier: Apache-2.0
# netdp: one entry point for set-up, build, run and test (idempotent).
#   make run    install dependencies (apt, once), build Release, run the main job
#   make python the same set-up, then the Python module (import netdp) into build/release/python
#   make test   same set-up, then every test: Release (warnings as errors) and ASan+UBSan
#   make docs   the docs site (mkdocs --strict) in build/site
#   make fuzz   libFuzzer on every reader and parser (clang), FUZZ_SECONDS each (default 600)
SHELL := /bin/bash
JOBS ?= $(shell nproc)
BUILD ?= build/release
ASAN_BUILD ?= build/asan
CMAKE_FLAGS ?=
APT_PACKAGES := build-essential cmake pkg-config libeigen3-dev libspectra-dev libfmt-dev nlohmann-json3-dev \
  libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev libtomlplusplus-dev zlib1g-dev liblapacke-dev libopenblas-dev \
  libboost-dev ccache libflint-dev libflint-arb-dev libgmp-dev libpugixml-dev pybind11-dev python3-pybind11 \
  libopenmpi-dev openmpi-bin help2man \
  python3 python3-dev python3-numpy python3-scipy python3-networkx python3-pandas python3-matplotlib python3-pytest \
  python3-xarray python3-venv python3-setuptools python3-wheel python3-build python3-mypy \
  python3-nbformat python3-nbclient python3-ipykernel
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

FUZZ_BUILD ?= build/fuzz
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := edge_list csv_graph graphml matrix_market toml_config data_files graph_spec schedule_spec train_overrides accountants report_input
FUZZ_PACKAGES := clang libclang-rt-14-dev libomp-dev

.PHONY: deps build python run test test-release test-asan docs bench fuzz format clean
.DEFAULT_GOAL := run

.deps-installed: Makefile
	@missing=$$(dpkg-query -W -f='$${Package} $${Status}\n' $(APT_PACKAGES) 2>/dev/null | grep -v 'install ok installed' | cut -d' ' -f1; \
	  for p in $(APT_PACKAGES); do dpkg-query -W $$p >/dev/null 2>&1 || echo $$p; done); \
	missing=$$(echo $$missing | tr ' ' '\n' | sort -u | tr '\n' ' '); \
	if [ -n "$${missing// /}" ]; then \
	  echo "installing: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
	@touch $@

# The report's chart libraries (Vega, Vega-Lite, vega-embed, inlined into every report) and its browser
# test's driver (playwright-core), from the npm registry at the versions of package-lock.json. npm
# comes with Debian's nodejs and npm when the machine has no npm of its own.
node_modules/.package-lock.json: package.json package-lock.json .deps-installed
	@command -v npm >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq nodejs npm; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

# Only for the tests: Debian's Chromium, which the report's browser test drives headless, and mkdocs,
# which builds the docs site (`make docs`; a test builds it with --strict).
TEST_PACKAGES := chromium mkdocs
.test-deps-installed: Makefile
	@for p in $(TEST_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	@touch $@

deps: .deps-installed node_modules/.package-lock.json

$(BUILD)/CMakeCache.txt: .deps-installed node_modules/.package-lock.json
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

# Only what the main job runs: the netdp command and its libraries (and its man page, which
# `cmake --install` puts beside it).
build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS) --target netdp_app netdp_man

python: build
	cmake --build $(BUILD) -j $(JOBS) --target netdp_python

# The main job: pairwise privacy on Zachary's karate club under the two gossip
# accountants (Muffliato gossip averaging, random-walk DP-SGD), as distance tables.
# Each account prints its table and keeps its JSON in out/; both are drawn in out/report.html
# (one file, opens offline).
run: build
	./$(BUILD)/bin/netdp graph --graph karate
	@mkdir -p out
	./$(BUILD)/bin/netdp account --graph karate --weights hamilton --method muffliato --rounds 20 --sigma 1 --json --out out/muffliato.json
	./$(BUILD)/bin/netdp account --graph karate --weights hamilton --method random-walk --rounds 3400 --sigma 20 --json --out out/random-walk.json
	./$(BUILD)/bin/netdp report --input out/muffliato.json out/random-walk.json --title "Zachary's karate club: Muffliato and random-walk DP-SGD" --out out/report.html

# No benchmarks here: no test runs them (`make bench` builds them).
test-release: .deps-installed node_modules/.package-lock.json .test-deps-installed
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DNETDP_WERROR=ON -DNETDP_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: .deps-installed node_modules/.package-lock.json
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Asan -DNETDP_WERROR=ON -DNETDP_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) -LE 'slow|docs'

test: test-release test-asan

# The docs site: docs/ as static HTML in build/site (open build/site/index.html), offline; --strict
# makes a broken link an error.
docs:
	@command -v mkdocs >/dev/null || { $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq mkdocs; }
	mkdocs build --strict --site-dir build/site

bench: $(BUILD)/CMakeCache.txt
	cmake -S . -B $(BUILD) -DNETDP_BUILD_BENCH=ON
	cmake --build $(BUILD) -j $(JOBS) --target netdp_benchmarks

# Each target runs FUZZ_SECONDS from the kept corpus (tests/fuzz/corpus/<target>, read only); new
# inputs go to $(FUZZ_BUILD)/corpus/<target>, a crash to $(FUZZ_BUILD)/crash-* (keep it in the
# corpus as a regression case once fixed: `make test` replays the corpus under ASan).
fuzz: .deps-installed node_modules/.package-lock.json
	@for p in $(FUZZ_PACKAGES); do dpkg-query -W $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; fi
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNETDP_FUZZ=ON \
	  -DNETDP_BUILD_TESTS=OFF -DNETDP_BUILD_BENCH=OFF -DNETDP_BUILD_APPS=OFF \
	  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all"
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target netdp_fuzzers
	@set -o pipefail; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$t && echo "== fuzz $$t for $(FUZZ_SECONDS) s" && \
	  ./$(FUZZ_BUILD)/fuzz/netdp_fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 -timeout=10 \
	    -artifact_prefix=$(FUZZ_BUILD)/ $(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t 2>&1 | tail -3 || exit 1; \
	done

format:
	clang-format -i $$(git ls-files '*.cpp' '*.hpp')

clean:
	rm -rf build
