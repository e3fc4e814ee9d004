import NFCWireFormat
import TagMemory
import TagSimulator
import TestSupport
import Testing

@testable import SimulatorBridges

/// ``PN532SerialChip``: the PN532's answers on its serial link (UM0701 6.2.2 and section 7),
/// frame in, frames out, without I/O.
@Suite struct PN532SerialChipTests {
    /// The chip and its field, with a factory NTAG215 (UID 04 51 7C A2 4B 35 80).
    struct Bench {
        var chip = PN532SerialChip()
        var field: SimulatedField

        init(_ tags: [SimulatedTag] = [.type2(SimulatedType2Tag(chip: .ntag215))]) {
            field = SimulatedField(tags: tags)
        }

        /// The frames the chip sends back for the command `information` (hex, from D4), as hex.
        mutating func send(_ information: String) -> [String] {
            chip.receive(.information(hex(information)), field: &field).frames.map { hexText($0) }
        }

        /// The response frame's information (TFI on), the ACK checked and stripped.
        mutating func answer(_ information: String) -> String {
            let frames = send(information)
            guard frames.count == 2, frames[0] == "0000FF00FF00" else { return "frames: \(frames)" }
            var decoder = PN532FrameDecoder(maximumLength: 0xFFFF)
            decoder.append(hex(frames[1]))
            guard case .frame(.information(let bytes))? = decoder.next() else { return "undecodable \(frames[1])" }
            return hexText(bytes)
        }
    }

    @Test("Each command is ACKed, then answered (SAMConfiguration as libnfc sends it)")
    func ackThenResponse() {
        var bench = Bench()
        #expect(bench.send("D41401") == ["0000FF00FF00", "0000FF02FED5151600"])
    }

    @Test("Diagnose 00 echoes libnfc's 'libnfc' and nfcpy's 263-byte line test (in an extended frame)")
    func diagnose() {
        var bench = Bench()
        #expect(bench.answer("D400006C69626E6663") == "D50100" + "6C69626E6663")
        let data = "00" + hexText((0..<262).map { UInt8(truncatingIfNeeded: $0) })
        let frames = bench.send("D400" + data)
        #expect(frames.count == 2)
        #expect(frames.last?.hasPrefix("0000FFFFFF0109F6D501" + data) == true)
        #expect(bench.answer("D40001") == "D50100")
    }

    @Test("GetFirmwareVersion: PN532 v1.6, support 07")
    func firmwareVersion() {
        var bench = Bench()
        #expect(bench.answer("D402") == "D50332010607")
    }

    @Test("SetSerialBaudRate 07 (nfcpy) is answered D5 11; the host's ACK afterwards sends nothing")
    func serialBaudRate() {
        var bench = Bench()
        #expect(bench.answer("D41007") == "D511")
        #expect(bench.chip.receive(.ack, field: &bench.field).frames.isEmpty)
        #expect(bench.send("D41009") == ["0000FF00FF00", hexText(PN532Frame.errorBytes)])
    }

    @Test("PowerDown F0 (libnfc): D5 17 00, the field goes off and the tags to IDLE; bytes wake the chip")
    func powerDown() {
        var bench = Bench()
        #expect(bench.answer("D44A0100").hasPrefix("D54B01"))
        #expect(bench.answer("D416F0") == "D51700")
        #expect(bench.chip.isPoweredDown)
        #expect(!bench.field.isOn)
        #expect(bench.field.tags.first?.state == .idle)
        bench.chip.wake()
        #expect(!bench.chip.isPoweredDown)
        // InListPassiveTarget switches the field on again and finds the tag.
        #expect(bench.answer("D44A0100") == "D54B01" + "0100440007" + "04517CA24B3580")
    }

    @Test("A NACK brings the last response frame again; a NACK before any response brings nothing")
    func nackResends() {
        var bench = Bench()
        #expect(bench.chip.receive(.nack, field: &bench.field).frames.isEmpty)
        let frames = bench.send("D402")
        let again = bench.chip.receive(.nack, field: &bench.field).frames.map { hexText($0) }
        #expect(again == [frames[1]])
    }

