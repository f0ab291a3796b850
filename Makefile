# X11UI: the two commands are `make demo` and `make test`. Both install what is missing first
# (Debian/Ubuntu, apt-get; sudo when not root). The Swift 6 toolchain itself must be on PATH.

SHELL := /bin/bash
SWIFT ?= swift
SCREENSHOTS ?= .build/screenshots

# What each command needs is installed first by scripts/install-deps.sh, in tiers: `demo` (the
# headers, the libraries X11UI opens at run time, the demo's fonts, Xvfb), `test` (the demo's and
# the test tools), `bench`; the script says what each holds and how release names are found.
# Nothing is installed when all is there; without root it asks through sudo, or lists the
# packages and changes nothing (X11UI_NO_INSTALL=1).
INSTALL_DEPS := scripts/install-deps.sh

# The compiler writes macro expansions under $$TMPDIR; a /tmp/swift-generated-sources left by
# another user (root, say) would send them into the working tree. Builds keep them in .build.
BUILD_TMP := $(CURDIR)/.build/tmp
SWIFT_BUILD = mkdir -p $(BUILD_TMP) && TMPDIR=$(BUILD_TMP) $(SWIFT) build

DOCC ?= $(shell dirname $$(readlink -f $$(command -v $(SWIFT))))/docc

.PHONY: all deps deps-demo deps-test build demo screenshots test release-link-test lint bench bench-gtk compare-cursor startup-order sanitize docs clean release install install-files uninstall

all: build

# The toolchain first: a missing one, or one that cannot start on this release (its own
# prerequisites, which the README lists per release), is said before anything is installed.
define check-swift
	@command -v $(SWIFT) >/dev/null || { echo "error: swift (6.0 or newer) is not on PATH: see the README, \"Before the two commands\""; exit 1; }
	@$(SWIFT) --version >/dev/null 2>&1 || { $(SWIFT) --version; echo "error: swift does not start: its own prerequisites are missing (README, \"Before the two commands\")"; exit 1; }
endef

deps: deps-demo

deps-demo:
	$(check-swift)
	@$(INSTALL_DEPS) demo

deps-test:
	$(check-swift)
	@$(INSTALL_DEPS) test

build: deps
	$(SWIFT_BUILD)

# With a display: the demo on it. Without: the demo on a private Xvfb, toured by XTest, with
# a screenshot of every scene written to $(SCREENSHOTS) (under .build: tracked files stay as
# they are).
demo: deps
	$(SWIFT_BUILD) --product tooltip-demo
	$(SWIFT_BUILD) --product demo-tour
	@if [ -n "$$DISPLAY" ]; then \
		exec .build/debug/tooltip-demo; \
	else \
		.build/debug/demo-tour --output $(SCREENSHOTS) && echo "Screenshots written to $(SCREENSHOTS)/"; \
	fi

# The README's gallery: the same tour, at 96 and 192 dpi and in the dark and high-contrast
# appearances, into assets/screenshots.
screenshots: deps
	$(SWIFT_BUILD) --product tooltip-demo
	$(SWIFT_BUILD) --product demo-tour
	.build/debug/demo-tour --output assets/screenshots
	.build/debug/demo-tour --output assets/screenshots --dpi 192
	.build/debug/demo-tour --output assets/screenshots --appearance dark
	.build/debug/demo-tour --output assets/screenshots --appearance high-contrast

# Every test. Tests start their own Xvfb on a free display number; none needs $$DISPLAY. A run
# that hangs is stopped after fifteen minutes, with where each thread waits (scripts/run-tests.sh,
# with gdb, which only the test targets install).
test: deps-test
	$(SWIFT_BUILD) --build-tests
	X11UI_EXPECT_ASAN=0 scripts/run-tests.sh $(SWIFT) test --skip-build $(RELEASE_LINK_SKIP)

# The release link's own tests (tools/release-link): the split of a C object, the consumer's
# package linked with it, and the fallback when the split cannot be made. CI runs them after
# `make test`; they need a C compiler and libstdc++.a (the test tier has both).
RELEASE_LINK_TESTS := ReleaseLinkTests|SplitTextTests
RELEASE_LINK_SKIP := --skip 'ReleaseLinkTests' --skip 'SplitTextTests'
release-link-test: deps-test
	$(SWIFT_BUILD) --build-tests
	X11UI_EXPECT_ASAN=0 scripts/run-tests.sh $(SWIFT) test --skip-build --filter '$(RELEASE_LINK_TESTS)'

# Formatting, then the layer rules: only the folders at the X edge import CX11, X11UICore has
# no dependency, and no library file is over 400 lines (scripts/check-layers.sh).
lint:
	$(SWIFT) format lint --strict -r Sources Tests
	scripts/check-layers.sh

