# The two commands of the README:
#   make run    install what is missing, build, run the whole pipeline on the quick config
#               (in runs/: bucket map, checkpoint, strategy file, curve, plot, report)
#   make test   install what is missing, build, run the whole test suite (and the
#               fast tests again under AddressSanitizer + UndefinedBehaviorSanitizer)
JOBS ?= $(shell nproc)
DEBIAN_PACKAGES := build-essential cmake ninja-build libeigen3-dev libcereal-dev \
  libgtest-dev libbenchmark-dev libcli11-dev libspdlog-dev libfmt-dev libtoml11-dev \
  nlohmann-json3-dev gnuplot-nox
HULHE := build/release/cli/hulhe
RUN_CONFIG ?= configs/hulhe-quick.toml

.PHONY: run test deps build build-asan test-release test-asan bench format clean

run: build
	mkdir -p runs && cd runs && ../$(HULHE) run --config ../$(RUN_CONFIG)

test: test-release test-asan

deps:
	@missing=""; for p in $(DEBIAN_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)

build-asan: deps
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

test-release: build
	ctest --preset release

test-asan: build-asan
	ctest --preset asan

bench: build
	for b in build/release/bench/bench_*; do $$b; done

format:
	find game abstraction solver strategies cli tests bench -name '*.h' -o -name '*.cpp' | xargs clang-format -i

clean:
	rm -rf build
