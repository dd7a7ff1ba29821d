/// Builds a profile's instructions; several `Instructions` join with a blank line.
@resultBuilder
public enum ProfileBuilder {
    public static func buildExpression(_ instructions: Instructions) -> [Instructions] { [instructions] }
    public static func buildBlock(_ components: [Instructions]...) -> [Instructions] {
        components.flatMap { $0 }
    }
    public static func buildOptional(_ component: [Instructions]?) -> [Instructions] { component ?? [] }
    public static func buildEither(first component: [Instructions]) -> [Instructions] { component }
    public static func buildEither(second component: [Instructions]) -> [Instructions] { component }
    public static func buildArray(_ components: [[Instructions]]) -> [Instructions] {
        components.flatMap { $0 }
    }
}
