/// The member names of a node's `data.payload` (spec §5), spelled once: `NodePayload.jsonObject`
/// writes them and the validator's `PayloadReader` reads them. A task or todo field's name is its
/// ``RedoField/key``.
public enum PayloadKey {
    // Task fields (CREATE, UPDATE).
    public static let title = RedoField.title.key
    public static let description = RedoField.description.key
    public static let privacy = RedoField.privacy.key
    public static let storyPoints = RedoField.storyPoints.key
    public static let priority = RedoField.priority.key
    public static let frequencyDays = RedoField.frequencyDays.key

    // Todo actions (CREATE_TODO, COMPLETE_TODO, SNOOZE).
    public static let todoTaskID = "todoTaskId"
    public static let deadline = RedoField.deadline.key
    public static let completed = RedoField.completed.key
    public static let notes = RedoField.notes.key
    public static let daysToExtend = "daysToExtend"
    public static let newDeadline = "newDeadline"

    // DELETE.
    public static let deletedChain = "deletedChain"

    // MERGE and its policy and resolutions.
    public static let base = "base"
    public static let policy = "policy"
    public static let resolutions = "resolutions"
    public static let defaultStrategy = "defaultStrategy"
    public static let lwwTiebreakers = "lwwTiebreakers"
    public static let arrayStrategy = "arrayStrategy"
    public static let task = "task"
    public static let todos = "todos"
    public static let fields = "fields"
    public static let path = "path"
    public static let strategy = "strategy"
    public static let chosenParent = "chosenParent"
    public static let value = "value"

    /// Every field a CREATE may set or an UPDATE overwrite.
    static let taskFields = RedoField.taskPayloadFields.map(\.key)
}
