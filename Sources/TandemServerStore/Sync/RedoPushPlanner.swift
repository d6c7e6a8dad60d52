import TandemAPI

/// The contextual checks of a node push (issue 12 item 2; redo-protocol §11.2), one pure
/// function shared by the SQLite and PostgreSQL stores: they read the facts, the planner decides
/// every node's answer and the rows to write, and the store writes them in the same transaction.
///
/// The rules, per node in push order (a node accepted earlier in the push counts as stored for
/// the ones after it, exactly as if the nodes had come one request at a time):
/// 1. the task has an access list without the pusher → `E_TASK_FORBIDDEN` (checked first, so a
///    node id of someone else's task is never confirmed as a duplicate);
/// 2. the id is stored → `duplicate` (same id, same content: ids are content hashes, spec §3);
/// 3. a CREATE of a task that already has an access list → `E_DUPLICATE_CREATE`; an accepted
///    CREATE grants the pusher the new task;
/// 4. any other node needs its task to exist and every parent stored in the same task, else
///    `E_PARENT_NOT_FOUND` (the store stays closed under parents, so a pull never hands out a
///    pending node).
/// An accepted node takes the next node position, then one feed position per reader of its
/// task, readers in ascending id order.
enum RedoPushPlanner {
    static func plan(_ drafts: [RedoNodeDraft], pusher: String, facts: RedoPushFacts, clock: Int64)
        -> RedoPushPlan
    {
        var plan = RedoPushPlan(clock: clock)
        plan.outcomes.reserveCapacity(drafts.count)
        var readers = facts.readers
        var nodeTasks = facts.nodeTasks
        for draft in drafts {
            let known = readers[draft.taskID] ?? []
            if !known.isEmpty && !known.contains(pusher) {
                plan.outcomes.append(.rejected(.taskForbidden))
                continue
            }
            if nodeTasks[draft.id] != nil {
                plan.outcomes.append(.duplicate)
                continue
            }
            var granted = known
            if draft.isCreate {
                guard known.isEmpty else {
                    plan.outcomes.append(.rejected(.redo(.duplicateCreate)))
                    continue
                }
                plan.grants.append(draft.taskID)
                granted = [pusher]
            } else {
                guard !known.isEmpty, draft.parents.allSatisfy({ nodeTasks[$0] == draft.taskID }) else {
                    plan.outcomes.append(.rejected(.redo(.parentNotFound)))
                    continue
                }
            }
            readers[draft.taskID] = granted
            nodeTasks[draft.id] = draft.taskID
            plan.clock += 1
            let nodePosition = plan.clock
            plan.nodes.append(
                .init(
                    id: draft.id, taskID: draft.taskID, position: nodePosition, json: draft.json,
                    authorKey: draft.authorKey))
            for reader in granted.sorted() {
                plan.clock += 1
                plan.feed.append(
                    .init(position: plan.clock, userID: reader, nodeID: draft.id, nodePosition: nodePosition))
            }
            plan.outcomes.append(.accepted)
        }
        return plan
    }
}
