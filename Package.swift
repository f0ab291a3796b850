// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "X11UI",
    products: [
        .library(name: "X11UI", targets: ["X11UI"]),
        .executable(name: "tooltip-demo", targets: ["tooltip-demo"]),
        .executable(name: "embed-example", targets: ["embed-example"]),
        .executable(name: "tooltip-bench", targets: ["tooltip-bench"]),
        .executable(name: "async-example", targets: ["async-example"]),
    ],
    targets: [
        // Xlib, Xft, fontconfig, cairo and the X extensions the toolkit uses.
        .systemLibrary(
            name: "CX11",
            pkgConfig: "cairo-xlib",
            providers: [
                .apt([
                    "libx11-dev", "libxext-dev", "libxrender-dev", "libxft-dev", "libfontconfig-dev",
                    "libcairo2-dev", "libxrandr-dev", "libxfixes-dev", "libfribidi-dev", "libharfbuzz-dev",
                ])
            ]
        ),
        // XTest, X-Resource and XFixes: only the test harness and the benchmark drive the pointer,
        // count server resources and read the cursor shown, so programs built on X11UI never
        // link them.
        .systemLibrary(
            name: "CXTest",
            providers: [.apt(["libxtst-dev", "libxres-dev"])]
        ),
        // libdbus-1's ABI, declared for dlopen on first use (no headers or link needed).
        .systemLibrary(name: "CDBus"),
        // Xlib's private display record and request buffer (Xlibint.h), behind a few C functions.
        .target(name: "CX11Internal", linkerSettings: [.linkedLibrary("X11")]),
        // What needs no X server: geometry, the monotonic clock, and the tooltip rules (state
        // machine, placement, layout). It cannot import CX11: the compiler keeps X out of it.
        .target(name: "X11UICore"),
        .target(name: "X11UI", dependencies: ["X11UICore", "CX11", "CX11Internal", "CDBus"]),
        .target(name: "X11TestSupport", dependencies: ["X11UI", "CX11", "CXTest"]),
        .executableTarget(name: "tooltip-demo", dependencies: ["X11UI"]),
        .executableTarget(name: "demo-tour", dependencies: ["X11TestSupport"]),
        .executableTarget(name: "embed-example", dependencies: ["X11UI", "CX11"]),
        .executableTarget(name: "async-example", dependencies: ["X11UI", "CX11"]),
        .executableTarget(name: "tooltip-bench", dependencies: ["X11UI", "X11TestSupport", "CX11", "CXTest"]),
        .testTarget(
            name: "X11UITests", dependencies: ["X11UI", "X11UICore", "X11TestSupport"],
            // Reference PNGs for the rendering tests, read from the source tree.
            exclude: ["References"]),
        .testTarget(
            name: "IntegrationTests",
            // The executables are dependencies so that `swift test` builds them to drive.
            dependencies: [
                "X11UI", "X11TestSupport", "CX11", "CXTest", "tooltip-demo", "embed-example",
                "async-example",
            ]
        ),
        .testTarget(
            name: "ReliabilityTests", dependencies: ["X11UI", "X11TestSupport", "CX11", "CXTest", "tooltip-demo"]),
    ],
    swiftLanguageModes: [.v6]
)
