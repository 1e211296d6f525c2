# The two commands of the README, on a fresh Debian 12 machine:
#   make demo   install what is missing, build (Release), A/B the Newton's cradle world (table, plot
#               and a page to watch it in a browser)
#   make test   install what is missing, build with AddressSanitizer + UBSan, run every CTest suite;
#               then, in the plain (Release) build, the LD_PRELOAD shim under valgrind and the
#               real clients (ODE's demos, PyODE's examples) under every model; then the fuzz
#               targets for FUZZ_SECONDS each (make fuzz)
# Also: make fuzz (clang libFuzzer targets, FUZZ_SECONDS=30 each), make bench (Release benchmarks),
# make install PREFIX=..., make clean.

DEB_PACKAGES := cmake make gcc g++ pkg-config libode-dev liblapacke-dev libsiconos-numerics-dev libplplot-dev libpng-dev plplot-driver-cairo libxml2-dev libnlopt-dev libsuitesparse-dev libopenmpi-dev openmpi-bin dpkg-dev valgrind chromium libjs-three clang clang-format libclang-rt-14-dev python3 python3-pyode python3-opengl python3-pygame python3-numpy python3-pil libglut3.12 libgl1-mesa-dri xvfb xauth libmujoco-dev libbullet-dev
BUILD        := build
BUILD_TEST   := build-test
BUILD_FUZZ   := build-fuzz
FUZZ_SECONDS ?= 30
PREFIX       ?= /usr/local
JOBS         ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: deps demo test fuzz bench install clean configure configure-test client-sources

# Installs only the Debian packages that are missing; does nothing when all are there.
deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo"; \
	else echo "impax: missing Debian packages:$$missing" >&2; \
	     echo "impax: run as root or with sudo, or install them yourself: apt-get install$$missing" >&2; exit 1; fi; \
	echo "impax: installing$$missing"; \
	$$sudo apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=$(PREFIX)

# Debian's ode and pyode source packages: ODE's demos and PyODE's examples are the shim's real
# clients (tests/realclients, tests/preload), unpacked into build-sources.
client-sources: deps
	tests/realclients/get_client_sources.sh $(CURDIR)/build-sources

configure-test: deps client-sources
	cmake -S . -B $(BUILD_TEST) -DCMAKE_BUILD_TYPE=Debug -DIMPAX_SANITIZE=ON -DIMPAX_WERROR=ON

demo: configure
	cmake --build $(BUILD) -j $(JOBS)
	./$(BUILD)/plugin/impax/impax ab worlds/plus_ex3_newtons_cradle.world --models ode,plus,routh,aplcp \
	  --plot $(BUILD)/newtons_cradle_ab.png --html $(BUILD)/newtons_cradle_ab.html
	@echo "impax: the plot is $(BUILD)/newtons_cradle_ab.png; watch the A/B in a browser: $(BUILD)/newtons_cradle_ab.html"

test: configure-test configure
	cmake --build $(BUILD_TEST) -j $(JOBS)
	ctest --test-dir $(BUILD_TEST) --output-on-failure -j $(JOBS)
	cmake --build $(BUILD) -j $(JOBS) --target shim_clients
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L 'valgrind|realclients'
	$(MAKE) --no-print-directory fuzz

# The libFuzzer targets (tests/fuzz) in a clang build of their own, each run for FUZZ_SECONDS from
# its seeds (ctest label fuzz). libFuzzer is clang's (libclang-rt-14-dev): without clang the
# step says so and is skipped.
fuzz: deps
	@if ! command -v clang >/dev/null 2>&1; then \
	  echo "impax: clang not found: the fuzz targets (tests/fuzz) are skipped" >&2; exit 0; fi; \
	CC=clang cmake -S . -B $(BUILD_FUZZ) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPAX_FUZZ=ON -DIMPAX_BUILD_TESTS=OFF \
	  -DIMPAX_BUILD_BENCH=OFF -DIMPAX_FUZZ_SECONDS=$(FUZZ_SECONDS) >/dev/null && \
	cmake --build $(BUILD_FUZZ) -j $(JOBS) --target fuzz_world fuzz_params && \
	ctest --test-dir $(BUILD_FUZZ) --output-on-failure -j $(JOBS) -L fuzz

bench: configure
	cmake --build $(BUILD) -j $(JOBS)
	@for b in $(BUILD)/bench/bench_*; do [ -x "$$b" ] && { echo "== $$b"; "$$b"; }; done

install: configure
	cmake --build $(BUILD) -j $(JOBS)
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_TEST) $(BUILD_FUZZ)
