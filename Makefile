# The two commands of the README, on a fresh Debian 12 machine:
#   make demo   install what is missing, build (Release), A/B the Newton's cradle world (table + plot)
#   make test   install what is missing, build with AddressSanitizer + UBSan, run every CTest suite;
#               then the LD_PRELOAD shim under valgrind in the plain (Release) build
# Also: make bench (Release benchmarks), make install PREFIX=..., make clean.

DEB_PACKAGES := cmake make gcc g++ pkg-config libode-dev liblapacke-dev libsiconos-numerics-dev libplplot-dev plplot-driver-cairo libxml2-dev libnlopt-dev libsuitesparse-dev libopenmpi-dev openmpi-bin dpkg-dev valgrind
BUILD        := build
BUILD_TEST   := build-test
PREFIX       ?= /usr/local
JOBS         ?= $(shell nproc 2>/dev/null || echo 2)

.PHONY: deps demo test bench install clean configure configure-test ode-source

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

# Debian's ode source package: ODE's own demos are the shim's real clients (tests/preload).
ode-source: deps
	tests/preload/get_ode_source.sh $(CURDIR)/$(BUILD_TEST)/ode-source

configure-test: deps ode-source
	cmake -S . -B $(BUILD_TEST) -DCMAKE_BUILD_TYPE=Debug -DIMPAX_SANITIZE=ON -DIMPAX_WERROR=ON

demo: configure
	cmake --build $(BUILD) -j $(JOBS)
	./$(BUILD)/plugin/impax/impax ab worlds/plus_ex3_newtons_cradle.world --models ode,plus,routh,aplcp \
	  --plot $(BUILD)/newtons_cradle_ab.png

test: configure-test configure
	cmake --build $(BUILD_TEST) -j $(JOBS)
	ctest --test-dir $(BUILD_TEST) --output-on-failure -j $(JOBS)
	cmake --build $(BUILD) -j $(JOBS) --target impax_preload client_churn
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) -L valgrind

bench: configure
	cmake --build $(BUILD) -j $(JOBS)
	@for b in $(BUILD)/bench/bench_*; do [ -x "$$b" ] && { echo "== $$b"; "$$b"; }; done

install: configure
	cmake --build $(BUILD) -j $(JOBS)
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_TEST)
