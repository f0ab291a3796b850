#!/bin/sh
# release-flags.sh: the flags, after `swift build -c release`, that X11UI's installed and
# benchmarked programs are linked with (the Makefile's RELEASE); a program depending on X11UI
# gets the same memory and start-up with them (README, "Depending on X11UI"):
#
#     swift build -c release $(../X11UI/tools/release-link/release-flags.sh)
#
# - the Swift standard library linked statically (--static-swift-stdlib): its resident code is
#   the parts the program runs, not all of libswiftCore.so;
# - the C++ runtime and libgcc statically too: static-cxx/libstdc++.so here is a linker script
#   that points -lstdc++ at libstdc++.a;
# - the toolchain's lld, which packs the relative relocations (DT_RELR) and places the code run
#   at start together, in the order of startup-order.txt (`make startup-order` records it);
# - no symbols exported from the executable;
# - generic types' metadata made by the metadata accessors, with the conformances the compiler
#   knows, rather than from mangled names, which the runtime resolves at a type's first use by
#   scanning every conformance record of the program (0.25 million instructions each: 1.9
#   million of the sample scene's start-up); 25 KB more code;
# - every function in a section of its own, so that lld can place each one run at start with
#   the others and leave out each one no code calls: the program's Swift and C functions
#   (-function-sections: Swift otherwise gives only public functions a section each), the
#   compiler's private functions, which have no symbol to order them by, in one section
#   together (private-functions.ld), and the standard library's (split-stdlib.sh writes its
#   objects split into a section per function, checked against the originals, and a wrapper
#   around lld that links them; the first run takes about a minute, and the objects are kept
#   in X11UI's .build until the toolchain changes). The sample scene's resident code goes from
#   3.3 to 0.9 MB. Should the split fail, its flag is left out, with a line on standard error.
#
# Paths are absolute, so the flags work from any folder. lld ignores names in the order that a
# program does not have.
here=$(cd "$(dirname "$0")" && pwd)
split=$(cd "$here/../.." && pwd)/.build/split-stdlib

# What cannot be done here is left out, each with one line on standard error; the flags that
# remain still build a working program (ReleaseLinkFallbackTests).
# - The split reads x86-64 code only; X11UI_RELEASE_SPLIT=0 leaves it out on purpose.
linker=""
if [ "$(uname -m)" != x86_64 ]; then
	echo "release-flags: the standard library is not split on $(uname -m) (x86-64 only)" >&2
elif [ "${X11UI_RELEASE_SPLIT:-1}" = 0 ]; then
	echo "release-flags: the standard library is not split (X11UI_RELEASE_SPLIT=0)" >&2
elif "$here/split-stdlib.sh" "$split" >&2; then
	linker="-Xswiftc -Xclang-linker -Xswiftc --ld-path=$split/ld.lld"
fi
# - The C++ runtime statically needs libstdc++.a (Debian's libstdc++-N-dev, which g++ brings).
static_cxx="-Xlinker -L$here/static-cxx"
archive=$(c++ -print-file-name=libstdc++.a 2>/dev/null || gcc -print-file-name=libstdc++.a 2>/dev/null)
if [ ! -f "$archive" ]; then
	echo "release-flags: libstdc++.a is missing (install g++): the C++ runtime stays shared" >&2
	static_cxx=""
fi
echo "--static-swift-stdlib $static_cxx" \
	"-Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs" \
	"-Xlinker --symbol-ordering-file=$here/startup-order.txt -Xlinker --no-warn-symbol-ordering" \
	"-Xswiftc -Xclang-linker -Xswiftc -static-libgcc -Xlinker --no-export-dynamic" \
	"-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors" \
	"-Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections" \
	"-Xlinker -T -Xlinker $here/private-functions.ld $linker"
