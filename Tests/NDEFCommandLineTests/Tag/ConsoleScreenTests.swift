import Testing

@testable import NDEFCommandLine

/// What a tag command's standard error shows, step by step.
@Suite struct ConsoleScreenTests {
    @Test("A line after a progress line ends it first; a second line does not add a break")
    func progressThenLines() {
        var screen = ConsoleScreen()
        #expect(screen.progress("Writing: 1 of 9 page writes") == "\rWriting: 1 of 9 page writes\u{1B}[K")
        #expect(screen.progress("Writing: 2 of 9 page writes") == "\rWriting: 2 of 9 page writes\u{1B}[K")
        #expect(screen.progressShown)
        #expect(screen.line("Done.") == "\nDone.\n")
        #expect(!screen.progressShown)
        #expect(screen.line("Next.") == "Next.\n")
        #expect(screen.endProgress() == "")
    }

    @Test("A question ends a progress line and keeps the cursor after it")
    func question() {
        var screen = ConsoleScreen()
        _ = screen.progress("Writing: 1 of 2 page writes")
        #expect(screen.question("Lock it? ") == "\nLock it? ")
        #expect(screen.question("Sure? ") == "Sure? ")
    }

    @Test("The hold prompt is shown once, with the reader the session began on")
    func holdPromptOnce() {
        var screen = ConsoleScreen()
        screen.readerName = "ACS ACR122U 00 00"
        #expect(screen.waitingPrompt() == "Hold a tag to the reader (ACS ACR122U 00 00)...")
        #expect(screen.waitingPrompt() == nil)
        var unnamed = ConsoleScreen()
        #expect(unnamed.waitingPrompt() == "Hold a tag to the reader...")
    }

    @Test("The most tags seen at once is kept")
    func tagsSeen() {
        var screen = ConsoleScreen()
        screen.tagsSeen(3)
        screen.tagsSeen(2)
        #expect(screen.tagsSeenAtOnce == 3)
    }
}