    @Test("An unknown command, a wrong TFI and wrong parameters get ACK and the error frame")
    func refusals() {
        var bench = Bench()
        for information in ["D4FE", "D5 02", "D4", "D44A05", "D416", "D400"] {
            let reaction = bench.chip.receive(.information(hex(information)), field: &bench.field)
            #expect(
                reaction.frames.map { hexText($0) } == ["0000FF00FF00", hexText(PN532Frame.errorBytes)],
                "\(information)")
            #expect(reaction.refused)
        }
    }

    @Test("The tag leaving during InDataExchange is answered with status 01 (time-out)")
    func tagLeaves() {
        var bench = Bench()
        bench.field.arm(.init(removeAfterCommands: 2))
        #expect(bench.answer("D44A0100").hasPrefix("D54B01"))
        #expect(bench.answer("D440013004") == "D54100" + "0300FE00" + "000000000000000000000000")
        let reaction = bench.chip.receive(.information(hex("D440013004")), field: &bench.field)
        #expect(reaction.tagsLeft)
        #expect(
            reaction.frames.map { hexText($0) }.last == hexText(PN532Frame.information(hex("D54101")).encoded ?? []))
        #expect(bench.answer("D44A0100") == "D54B00")
    }

    @Test("InListPassiveTarget with MaxTg 1 lists one tag at a time; the other stays IDLE for the next")
    func twoTagsOneAtATime() {
        var bench = Bench([
            .type2(SimulatedType2Tag(chip: .ntag215)),
            .type2(SimulatedType2Tag(chip: .ntag213, uid: hex("04517CA24B3581"))),
        ])
        #expect(bench.answer("D44A0100").hasSuffix("0704517CA24B3580"))
        #expect(bench.answer("D44400") == "D54500")
        #expect(bench.answer("D44A0100").hasSuffix("0704517CA24B3581"))
        #expect(bench.answer("D44400") == "D54500")
        #expect(bench.answer("D44A0100") == "D54B00")
        // The field going off wakes both; MaxTg 2 lists both.
        #expect(bench.answer("D4320100") == "D533")
        #expect(
            bench.answer("D44A0200")
                == "D54B02" + "0100440007" + "04517CA24B3580" + "0200440007" + "04517CA24B3581")
    }

    @Test("Initiator data with the cascade tag (as libnfc and nfcpy send a 7-byte UID) selects that tag")
    func cascadeTag() {
        var bench = Bench([
            .type2(SimulatedType2Tag(chip: .ntag215)),
            .type2(SimulatedType2Tag(chip: .ntag213, uid: hex("04517CA24B3581"))),
        ])
        #expect(bench.answer("D44A0100" + "8804517CA24B3581").hasSuffix("0704517CA24B3581"))
        #expect(bench.answer("D44A0100" + "04517CA24B3580").hasSuffix("0704517CA24B3580"))
    }

    @Test("Initiator data wakes the halted card it names (libfreefare's connect after InDeselect)")
    func uidWakesHaltedCard() {
        var bench = Bench([.classic(SimulatedClassicTag(type: .classic1K, uid: hex("5A3C910E")))])
        #expect(bench.answer("D44A0100") == "D54B01" + "01000408045A3C910E")
        #expect(bench.answer("D44400") == "D54500")
        // REQA: the halted card does not answer a list without a UID.
        #expect(bench.answer("D44A0100") == "D54B00")
        // With its UID it is woken (WUPA) and listed, and a refused key leaves it for the next.
        #expect(bench.answer("D44A0100" + "5A3C910E").hasSuffix("5A3C910E"))
        #expect(bench.answer("D4400160" + "03" + "000000000000" + "5A3C910E") == "D54114")
        #expect(bench.answer("D44A0100" + "5A3C910E").hasSuffix("5A3C910E"))
        #expect(bench.answer("D4400160" + "03" + "FFFFFFFFFFFF" + "5A3C910E") == "D54100")
        // Another UID finds nothing.
        #expect(bench.answer("D44A0100" + "5A3C910F") == "D54B00")
    }

    @Test("InCommunicateThru, CRC off: 40h in 7 bits then 43h get a 4-bit ACK from a Gen1a card only")
    func gen1aBackdoor() {
        for isMagic in [true, false] {
            var card = SimulatedClassicTag(type: .classic1K)
            card.answersGen1aBackdoor = isMagic
            var bench = Bench([.classic(card)])
            #expect(bench.answer("D44A0100").hasPrefix("D54B01"))
            // CRC off both ways (CIU_TxMode, CIU_RxMode 00h), then HLTA with its CRC_A: no answer.
            #expect(bench.answer("D408" + "630200" + "630300") == "D509")
            #expect(bench.answer("D442" + "500057CD") == "D54301")
            // TxLastBits 7 (CIU_BitFraming), 40h.
            #expect(bench.answer("D408" + "633D07") == "D509")
            #expect(bench.answer("D442" + "40") == (isMagic ? "D543000A" : "D54301"))
            #expect(bench.answer("D408" + "633D00") == "D509")
            #expect(bench.answer("D442" + "43") == (isMagic ? "D543000A" : "D54301"))
        }
    }

    @Test("After InListPassiveTarget the CIU is set for Type A with CRC on, whatever was written before")
    func registersAfterListing() {
        var bench = Bench()
        #expect(bench.answer("D408630200630300") == "D509")
        #expect(bench.answer("D44A0100").hasPrefix("D54B01"))
        #expect(bench.answer("D40663026303") == "D5078080")
        #expect(bench.answer("D4423000") == "D54300" + "04517CA1A24B35805C480000E1103E00")
    }

    @Test("InAutoPoll (libnfc's nfc-poll: types 20 and 10): the first type that finds tags answers")
    func autoPoll() throws {
        var bench = Bench()
        #expect(bench.answer("D460140220 10") == "D56101" + "10" + "0C" + "0100440007" + "04517CA24B3580")
        #expect(bench.answer("D440013004").hasPrefix("D54100"))
        var type4 = Bench([.type4(try SimulatedType4Tag(configuration: .init()))])
        let tag = try SimulatedType4Tag(configuration: .init())
        let data = "0103442007" + hexText(tag.uid) + hexText(tag.ats)
        #expect(type4.answer("D460140220 10") == "D56101" + "20" + hexText([UInt8(data.count / 2)]) + data)
        #expect(bench.answer("D460FF0111") == "D56100")
        // PollNr 00 and Period 00 are no valid parameters.
        #expect(bench.chip.receive(.information(hex("D460000110")), field: &bench.field).refused)
        #expect(bench.chip.receive(.information(hex("D460010010")), field: &bench.field).refused)
    }

    @Test("50 000 seeded random commands (known codes, random arguments, ISO-DEP blocks) never trap")
    func hostileCommands() throws {
        var generator = SeededRandom(seed: 0x4A_0532)
        var bench = Bench([
            .type2(SimulatedType2Tag(chip: .ntag215)), .type4(try SimulatedType4Tag(configuration: .init())),
            .classic(SimulatedClassicTag(type: .classic1K)),
        ])
        let codes: [UInt8] = [
            0x00, 0x02, 0x04, 0x06, 0x08, 0x10, 0x12, 0x14, 0x16, 0x32, 0x40, 0x42, 0x44, 0x4A, 0x52, 0x54, 0x60, 0xFF,
        ]
        for round in 0..<50_000 {
            let code = codes[Int.random(in: 0..<codes.count, using: &generator)]
            let count = Int.random(in: 0...(round.isMultiple(of: 100) ? 300 : 12), using: &generator)
            var arguments = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Aim InDataExchange and InCommunicateThru at the listed targets and at ISO-DEP PCBs.
            if code == 0x40 || code == 0x42, !arguments.isEmpty, Bool.random(using: &generator) {
                arguments[0] = [0x01, 0x02, 0x02, 0x03, 0x12, 0xA2, 0xB3, 0xC2, 0xE0, 0x0A][Int(arguments[0] % 10)]
            }
            let information = [0xD4, code] + arguments
            guard PN532Frame.information(information).encoded != nil else { continue }
            let reaction = bench.chip.receive(.information(information), field: &bench.field)
            #expect(reaction.frames.count == 2)
            #expect(reaction.frames.first == PN532Frame.ackBytes)
            if round.isMultiple(of: 1000) { bench.field.fieldOff() }
        }
    }

    @Test("Empty InCommunicateThru (libnfc's barcode probe) and Type B framing find no Type A tag: time-out")
    func probesTimeOut() {
        var bench = Bench()
        #expect(bench.answer("D442") == "D54301")
        #expect(bench.answer("D44A0100").hasPrefix("D54B01"))
        #expect(bench.answer("D40863028363038B") == "D509")
        #expect(bench.answer("D44206000E5A") == "D54301")
    }
}
