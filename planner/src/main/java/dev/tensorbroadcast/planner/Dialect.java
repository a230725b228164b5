package dev.tensorbroadcast.planner;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The frameworks whose broadcast rules the planner reproduces; each rule lives in a small class of its own. */
public enum Dialect {
    NUMPY("numpy", new NumpyRule()),
    MINDSPORE("mindspore", new MindsporeRule()),
    PYTORCH("pytorch", new PytorchRule()),
    PADDLE("paddle", new PaddleRule()),
    ONNX("onnx", new OnnxRule()),
    OPENVINO("openvino", new OpenvinoRule()),
    NGRAPH("ngraph", new NgraphRule());

    private final String name;
    private final DialectRule rule;

    Dialect(String name, DialectRule rule) {
        this.name = name;
        this.rule = rule;
    }

    public String dialectName() {
        return name;
    }

    DialectRule rule() {
        return rule;
    }

    public static Dialect parse(String text) {
        String key = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        for (Dialect dialect : values()) {
            if (dialect.name.equals(key)) {
                return dialect;
            }
        }
        throw new InvalidRequestException("Cannot parse dialect '" + text + "': expected one of "
                + Arrays.stream(values()).map(Dialect::dialectName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return name;
    }
}
