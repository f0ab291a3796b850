# X11UI: the two commands are `make demo` and `make test`. Both install what is missing first
# (Debian/Ubuntu, apt-get; sudo when not root). The Swift 6 toolchain itself must be on PATH.

SHELL := /bin/bash
SWIFT ?= swift
SCREENSHOTS ?= .build/screenshots

# Build: X11, Xft, fontconfig, cairo, RandR, XFixes, FriBidi and HarfBuzz headers; tests and
# tools: XTest, X-Resource, Xvfb, xrandr (multi-monitor tests), xcompmgr (composited tests),
# openbox (tests under a window manager); fonts: Latin, Korean, Japanese, Devanagari, Thai and
# emoji so every character the demo and the tests show has a glyph; libthai (loaded at run time)
# breaks Thai lines between words; desktop-file-utils checks the installed desktop entry;
# accessibility: libdbus-1 (opened at run time when a bus is there), and for its tests a session
# bus, at-spi2-core's bus launcher and registry, pyatspi, xdotool and Orca; python3-gi runs the
# test settings portal (scripts/test-portal.py) the appearance tests read the desktop's from.
PACKAGES := pkg-config libx11-dev libxext-dev libxrender-dev libxft-dev libfontconfig-dev \
	libcairo2-dev libxrandr-dev libxfixes-dev libfribidi-dev libharfbuzz-dev libxtst-dev libxres-dev xvfb \
	x11-xserver-utils xcompmgr openbox desktop-file-utils fonts-dejavu-core fonts-nanum fonts-ipafont-gothic \
	fonts-lohit-deva fonts-tlwg-loma-ttf fonts-noto-color-emoji libthai0 libthai-data \
	libicu72 fonts-lao fonts-khmeros fonts-sil-padauk \
	libdbus-1-3 dbus-daemon dbus-bin at-spi2-core python3 python3-pyatspi python3-gi xdotool orca libxcursor1 \
	x11-xkb-utils fonts-urw-base35 binutils
# libxcursor1 (loaded at run time) reads the user's cursor theme; x11-xkb-utils (setxkbmap)
# switches keyboard layouts in the shortcut tests.
# ICU (libicu72, loaded at run time) breaks Lao, Khmer and Myanmar lines between words, as
# libthai does Thai; fonts-lao, fonts-khmeros and fonts-sil-padauk give those scripts glyphs.
# fonts-urw-base35 gives the tests CFF (OpenType) fonts, which X11UI reads from a map of the file.

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

DOCC ?= $(shell dirname $$(readlink -f $$(command -v $(SWIFT))))/docc

.PHONY: all deps build demo screenshots test lint bench bench-gtk startup-order sanitize docs clean release install install-files uninstall

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
# a screenshot of every scene written to $(SCREENSHOTS) (under .build: tracked files stay as
# they are).
demo: deps
	$(SWIFT) build --product tooltip-demo
	$(SWIFT) build --product demo-tour
	@if [ -n "$$DISPLAY" ]; then \
		exec .build/debug/tooltip-demo; \
	else \
		.build/debug/demo-tour --output $(SCREENSHOTS) && echo "Screenshots written to $(SCREENSHOTS)/"; \
	fi

# The README's gallery: the same tour, at 96 and 192 dpi and in the dark and high-contrast
# appearances, into assets/screenshots.
screenshots: deps
	$(SWIFT) build --product tooltip-demo
	$(SWIFT) build --product demo-tour
	.build/debug/demo-tour --output assets/screenshots
	.build/debug/demo-tour --output assets/screenshots --dpi 192
	.build/debug/demo-tour --output assets/screenshots --appearance dark
	.build/debug/demo-tour --output assets/screenshots --appearance high-contrast

# Every test. Tests start their own Xvfb on a free display number; none needs $$DISPLAY. A run
# that hangs is stopped after ten minutes, with where each thread waits (scripts/run-tests.sh,
# with gdb, which only the test targets install).
test: deps
	$(call install,gdb)
	$(SWIFT) build --build-tests
	X11UI_EXPECT_ASAN=0 scripts/run-tests.sh $(SWIFT) test --skip-build

# Formatting, then the layer rules: only Platform/ and Drawing/ import CX11, and no library
# file is over 400 lines (scripts/check-layers.sh).
lint:
	$(SWIFT) format lint --strict -r Sources Tests
	scripts/check-layers.sh