# X11UI's own release link (tools/release-link, its README says what it does and buys): the
# installed and benchmarked demo is linked with it; the two commands and a consumer's default
# build (`swift build -c release --static-swift-stdlib`) never run it. Where a part of it cannot
# be made here (another architecture, no libstdc++.a), release-flags.sh leaves it out with a line.
STATIC_CXX := $(CURDIR)/tools/release-link/static-cxx
RELEASE = -c release $(shell tools/release-link/release-flags.sh)

# $(call release-objects,SCRATCH): SwiftPM's incremental build does not recompile when an
# -Xfrontend flag changes (-function-sections, say): the release objects under SCRATCH are
# removed when the flags differ from those they were built with.
define release-objects
	@flags='$(RELEASE)'; stamp=$(1)/release-flags.txt; \
	if [ "$$(cat $$stamp 2>/dev/null)" != "$$flags" ]; then \
		rm -rf "$$(readlink -f $(1)/release)"; mkdir -p $(1); echo "$$flags" >$$stamp; \
	fi
endef

# The floor beside X11UI: scripts/floor-peer.c, a C client on the same libraries (Xlib, Xft,
# cairo) with its tooltip drawn at start, measured the same way in the same run.
FLOOR_PEER := cc -O2 -o .build/floor-peer scripts/floor-peer.c $$(pkg-config --cflags --libs x11 xext xft cairo-xlib) -lm

# Memory and first paint are also measured in a desktop's font set (Noto Sans CJK unpacked
# under .build by scripts/desktop-fonts.sh, nothing installed) and in a plain
# `swift build -c release` of the demo (.build/plain), what a program depending on X11UI gets.
BENCH_FONT_SETS = --desktop-fonts $(CURDIR)/.build/desktop-fonts/fonts.conf \
	--plain-demo .build/plain/release/tooltip-demo

# The figures go to standard output and, as the report (scripts/bench-report.py), to
# docs/benchmarks.md and the README's table: commit them when publishing figures.
bench: $(STATIC_CXX)/libstdc++.so
	$(check-swift)
	@$(INSTALL_DEPS) bench
	mkdir -p .build
	$(FLOOR_PEER)
	scripts/desktop-fonts.sh .build/desktop-fonts >/dev/null
	$(SWIFT_BUILD) -c release --product tooltip-demo --scratch-path .build/plain
	$(call release-objects,.build)
	$(SWIFT_BUILD) $(RELEASE) --product tooltip-demo
	$(SWIFT_BUILD) $(RELEASE) --product tooltip-bench
	set -o pipefail; .build/release/tooltip-bench --peer-floor .build/floor-peer $(BENCH_FONT_SETS) | tee .build/bench.txt
	scripts/bench-report.py .build/bench.txt

# The order of the code run at start (see RELEASE), from the release demo run under callgrind.
startup-order: $(STATIC_CXX)/libstdc++.so
	$(check-swift)
	@$(INSTALL_DEPS) startup-order
	$(call release-objects,.build)
	$(SWIFT_BUILD) $(RELEASE) --product tooltip-demo
	tools/release-link/startup-order.sh .build/release/tooltip-demo tools/release-link/startup-order.txt
	@# The list is no input SwiftPM tracks: the next build links again because these are gone.
	rm -f .build/release/tooltip-demo .build/release/tooltip-bench

# The same run with GTK 3 measured beside X11UI: scripts/gtk-peer.c, a one-button GTK program.
bench-gtk: $(STATIC_CXX)/libstdc++.so
	$(check-swift)
	@$(INSTALL_DEPS) bench-gtk
	mkdir -p .build
	$(FLOOR_PEER)
	cc -O2 -o .build/gtk-peer scripts/gtk-peer.c $$(pkg-config --cflags --libs gtk+-3.0)
	$(call release-objects,.build)
	$(SWIFT_BUILD) $(RELEASE) --product tooltip-demo
	$(SWIFT_BUILD) $(RELEASE) --product tooltip-bench
	scripts/desktop-fonts.sh .build/desktop-fonts >/dev/null
	$(SWIFT_BUILD) -c release --product tooltip-demo --scratch-path .build/plain
	set -o pipefail; .build/release/tooltip-bench --peer-floor .build/floor-peer --peer-gtk .build/gtk-peer $(BENCH_FONT_SETS) | tee .build/bench.txt
	scripts/bench-report.py .build/bench.txt

# GTK 3's tooltips and X11UI's against the Adwaita cursor at 24, 48 and 96 px, on one screen:
# where each tooltip lies against the cursor's visible pixels.
compare-cursor: deps
	@$(INSTALL_DEPS) compare-cursor
	$(SWIFT_BUILD) --product tooltip-demo
	set -o pipefail; scripts/compare-cursor-gtk.sh | tee .build/compare-cursor.txt

