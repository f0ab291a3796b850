internal import CDBus
internal import Glibc

/// libdbus's calls into the connection: its socket's readiness becomes a `RunLoopSource`, its
/// timeouts `EventTimer`s, and every incoming message passes `filter(_:)` on the main actor.
extension DBusConnection {
    func installCallbacks() {
        let d = library.pointee
        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = d.connection_set_watch_functions(
            connection,
            { watch, data in
                MainActor.assumeIsolated { DBusConnection.from(data).watchChanged(watch) }
                return 1
            },
            { watch, data in MainActor.assumeIsolated { DBusConnection.from(data).removeWatch(watch) } },
            { watch, data in MainActor.assumeIsolated { DBusConnection.from(data).watchChanged(watch) } },
            me, nil)
        _ = d.connection_set_timeout_functions(
            connection,
            { timeout, data in
                MainActor.assumeIsolated { DBusConnection.from(data).timeoutChanged(timeout) }
                return 1
            },
            { timeout, data in MainActor.assumeIsolated { DBusConnection.from(data).removeTimeout(timeout) } },
            { timeout, data in MainActor.assumeIsolated { DBusConnection.from(data).timeoutChanged(timeout) } },
            me, nil)
        d.connection_set_dispatch_status_function(
            connection,
            { _, status, data in
                guard status == Int32(CDBUS_DISPATCH_DATA_REMAINS) else { return }
                MainActor.assumeIsolated { DBusConnection.from(data).scheduleDispatch() }
            }, me, nil)
        _ = d.connection_add_filter(
            connection,
            { _, message, data in
                guard let message else { return Int32(CDBUS_HANDLER_RESULT_NOT_YET_HANDLED) }
                return MainActor.assumeIsolated {
                    DBusConnection.from(data).filter(message)
                        ? Int32(CDBUS_HANDLER_RESULT_HANDLED) : Int32(CDBUS_HANDLER_RESULT_NOT_YET_HANDLED)
                }
            }, me, nil)
    }

    static func from(_ data: UnsafeMutableRawPointer?) -> DBusConnection {
        Unmanaged<DBusConnection>.fromOpaque(data!).takeUnretainedValue()
    }

    func filter(_ pointer: OpaquePointer) -> Bool {
        let message = DBusMessage(borrowing: pointer, library: library)
        if message.isSignal, message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
            scheduleDispatch()  // closing from inside dispatch would free what libdbus is using
            return true
        }
        if message.type == Int32(CDBUS_MESSAGE_TYPE_METHOD_RETURN) || message.type == Int32(CDBUS_MESSAGE_TYPE_ERROR) {
            guard let pending = pendingReplies.removeValue(forKey: message.replySerial) else { return false }
            pending.timer.cancel()
            if message.type == Int32(CDBUS_MESSAGE_TYPE_ERROR) {
                pending.handler(nil, message.errorName ?? "")
            } else {
                pending.handler(message, nil)
            }
            return true
        }
        return onMessage?(message) ?? false
    }

    func watchChanged(_ watch: OpaquePointer?) {
        guard let watch, !isClosed else { return }
        let d = library.pointee
        let raw = watch
        if let old = watches.removeValue(forKey: watch) { application.removeSource(old) }
        guard d.watch_get_enabled(raw) != 0 else { return }
        let flags = d.watch_get_flags(raw)
        var events: Int16 = 0
        if flags & UInt32(CDBUS_WATCH_READABLE) != 0 { events |= Int16(POLLIN) }
        if flags & UInt32(CDBUS_WATCH_WRITABLE) != 0 { events |= Int16(POLLOUT) }
        watches[watch] = application.addSource(fileDescriptor: d.watch_get_unix_fd(raw), events: events) {
            [weak self] revents in
            self?.watchReady(watch, revents: revents)
        }
    }

    func removeWatch(_ watch: OpaquePointer?) {
        guard let watch, !isClosed, let source = watches.removeValue(forKey: watch) else { return }
        application.removeSource(source)
    }

    func watchReady(_ watch: OpaquePointer, revents: Int16) {
        guard !isClosed, watches[watch] != nil else { return }
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= UInt32(CDBUS_WATCH_READABLE) }
        if revents & Int16(POLLOUT) != 0 { flags |= UInt32(CDBUS_WATCH_WRITABLE) }
        if revents & Int16(POLLERR) != 0 { flags |= UInt32(CDBUS_WATCH_ERROR) }
        if revents & Int16(POLLHUP) != 0 { flags |= UInt32(CDBUS_WATCH_HANGUP) }
        _ = library.pointee.watch_handle(watch, flags)
        dispatch()
    }

    func timeoutChanged(_ timeout: OpaquePointer?) {
        guard let timeout, !isClosed else { return }
        let d = library.pointee
        let raw = timeout
        timeouts.removeValue(forKey: timeout)?.cancel()
        timeoutGenerations[timeout] = nil
        guard d.timeout_get_enabled(raw) != 0 else { return }
        nextGeneration += 1
        let generation = nextGeneration
        timeoutGenerations[timeout] = generation
        let interval = Duration.milliseconds(max(0, d.timeout_get_interval(raw)))
        timeouts[timeout] = application.schedule(after: interval) { [weak self] in
            guard let self, !self.isClosed, self.timeoutGenerations[timeout] == generation else { return }
            _ = self.library.pointee.timeout_handle(raw)
            // libdbus timeouts repeat until removed or toggled (which frees or replaces this one).
            if self.timeoutGenerations[timeout] == generation { self.timeoutChanged(timeout) }
            self.dispatch()
        }
    }

    func removeTimeout(_ timeout: OpaquePointer?) {
        guard let timeout, !isClosed else { return }
        timeoutGenerations[timeout] = nil
        timeouts.removeValue(forKey: timeout)?.cancel()
    }
}
