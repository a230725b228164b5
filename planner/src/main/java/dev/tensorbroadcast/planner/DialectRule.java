package dev.tensorbroadcast.planner;

/** One framework's broadcast rule: maps a request to a plan, or throws a {@link BroadcastException} saying why not. */
interface DialectRule {
    BroadcastPlan plan(BroadcastRequest request);
}
