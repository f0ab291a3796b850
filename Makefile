# X11UI: the two commands are `make demo` and `make test`. Both install what is missing first
# (Debian/Ubuntu, apt-get; sudo when not root). The Swift 6 toolchain itself must be on PATH.

SHELL := /bin/bash
SWIFT ?= swift
SCREENSHOTS ?= assets/screenshots

# Build: X11, Xft, fontconfig, cairo, RandR, XFixes, FriBidi and HarfBuzz headers; tests and
# tools: XTest, X-Resource, Xvfb, xrandr (multi-monitor tests), xcompmgr (composited tests);
# fonts: Latin, Korean, Japanese, Devanagari and emoji so every character the demo and the tests
# show has a glyph; accessibility: libdbus-1 (opened at run time when a bus is there), and for
# its tests a session bus, at-spi2-core's bus launcher and registry, pyatspi, xdotool and Orca.
PACKAGES := pkg-config libx11-dev libxext-dev libxrender-dev libxft-dev libfontconfig-dev \
	libcairo2-dev libxrandr-dev libxfixes-dev libfribidi-dev libharfbuzz-dev libxtst-dev libxres-dev xvfb \
	x11-xserver-utils xcompmgr fonts-dejavu-core fonts-nanum fonts-ipafont-gothic fonts-lohit-deva fonts-noto-color-emoji \
	libdbus-1-3 dbus-daemon dbus-bin at-spi2-core python3 python3-pyatspi xdotool orca

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

DOCC ?= $(shell dirname $$(readlink -f $$(command -v $(SWIFT))))/docc

.PHONY: all deps build demo test lint bench bench-gtk sanitize docs clean

all: build

# $(call install,PACKAGES): apt-get installs those of PACKAGES that are missing.
define install
	@missing=$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "Installing:" $$missing; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	fi
endef

deps:
	$(call install,$(PACKAGES))
	@command -v $(SWIFT) >/dev/null || { echo "error: swift (6.0 or newer) is not on PATH"; exit 1; }

build: deps
	$(SWIFT) build

# With a display: the demo on it. Without: the demo on a private Xvfb, toured by XTest, with
# a screenshot of every scene written to $(SCREENSHOTS).
demo: deps
	$(SWIFT) build --product tooltip-demo
	$(SWIFT) build --product demo-tour
	@if [ -n "$$DISPLAY" ]; then \
		exec .build/debug/tooltip-demo; \
	else \
		.build/debug/demo-tour --output $(SCREENSHOTS); \
	fi

# Every test. Tests start their own Xvfb on a free display number; none needs $$DISPLAY.
test: deps
	$(SWIFT) build --build-tests
	X11UI_EXPECT_ASAN=0 $(SWIFT) test --skip-build

lint:
	$(SWIFT) format lint --strict -r Sources Tests

bench: deps
	$(SWIFT) build -c release --product tooltip-demo
	$(SWIFT) run -c release tooltip-bench

# The same run with GTK 3 measured beside X11UI: scripts/gtk-peer.c, a one-button GTK program.
bench-gtk: deps
	$(call install,gcc libgtk-3-dev)
	mkdir -p .build
	cc -O2 -o .build/gtk-peer scripts/gtk-peer.c $$(pkg-config --cflags --libs gtk+-3.0)
	$(SWIFT) build -c release --product tooltip-demo
	$(SWIFT) run -c release tooltip-bench --peer-gtk .build/gtk-peer

# The tests under AddressSanitizer (use after free, overflows). Leak checking is off: Xlib,
# fontconfig and FreeType keep process-lifetime caches that LeakSanitizer reports; leaks are
# measured instead by the soak test (X resources over 10,000 cycles here and in make test; RSS
# only in make test, as ASan's quarantine of freed memory grows it by design). X11UI is
# single-threaded, so ThreadSanitizer has nothing of the library's to check.
sanitize: deps
	X11UI_EXPECT_ASAN=1 ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --sanitize=address --scratch-path .build/asan

# The DocC reference and articles as a static site in .build/docs (the docc plugin cannot be
# fetched here: dump the symbol graph, then docc convert). Unresolved links fail the build.
docs:
	$(SWIFT) package dump-symbol-graph --minimum-access-level public >/dev/null
	rm -rf .build/docs-symbols .build/docs && mkdir -p .build/docs-symbols
	cp .build/*/symbolgraph/X11UI.symbols.json .build/*/symbolgraph/X11UI@*.symbols.json .build/docs-symbols/ 2>/dev/null || \
		cp .build/*/symbolgraph/X11UI.symbols.json .build/docs-symbols/
	$(DOCC) convert Sources/X11UI/X11UI.docc --additional-symbol-graph-dir .build/docs-symbols \
		--output-path .build/docs --fallback-display-name X11UI --fallback-bundle-identifier org.x11ui.X11UI \
		--transform-for-static-hosting --warnings-as-errors
	@echo "Open .build/docs/index.html through a web server (python3 -m http.server -d .build/docs)."

clean:
	$(SWIFT) package clean
