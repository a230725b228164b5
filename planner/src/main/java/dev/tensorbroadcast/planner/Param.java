package dev.tensorbroadcast.planner;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A parameter of a request as a message names it: by its builder method for a Java caller ({@code maxOutputBytes}),
 * by its flag on the command line ({@code --max-output}). A library message holds a mention of both (see
 * {@link #named()} and {@link #given}); {@link BroadcastException#getMessage()} shows the builder's words, and
 * {@link BroadcastException#commandLineMessage()} the flags, which is what the CLI prints.
 */
public enum Param {
    SHAPE("shape", "--shape"),
    MODE("mode", "--mode"),
    AXES_MAPPING("axesMapping", "--axes-mapping"),
    BROADCAST_AXES("broadcastAxes", "--broadcast-axes"),
    AXIS("axis", "--axis"),
    COLUMN("column", "--column"),
    ROW_SHAPE("rowShape", "--row-shape"),
    KEEP("keep", "--keep"),
    PARTITION_BY("partitionBy", "--partition-by"),
    OUTPUT("output", "--output"),
    FORMAT("format", "--format"),
    CHUNKS("chunks", "--chunks"),
    SHARD("shard", "--shard"),
    DIMENSION_NAMES("dimensionNames", "--dimension-names"),
    COMPRESSION("compression", "--compression"),
    ROW_GROUP_SIZE("rowGroupBytes", "--row-group-size"),
    ENCODING("byteStreamSplit", "--encoding"),
    ROW_LAYOUT("rowLayout", "--row-layout"),
    MAX_OUTPUT("maxOutputBytes", "--max-output"),
    IGNORE_FREE_SPACE("checkFreeSpace", "--ignore-free-space"),
    OVERWRITE("overwrite", "--overwrite"),
    PARTITIONS("partitions", "--partitions"),
    INPUT_INDEX("inputIndex", "--input-index"),
    SOURCE("source", "--source");

    // private-use characters: nothing a user types or a file holds is mistaken for a mention
    private static final char START = '\uE000';
    private static final char BETWEEN = '\uE001';
    private static final char END = '\uE002';
    private static final Pattern MENTION =
            Pattern.compile(START + "([^" + BETWEEN + "]*)" + BETWEEN + "([^" + END + "]*)" + END);

    private final String apiName;
    private final String flag;

    Param(String apiName, String flag) {
        this.apiName = apiName;
        this.flag = flag;
    }

    /** The builder method's name, {@code maxOutputBytes}. */
    public String apiName() {
        return apiName;
    }

    /** The command line's flag, {@code --max-output}. */
    public String flag() {
        return flag;
    }

    /** The parameter itself: {@code maxOutputBytes}, or {@code --max-output}. */
    public String named() {
        return mention(apiName, flag);
    }

    /**
     * The parameter with a value, each in its own words: {@code maxOutputBytes(2199023255552)}, or
     * {@code --max-output 2t}; a null {@code flagValue} is a flag that takes none ({@code overwrite(true)}, or
     * {@code --overwrite}).
     */
    public String given(String apiValue, String flagValue) {
        return mention(apiName + "(" + apiValue + ")", flagValue == null ? flag : flag + " " + flagValue);
    }

    /** Any text in the two audiences' words, for what one parameter cannot say alone. */
    public static String mention(String api, String commandLine) {
        return START + api + BETWEEN + commandLine + END;
    }

    /** {@code text} with every mention in the builder's words: what a Java caller reads. */
    public static String apiText(String text) {
        return render(text, 1);
    }

    /** {@code text} with every mention in flags: what the command line prints. */
    public static String commandLineText(String text) {
        return render(text, 2);
    }

    private static String render(String text, int group) {
        if (text == null || text.indexOf(START) < 0) {
            return text;
        }
        Matcher matcher = MENTION.matcher(text);
        StringBuilder rendered = new StringBuilder(text.length());
        while (matcher.find()) {
            matcher.appendReplacement(rendered, Matcher.quoteReplacement(matcher.group(group)));
        }
        return matcher.appendTail(rendered).toString();
    }
}
