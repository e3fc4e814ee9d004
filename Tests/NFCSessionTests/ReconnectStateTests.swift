import Testing

@testable import NFCSession

/// The reconnecting reader's link, transition by transition.
@Suite struct ReconnectStateTests {
    @Test("Working, lost, reconnecting, back: the reason is kept until the reader works again")
    func lossAndReconnect() {
        var state = ReconnectState(isEnabled: true)
        #expect(state.link == .working && state.lostReason == nil && !state.isReconnecting)
        state.lost("unplugged")
        #expect(state.link == .lost(reason: "unplugged") && state.lostReason == "unplugged")
        state.lost("still unplugged")
        #expect(state.lostReason == "still unplugged")
        let began = state.beginReconnect("still unplugged")
        #expect(began)
        #expect(state.isReconnecting && state.lostReason == "still unplugged" && !state.mustStopReconnecting)
        // A loss reported by an exchange during the reconnect changes nothing.
        state.lost("other")
        #expect(state.link == .reconnecting(reason: "still unplugged", cancelRequested: false))
        state.worked()
        #expect(state.link == .working && state.lostReason == nil)
    }

    @Test("A cancel stops only a reconnect under way; the reader stays lost and the next poll tries again")
    func cancel() {
        var state = ReconnectState(isEnabled: true)
        state.cancelReconnect()
        #expect(state.link == .working)
        let began1 = state.beginReconnect("gone")
        #expect(began1)
        state.cancelReconnect()
        #expect(state.mustStopReconnecting && state.isReconnecting)
        state.reconnectFailed()
        #expect(state.link == .lost(reason: "gone") && !state.isReconnecting)
        // A new reconnect starts without the old request.
        let began2 = state.beginReconnect("gone")
        #expect(began2)
        #expect(!state.mustStopReconnecting)
    }

    @Test("Closed is final: it stops a reconnect, and nothing reopens it")
    func close() {
        var state = ReconnectState(isEnabled: true)
        let began3 = state.beginReconnect("gone")
        #expect(began3)
        state.close()
        #expect(state.isClosed && state.mustStopReconnecting && !state.isReconnecting)
        state.reconnectFailed()
        state.worked()
        state.lost("again")
        #expect(state.link == .closed)
        let began4 = state.beginReconnect("again")
        #expect(!began4)
        #expect(state.lostReason == nil)
    }
}
