package dev.tensorbroadcast.job.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The user guide (README.md and docs/*.md) and {@code --help} agree on flag names, read from picocli's model of
 * every subcommand: every option a command takes is named in the guide, every command line the guide shows uses only
 * options its command takes, and every other {@code --flag} the guide names is one of ours or another tool's, listed
 * in {@link #OTHER_TOOLS}. A renamed or removed flag fails here until the guide says the new name.
 */
class GuideFlagsTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern FLAG = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*");
    private static final Pattern COMMAND = Pattern.compile("^\\$ \\./tensor-broadcast ((?:[a-z-]+ ?)+)(.*)$");

    /** Flags of other tools the guide names, by tool; none is ours. */
    private static final Map<String, Set<String>> OTHER_TOOLS = Map.of(
            "spark-submit", Set.of("--class", "--deploy-mode", "--properties-file", "--jars", "--packages", "--remote"),
            "java", Set.of("--add-opens"),
            "the bench/ and fuzz/ scripts",
                    Set.of(
                            "--base",
                            "--cases",
                            "--codecs",
                            "--duration",
                            "--gib",
                            "--head",
                            "--heap",
                            "--minutes",
                            "--no-build",
                            "--parquet-size",
                            "--patterns",
                            "--reps",
                            "--run",
                            "--scaling-size",
                            "--seed",
                            "--size",
                            "--tools"),
            "docs/errors.md's mistyped examples", Set.of("--bogus", "--shpae"));

    @Test
    void everyOptionOfEveryCommandIsNamedInTheGuide() throws IOException {
        String guide = guideText();
        Map<String, Set<String>> missing = new TreeMap<>();
        commands()
                .forEach((name, options) -> options.stream()
                        .filter(flag -> !guide.contains("`" + flag)
                                && !guide.contains(" " + flag + " ")
                                && !guide.contains(" " + flag + "\n"))
                        .forEach(flag -> missing.computeIfAbsent(name, n -> new TreeSet<>())
                                .add(flag)));
        assertThat(missing)
                .as("options --help lists that the guide never names (command: flags)")
                .isEmpty();
    }

    @Test
    void everyCommandLineOfTheGuideUsesOptionsItsCommandTakes() throws IOException {
        Map<String, Set<String>> commands = commands();
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (String line : commandLines()) {
            Matcher command = COMMAND.matcher(line);
            if (!command.matches()) {
                continue;
            }
            String name = longestCommand(commands, command.group(1).strip());
            String rest = line.substring(line.indexOf(name) + name.length());
            Matcher flag = FLAG.matcher(rest.replaceAll("#.*$", ""));
            while (flag.find()) {
                if (!commands.get(name).contains(flag.group())) {
                    wrong.add(name + " " + flag.group() + " in: " + line);
                }
            }
            checked++;
        }
        assertThat(checked).as("command lines in the guide").isGreaterThan(50);
        assertThat(wrong).as("flags the command's --help does not list").isEmpty();
    }

    @Test
    void everyFlagTheGuideNamesIsOursOrAnotherToolsListedHere() throws IOException {
        Set<String> ours = new TreeSet<>();
        commands().values().forEach(ours::addAll);
        Set<String> others = new TreeSet<>();
        OTHER_TOOLS.values().forEach(others::addAll);
        assertThat(others).as("another tool's flag that is also ours").doesNotContainAnyElementsOf(ours);
        Set<String> unknown = new TreeSet<>();
        Set<String> named = new TreeSet<>();
        Matcher flag = FLAG.matcher(guideText());
        while (flag.find()) {
            named.add(flag.group());
            if (!ours.contains(flag.group()) && !others.contains(flag.group())) {
                unknown.add(flag.group());
            }
        }
        assertThat(unknown).as("flags named in the guide that no command takes").isEmpty();
        assertThat(named)
                .as("the other tools' flags listed here are the guide's")
                .containsAll(others);
    }

    /** Every command and subcommand (as typed: "cluster start"), with the long names of its options. */
    private static Map<String, Set<String>> commands() {
        Map<String, Set<String>> commands = new LinkedHashMap<>();
        CommandLine root = TensorBroadcastCli.commandLine(
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        collect(root, commands);
        return commands;
    }

    private static void collect(CommandLine line, Map<String, Set<String>> into) {
        for (CommandLine sub : line.getSubcommands().values()) {
            Set<String> names = new TreeSet<>();
            for (OptionSpec option : sub.getCommandSpec().options()) {
                for (String name : option.names()) {
                    if (name.startsWith("--")) {
                        names.add(name);
                    }
                }
            }
            into.put(sub.getCommandSpec().qualifiedName(" ").substring("tensor-broadcast ".length()), names);
            collect(sub, into);
        }
    }

    private static String longestCommand(Map<String, Set<String>> commands, String words) {
        String found = null;
        for (String name : commands.keySet()) {
            if ((words.equals(name) || words.startsWith(name + " "))
                    && (found == null || name.length() > found.length())) {
                found = name;
            }
        }
        assertThat(found).as("a command of ours: " + words).isNotNull();
        return found;
    }

    /** The guide's command lines ("$ ./tensor-broadcast ..."), a line ending in a backslash joined to the next. */
    private static List<String> commandLines() throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path page : pages()) {
            StringBuilder current = null;
            for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
                if (current == null && !line.startsWith("$ ./tensor-broadcast ")) {
                    continue;
                }
                String text = line.strip();
                boolean more = text.endsWith("\\");
                text = more ? text.substring(0, text.length() - 1).strip() : text;
                current = current == null
                        ? new StringBuilder(text)
                        : current.append(' ').append(text);
                if (!more) {
                    lines.add(current.toString());
                    current = null;
                }
            }
        }
        return lines;
    }

    private static String guideText() throws IOException {
        StringBuilder text = new StringBuilder();
        for (Path page : pages()) {
            text.append(Files.readString(page, StandardCharsets.UTF_8)).append('\n');
        }
        return text.toString();
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(path -> path.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .forEach(pages::add);
        }
        return pages;
    }
}