# Release builds link the Swift standard library statically: the demo's resident memory then
# holds the parts of the runtime it uses rather than all of libswiftCore.so (17.2 -> 14.4 MB for
# the sample scene), and the dynamic loader has eight fewer libraries to map and relocate. The
# C++ runtime the Swift runtime needs is linked statically too (1.2 MB less): scripts/static-cxx
# holds a linker script named libstdc++.so that points the linker at libstdc++.a. The executable's
# 25,000 relative relocations are packed (DT_RELR, `-z pack-relative-relocs`: 605 KB of
# .rela.dyn that the dynamic loader read at every start become 5 KB; 0.65 MB less resident).
# gold, the toolchain's default linker, cannot pack them; the toolchain's lld can, and glibc
# 2.36 (Debian 12) applies them.
#
# The code run at start is placed together (the sample scene 1.7 MB less resident): the kernel
# maps an executable's code 64 KB at a time around each page touched, and the 1,400 functions
# the demo runs until its window is up and its tooltips show (0.55 MB) were spread over 5 MB.
# lld places those named in scripts/startup-order.txt first, in that order. `make startup-order`
# rewrites that list from a valgrind (callgrind) run of the demo (scripts/startup-order.sh); a
# stale list only places less of the code together. lld moves sections, not functions, so every
# function gets a section of its own: the program's (-function-sections), the compiler's private
# ones (no symbol: scripts/private-functions.ld puts them together) and the standard library's
# (its non-generic code was one 1.6 MB section, 1.3 MB of it resident: scripts/split-stdlib.sh
# splits the toolchain's objects, checks them against the originals and links them). The
# sample scene's resident code: 3.3 MB with the list alone, 0.9 MB with the sections.
#
# scripts/release-flags.sh prints these flags (paths absolute), for this Makefile and for a
# program depending on X11UI: `swift build -c release $(../X11UI/scripts/release-flags.sh)`.
# The linker script is scripts/static-cxx/libstdc++.so.
STATIC_CXX := $(CURDIR)/scripts/static-cxx
RELEASE = -c release $(shell scripts/release-flags.sh)

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

bench: deps $(STATIC_CXX)/libstdc++.so
	$(call install,gcc g++)
	mkdir -p .build
	$(FLOOR_PEER)
	scripts/desktop-fonts.sh .build/desktop-fonts >/dev/null
	$(SWIFT) build -c release --product tooltip-demo --scratch-path .build/plain
	$(call release-objects,.build)
	$(SWIFT) build $(RELEASE) --product tooltip-demo
	$(SWIFT) build $(RELEASE) --product tooltip-bench
	.build/release/tooltip-bench --peer-floor .build/floor-peer $(BENCH_FONT_SETS)

# The order of the code run at start (see RELEASE), from the release demo run under callgrind.
startup-order: deps $(STATIC_CXX)/libstdc++.so
	$(call install,valgrind xdotool)
	$(call release-objects,.build)
	$(SWIFT) build $(RELEASE) --product tooltip-demo
	scripts/startup-order.sh .build/release/tooltip-demo scripts/startup-order.txt
	@# The list is no input SwiftPM tracks: the next build links again because these are gone.
	rm -f .build/release/tooltip-demo .build/release/tooltip-bench

# The same run with GTK 3 measured beside X11UI: scripts/gtk-peer.c, a one-button GTK program.
bench-gtk: deps $(STATIC_CXX)/libstdc++.so
	$(call install,gcc g++ libgtk-3-dev)
	mkdir -p .build
	$(FLOOR_PEER)
	cc -O2 -o .build/gtk-peer scripts/gtk-peer.c $$(pkg-config --cflags --libs gtk+-3.0)
	$(call release-objects,.build)
	$(SWIFT) build $(RELEASE) --product tooltip-demo
	$(SWIFT) build $(RELEASE) --product tooltip-bench
	scripts/desktop-fonts.sh .build/desktop-fonts >/dev/null
	$(SWIFT) build -c release --product tooltip-demo --scratch-path .build/plain
	.build/release/tooltip-bench --peer-floor .build/floor-peer --peer-gtk .build/gtk-peer $(BENCH_FONT_SETS)

# The tests under AddressSanitizer (use after free, overflows). Leak checking is off: Xlib,
# fontconfig and FreeType keep process-lifetime caches that LeakSanitizer reports; leaks are
# measured instead by the soak test (X resources over 10,000 cycles here and in make test; RSS
# only in make test, as ASan's quarantine of freed memory grows it by design). X11UI is
# single-threaded, so ThreadSanitizer has nothing of the library's to check.
sanitize: deps
	$(call install,gdb)
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan
	X11UI_EXPECT_ASAN=1 ASAN_OPTIONS=detect_leaks=0 scripts/run-tests.sh \
		$(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan

# The DocC reference and articles as a static site in .build/docs. The docc plugin cannot be
# fetched here, and `swift package dump-symbol-graph` fails until the tests are built; so the
# compiler writes X11UI's symbol graph while it builds the library alone, in its own scratch
# folder (the flags would otherwise invalidate the normal build; the graph stays there and is
# rewritten whenever the module is), then docc converts. Unresolved links fail the build.
docs: deps
	rm -rf .build/docs
	$(SWIFT) build --target X11UI --scratch-path .build/docs-build \
		-Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/.build/docs-build/symbols \
		-Xswiftc -symbol-graph-minimum-access-level -Xswiftc public
	$(DOCC) convert Sources/X11UI/X11UI.docc --additional-symbol-graph-dir .build/docs-build/symbols \
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
	$(SWIFT) build $(RELEASE) --scratch-path .build/install --product tooltip-demo

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
