/// What an application tells the desktop beyond its windows' own properties: the end of its
/// launch (startup notification) and when the user last used it (`_NET_WM_USER_TIME`).
struct DesktopSession {
    /// The launch sequence still to complete; nil once the first window mapped, or when the
    /// program was not launched with one (and for applications on a host program's display:
    /// the host owns its launch).
    var startup: StartupNotification?
    /// The server time of the latest key or button press in any window, for the user time of
    /// windows shown later (a window opened by a click gets the focus the click asked for).
    var lastUserTime: UInt?
}

extension Application {
    /// The user time a new top-level window starts with: the latest press in the application,
    /// else the launch's time from the startup ID; nil when neither is known (the window
    /// manager then decides as for any window).
    var initialUserTime: UInt? {
        desktop.lastUserTime ?? desktop.startup?.launchTime
    }

    /// Ends the launch sequence, once: the first top-level window is being mapped.
    func completeStartupNotification() {
        guard let startup = desktop.startup else { return }
        desktop.startup = nil
        connection.broadcastStartupMessage(startup.removeMessage)
    }

    /// Records a key or button press at server time `time`.
    func noteUserInput(at time: UInt) {
        guard time != 0 else { return }
        desktop.lastUserTime = time
    }
}
