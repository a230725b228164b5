package dev.tensorbroadcast.planner;

/** Short ways to build requests in tests: shapes in the CLI's notation. */
final class Requests {
    private Requests() {}

    static BroadcastRequest.Builder request(Dialect dialect, String... inputs) {
        BroadcastRequest.Builder builder = BroadcastRequest.builder(dialect);
        for (String input : inputs) {
            builder.input(Shape.parse(input));
        }
        return builder;
    }

    static Shape expand(Dialect dialect, String input, String target) {
        return request(dialect, input)
                .target(TargetShape.parse(target))
                .build()
                .plan()
                .output();
    }

    static Shape together(Dialect dialect, String... inputs) {
        return request(dialect, inputs).build().plan().output();
    }
}
