package dev.tensorbroadcast.planner;

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

    @SuppressWarnings("ImmutableEnumChecker") // every rule is stateless; planner takes no annotation library to say so
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
        return EnumNames.parse(values(), Dialect::dialectName, text, "Cannot parse dialect");
    }

    @Override
    public String toString() {
        return name;
    }
}
