# The two commands of the README:
#   make run    install what is missing, build, run the whole pipeline on the quick config
#               (in runs/: bucket map, checkpoint, strategy file, curve, plot, report)
#   make test   install what is missing (Open MPI too: the `mpi` tests run 2 and 3 ranks with
#               mpirun on this machine), build, run the whole test suite, the fast tests
#               again under AddressSanitizer + UndefinedBehaviorSanitizer (clang), then every
#               libFuzzer harness of that same build for FUZZ_SECONDS (default 10; 0 skips it)
JOBS ?= $(shell nproc)
DEBIAN_PACKAGES := build-essential cmake ninja-build libeigen3-dev libcereal-dev \
  libgtest-dev libbenchmark-dev libcli11-dev libspdlog-dev libfmt-dev libtoml11-dev \
  nlohmann-json3-dev gnuplot-nox openmpi-bin libopenmpi-dev libcpp-httplib-dev libsqlite3-dev \
  pkg-config chromium python3-websockets
# The terminal test of `hulhe play --human` types into a tmux session.
DEBIAN_PACKAGES += tmux
# The Python module (python/, docs/python.md) and its pytest suite, with Debian's python3.
DEBIAN_PACKAGES += pybind11-dev python3-dev python3-numpy python3-pytest
# The sanitizer build (tests and fuzzers) needs these: Debian's clang with libFuzzer and its
# OpenMP runtime.
FUZZ_PACKAGES := clang libclang-rt-dev libomp-dev
FUZZ_SECONDS ?= 10
HULHE := build/release/cli/hulhe
RUN_CONFIG ?= configs/hulhe-quick.toml

.PHONY: run test deps install build build-asan test-release test-asan test-fuzz bench fuzz format clean

run: build
	mkdir -p runs && cd runs && ../$(HULHE) run --config ../$(RUN_CONFIG)

test: test-release test-asan test-fuzz

deps:
	@$(MAKE) --no-print-directory install PACKAGES="$(DEBIAN_PACKAGES)"

install:
	@missing=""; for p in $(PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

build: deps
	cmake --preset release >/dev/null
	cmake --build --preset release -j $(JOBS)
	@if ls build/release/python/hulhe*.so >/dev/null 2>&1; then echo "Python module: PYTHONPATH=build/release/python /usr/bin/python3 -c 'import hulhe' (docs/python.md)"; fi

build-asan:
	@$(MAKE) --no-print-directory install PACKAGES="$(DEBIAN_PACKAGES) $(FUZZ_PACKAGES)"
	cmake --preset asan >/dev/null
	cmake --build --preset asan -j $(JOBS)

test-release: build
	ctest --preset release

test-asan: build-asan
	ctest --preset asan

bench: build
	for b in build/release/bench/bench_*; do $$b; done

# libFuzzer harnesses (fuzz/, built with the sanitizer build), FUZZ_SECONDS each under
# ASan + UBSan on a copy of the seed corpus, libFuzzer seed FUZZ_SEED (default 1: a CI run
# can be repeated); fails on a finding (reproducer in build/asan/findings/). The last step
# of `make test`; FUZZ_SECONDS=0 skips it there.
fuzz: build-asan
	fuzz/run_all.sh $(FUZZ_SECONDS)

test-fuzz: build-asan
	@if [ "$(FUZZ_SECONDS)" = 0 ]; then echo "fuzzing skipped (FUZZ_SECONDS=0)"; \
	else fuzz/run_all.sh $(FUZZ_SECONDS); fi

format:
	find util game abstraction public_tree solver best_response strategy_files agents acpc human_play resolving pipeline distributed server cli tests bench fuzz -name '*.h' -o -name '*.cpp' | xargs clang-format -i

clean:
	rm -rf build
