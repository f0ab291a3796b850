internal import Glibc

/// A file descriptor the run loop polls beside the X connection (the accessibility bus, say).
///
/// The run loop calls `handler` with the `poll` revents whenever the descriptor is ready; a
/// source stays until `Application.removeSource(_:)`.
@MainActor
final class RunLoopSource {
    let fileDescriptor: Int32
    let events: Int16
    let handler: @MainActor (_ revents: Int16) -> Void
    /// Set once the source is removed, so a handler removed by another handler is not called.
    fileprivate(set) var isRemoved = false

    init(fileDescriptor: Int32, events: Int16, handler: @escaping @MainActor (_ revents: Int16) -> Void) {
        self.fileDescriptor = fileDescriptor
        self.events = events
        self.handler = handler
    }
}

extension Application {
    /// Polls `fileDescriptor` for `events` in the run loop and calls `handler` when it is ready.
    @discardableResult
    func addSource(
        fileDescriptor: Int32, events: Int16, handler: @escaping @MainActor (_ revents: Int16) -> Void
    ) -> RunLoopSource {
        let source = RunLoopSource(fileDescriptor: fileDescriptor, events: events, handler: handler)
        sources.append(source)
        return source
    }

    /// Stops polling a source.
    func removeSource(_ source: RunLoopSource) {
        source.isRemoved = true
        sources.removeAll { $0 === source }
    }

    /// Handles the sources that are ready now, without waiting: a host's own loop polls only
    /// the X connection, so `processPending()` looks at the others each time it runs.
    func handleReadySourcesWithoutWaiting() {
        guard !sources.isEmpty else { return }
        let polled = sources
        var descriptors = polled.map { pollfd(fd: $0.fileDescriptor, events: $0.events, revents: 0) }
        guard poll(&descriptors, nfds_t(descriptors.count), 0) > 0 else { return }
        handleReadySources(polled, descriptors[...])
    }

    /// Calls the handlers of the sources `ppoll` found ready (`descriptors` after the X
    /// connection's, in the order of `polled`).
    func handleReadySources(_ polled: [RunLoopSource], _ descriptors: ArraySlice<pollfd>) {
        for (source, descriptor) in zip(polled, descriptors) where descriptor.revents != 0 && !source.isRemoved {
            source.handler(descriptor.revents)
        }
    }
}
