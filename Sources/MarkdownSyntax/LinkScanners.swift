// Temporary stub on main; the inline helper's branch replaces this file.
public struct ScannedLinkDefinition: Sendable, Equatable {
    public var label: ByteSpan
    public var destination: ByteSpan
    public var destinationIsPointy: Bool
    public var title: ByteSpan
    public var hasTitle: Bool
    public var end: Int
}
public enum LinkScanners {
    public static func scanLinkDefinition(_ bytes: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> ScannedLinkDefinition? { nil }
    public static func normalizeLabel(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self).lowercased() }
}
