/// The ISO/IEC 14443-3 state of a simulated Type A tag (IDLE, READY, ACTIVE, HALT), shared by
/// every simulated chip; the same type as ``SimulatedType2Tag/State``.
public typealias ISO14443State = SimulatedType2Tag.State
