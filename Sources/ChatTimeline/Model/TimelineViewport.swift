/// The scroll view's visible geometry on the list axis, in points.
///
/// `contentOffset` follows UIKit: the viewport's top in content space, `-topInset` when scrolled
/// to the very top.
public struct TimelineViewport: Hashable, Sendable {
    public var height: Double
    public var topInset: Double
    public var bottomInset: Double

    public init(height: Double, topInset: Double = 0, bottomInset: Double = 0) {
        self.height = height
        self.topInset = topInset
        self.bottomInset = bottomInset
    }
}