# The tests under AddressSanitizer (use after free, overflows). Leak checking is off: Xlib,
# fontconfig and FreeType keep process-lifetime caches that LeakSanitizer reports; leaks are
# measured instead by the soak test (X resources over 10,000 cycles here and in make test; RSS
# only in make test, as ASan's quarantine of freed memory grows it by design). X11UI is
# single-threaded, so ThreadSanitizer has nothing of the library's to check.
sanitize: deps-test
	$(SWIFT_BUILD) --build-tests --sanitize=address --scratch-path .build/asan
	X11UI_EXPECT_ASAN=1 ASAN_OPTIONS=detect_leaks=0 scripts/run-tests.sh \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan $(RELEASE_LINK_SKIP)

# The DocC reference and articles as a static site in .build/docs. The docc plugin cannot be
# fetched here, and `swift package dump-symbol-graph` fails until the tests are built; so the
# compiler writes X11UI's symbol graph while it builds the library alone, in its own scratch
# folder (the flags would otherwise invalidate the normal build; the graph stays there and is
# rewritten whenever the module is), then docc converts. Unresolved links fail the build.
# X11UICore's symbols are folded into X11UI's (a copy), as X11UI re-exports them.
docs: deps
	rm -rf .build/docs
	$(SWIFT_BUILD) --target X11UI --scratch-path .build/docs-build \
		-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/docs-build/symbols \
		-Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
	rm -rf .build/docs-build/merged && cp -r .build/docs-build/symbols .build/docs-build/merged
	python3 scripts/reexport-symbols.py .build/docs-build/merged X11UI X11UICore
	$(DOCC) convert Sources/X11UI/X11UI.docc --additional-symbol-graph-dir .build/docs-build/merged \
		--output-path .build/docs --fallback-display-name X11UI --fallback-bundle-identifier org.x11ui.X11UI \
		--transform-for-static-hosting --warnings-as-errors
	@echo "Open .build/docs/index.html through a web server (python3 -m http.server -d .build/docs)."

clean:
	$(SWIFT) package clean

# Installing the demo as a desktop app: the release build (the Swift runtime linked statically,
# so it runs without the toolchain), its assets where the asset lookup finds them
# (<prefix>/share/tooltip-demo/assets, beside <prefix>/bin), a desktop entry and the icon in the
# hicolor theme. PREFIX and DESTDIR as packagers expect; `make release` then `sudo make install`
# builds as the user and only copies as root.
PREFIX ?= /usr/local
DESTDIR ?=
INSTALL_BINARY ?= .build/install/release/tooltip-demo
ICON_SIZES := 16 22 24 32 48 64 128 256
bindir = $(DESTDIR)$(PREFIX)/bin
appdir = $(DESTDIR)$(PREFIX)/share/tooltip-demo
iconsdir = $(DESTDIR)$(PREFIX)/share/icons/hicolor
desktopfile = $(DESTDIR)$(PREFIX)/share/applications/tooltip-demo.desktop

.build/install/release/tooltip-demo: Package.swift $(shell find Sources -type f)
	@$(MAKE) --no-print-directory deps
	$(call release-objects,.build/install)
	$(SWIFT_BUILD) $(RELEASE) --scratch-path .build/install --product tooltip-demo

release: .build/install/release/tooltip-demo

install: $(INSTALL_BINARY)
	@$(MAKE) --no-print-directory install-files

# The copying alone, of an INSTALL_BINARY built before (the tests install a debug build).
install-files:
	@test -x $(INSTALL_BINARY) || { echo "error: $(INSTALL_BINARY) is not built (make install builds it)"; exit 1; }
	install -D -m 755 $(INSTALL_BINARY) $(bindir)/tooltip-demo
	install -d $(appdir)/assets
	install -m 644 $(wildcard assets/*.png) $(appdir)/assets/
	install -d $(dir $(desktopfile))
	sed 's|@BINDIR@|$(PREFIX)/bin|g' assets/tooltip-demo.desktop.in > $(desktopfile)
	chmod 644 $(desktopfile)
	for size in $(ICON_SIZES); do \
		install -D -m 644 assets/tooltip-demo-$$size.png $(iconsdir)/$${size}x$$size/apps/tooltip-demo.png || exit 1; \
	done
	install -D -m 644 assets/tooltip-demo.svg $(iconsdir)/scalable/apps/tooltip-demo.svg
	@# An icon cache that exists must learn of the new icon; none is created (a stale one hides icons).
	@if [ -z "$(DESTDIR)" ] && [ -f $(iconsdir)/icon-theme.cache ] && command -v gtk-update-icon-cache >/dev/null; then \
		gtk-update-icon-cache -q -t $(iconsdir); fi

uninstall:
	rm -f $(bindir)/tooltip-demo $(desktopfile) $(iconsdir)/scalable/apps/tooltip-demo.svg \
		$(foreach size,$(ICON_SIZES),$(iconsdir)/$(size)x$(size)/apps/tooltip-demo.png)
	rm -rf $(appdir)
	@if [ -z "$(DESTDIR)" ] && [ -f $(iconsdir)/icon-theme.cache ] && command -v gtk-update-icon-cache >/dev/null; then \
		gtk-update-icon-cache -q -t $(iconsdir); fi
