/// The member names of a node's `data.payload` (spec §5), spelled once: `NodePayload.jsonObject`
/// writes them and the validator's `PayloadReader` reads them.
public enum PayloadKey {
    // Task fields (CREATE, UPDATE).
    public static let title = "title"
    public static let description = "description"
    public static let privacy = "privacy"
    public static let storyPoints = "storyPoints"
    public static let priority = "priority"
    public static let frequencyDays = "frequencyDays"

    // Todo actions (CREATE_TODO, COMPLETE_TODO, SNOOZE).
    public static let todoTaskID = "todoTaskId"
    public static let deadline = "deadline"
    public static let completed = "completed"
    public static let notes = "notes"
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
    static let taskFields = [title, description, privacy, storyPoints, priority, frequencyDays]
}
