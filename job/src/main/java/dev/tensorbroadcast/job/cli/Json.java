package dev.tensorbroadcast.job.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tensorbroadcast.planner.Shape;

/** The one JSON mapper; loaded only when JSON is printed, which keeps plain runs quick to start. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    static String write(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            // a tree of plain values always serializes
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    static ArrayNode array(long[] values) {
        ArrayNode array = MAPPER.createArrayNode();
        for (long value : values) {
            array.add(value);
        }
        return array;
    }

    static ArrayNode array(Shape shape) {
        return array(shape.dims());
    }
}
